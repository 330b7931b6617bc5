# base: solution
# expect: pass | giving up here
import sys
sys.exit("giving up here")
