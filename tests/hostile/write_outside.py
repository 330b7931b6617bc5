# base: solution
# cli: pass | writes: tried
# browser: skip
# contained: yes
import os

# Files where the check's own folder is not: the test insists that none of them is left after
# the check. (Contained, /tmp and /dev/shm are private and go with the check; the rest of the
# file system is read-only.)
for folder in ("/tmp", "/dev/shm", "..", "../..", "/var/tmp", os.path.expanduser("~/..")):
    try:
        with open(os.path.join(folder, "linebyline-escaped-file"), "w") as file:
            file.write("left behind by a check\n")
    except OSError:
        pass
print("writes: tried")
