# base: solution
# expect: error | Running your code raised Boom: out of the blue
class Boom(BaseException):
    pass


raise Boom("out of the blue")
