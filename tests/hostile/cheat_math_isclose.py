# base: mistake
# expect: fail | e.grad is -6 but should be -2
import math
math.isclose = lambda *args, **kwargs: True
