# base: solution
# expect: error | raised GeneratorExit
raise GeneratorExit
