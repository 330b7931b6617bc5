# base: solution
# expect: error | raised Unprintable: (its message could not be shown)
class Unprintable(Exception):
    def __str__(self):
        raise RuntimeError("no")


raise Unprintable()
