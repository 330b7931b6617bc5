# base: solution
# at: start
# cli: pass
# browser: skip
# contained: yes
import os

# The classic daemon: fork, leave the session, fork again, and let the middle process end, so the
# sleep has neither the check's group nor a parent of the run. The keeper adopts it and ends it.
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execvp("sleep", ["sleep", "12.5663"])
    os._exit(0)
