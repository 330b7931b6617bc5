# base: solution
# cli: pass | more bytes not shown
# browser: skip
import os

chunk = b"y" * 1_000_000
for _ in range(200):
    os.write(1, chunk)
    os.write(2, chunk)
