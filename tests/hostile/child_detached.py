# base: solution
# at: start
# cli: pass
# browser: skip
# contained: yes
import subprocess

# A grandchild that holds the output pipes open, behind a child that exits at once.
subprocess.Popen(["sh", "-c", "(sleep 27.1828 &); exit 0"])
