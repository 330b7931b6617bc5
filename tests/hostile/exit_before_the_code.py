# base: solution
# at: start
# expect: fail | does not define `Value`: your file ended on line 1 with exit() or sys.exit(), so the lines after it never ran
exit()
