# base: solution
# expect: error | raised ValueError: xxxxxxxxxx
raise ValueError("x" * 10_000_000)
