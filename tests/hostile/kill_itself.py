# base: solution
# cli: error | was killed (SIGKILL) while your file was running
# browser: skip
# contained: yes
import os
import signal

os.kill(os.getpid(), signal.SIGKILL)
