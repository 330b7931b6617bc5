# base: solution
# cli: error | Python crashed (segmentation fault) while your file was running
# browser: skip
import sys
sys.setrecursionlimit(10 ** 6)
Deep = type("Deep", (), {"__pow__": lambda self, n: self ** n})
Deep() ** 2
