# base: solution
# expect: pass | characters between its first 100,000
for _ in range(500):
    print("x" * 100_000)
