# base: solution
# expect: pass | before sys.exit
import sys
print("before sys.exit")
sys.exit(0)
