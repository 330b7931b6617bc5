# base: solution
# cli: error | closed
# browser: skip
import os

os.closerange(3, 65536)
