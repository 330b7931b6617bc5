# base: solution
# expect: error | Calling `L.backward()` ended the whole program with sys.exit(3)
import sys
Value.backward = lambda self: sys.exit(3)
