# base: solution
# expect: pass | private folder: ok
# contained: yes
import os
import tempfile

# What a lesson may rely on: input.txt in the working folder, which is writable, and a temporary
# folder of its own (the check runtime makes one to run a file again with another input.txt).
with open("input.txt") as file:
    assert file.readline().strip(), "input.txt is empty"
with open("notes.txt", "w") as file:
    file.write("mine\n")
folder = tempfile.mkdtemp()
with open(os.path.join(folder, "input.txt"), "w") as file:
    file.write("ann\nbob\n")
with open(os.path.join(folder, "input.txt")) as file:
    assert file.read() == "ann\nbob\n"
print("private folder: ok")
