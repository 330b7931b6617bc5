# base: mistake
# expect: fail | e.grad is -6 but should be -2
import builtins
builtins.all = lambda items: True
builtins.any = lambda items: False
builtins.abs = lambda x: 0
builtins.isinstance = lambda obj, kind: kind is not bool
