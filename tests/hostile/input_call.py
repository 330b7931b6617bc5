# base: solution
# cli: error | the checks give your code nothing to read
# browser: error | the checks give your code nothing to read
name = input("Your name? ")
