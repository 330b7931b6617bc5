# base: solution
# at: start
# cli: error | Resource temporarily unavailable (if your code was starting processes: it reached the limit of 32 processes)
# browser: skip
# contained: yes
import os
import time

for _ in range(10_000):
    if os.fork() == 0:
        time.sleep(60)
        os._exit(0)
