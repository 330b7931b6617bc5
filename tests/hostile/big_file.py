# base: solution
# cli: error | File too large (your code wrote a file bigger than the 64 MB limit on files)
# browser: skip
# contained: yes
with open("big.bin", "wb") as file:
    for _ in range(100):
        file.write(b"z" * 1_000_000)
