# base: solution
# at: start
# cli: pass
# browser: skip
# contained: yes
import subprocess

# A child that leaves the check's process group for a session of its own: the keeper still ends it.
subprocess.Popen(["sleep", "16.1803"], start_new_session=True)
