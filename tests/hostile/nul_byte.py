# base: solution
# expect: error | contains a NUL character (code 0) on line
x = 1  # a NUL pasted from a PDF: <NUL>
