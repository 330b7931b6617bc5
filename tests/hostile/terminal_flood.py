# base: solution
# cli: pass | bytes straight to the terminal; the first 65,536 are shown
# browser: skip
import os

chunk = b"y" * 1_000_000
for _ in range(200):
    os.write(1, chunk)
    os.write(2, chunk)
