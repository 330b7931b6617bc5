# base: solution
# at: start
# cli: pass
# browser: skip
# contained: yes
import os
import signal

# Kill whatever started this process (the keeper, whose promise held only while it lived), then
# the classic daemon: a new session, a second fork, and the middle process gone. Contained, the
# parent is the namespace's first process, which ignores signals from inside it, and the sleep
# ends with the namespace.
try:
    os.kill(os.getppid(), signal.SIGKILL)
except OSError:
    pass  # run as nobody by a root CLI: the keeper is root's and cannot be killed
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execvp("sleep", ["sleep", "23.1406"])
    os._exit(0)
