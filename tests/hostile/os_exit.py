# base: solution
# cli: error | Your code ended the Python process itself (exit code 0) while your file was running
# browser: error | Your code ended Python itself
# contained: yes
import os
os._exit(0)
