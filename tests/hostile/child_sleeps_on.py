# base: solution
# at: start
# cli: pass
# browser: skip
# contained: yes
import subprocess
subprocess.Popen(["sleep", "31.4159"])  # outlives nothing: it ends with the check
