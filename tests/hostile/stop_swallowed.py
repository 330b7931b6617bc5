# base: solution
# timeout: 1
# cli: error | ran past the 1 s time limit and did not stop when asked
# browser: skip
# contained: yes
import time

while True:
    try:
        time.sleep(0.05)
    except BaseException:
        pass
