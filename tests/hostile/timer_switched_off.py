# base: solution
# timeout: 1
# cli: error | ran past the 1 s time limit and did not stop when asked
# browser: skip
import signal

signal.setitimer(signal.ITIMER_REAL, 0)
while True:
    pass
