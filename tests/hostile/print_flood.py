# base: solution
# expect: pass | more characters not shown
for _ in range(500):
    print("x" * 100_000)
