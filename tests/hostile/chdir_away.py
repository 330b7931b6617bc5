# base: solution
# expect: pass
import os

os.chdir("/")
