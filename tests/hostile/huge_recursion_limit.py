# base: solution
# memory: 128
# timeout: 30
# cli: error | after your code raised the recursion limit to 10,000,000 || used more than the 128 MB memory limit
# browser: skip
import sys
sys.setrecursionlimit(10 ** 7)


def deeper(n):
    return deeper(n + 1)


deeper(0)
