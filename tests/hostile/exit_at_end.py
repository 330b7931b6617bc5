# base: solution
# expect: pass
print("before exit")
exit()
print("after exit: never printed")
