"""Finished parts of microgpt that a lesson's starter imports instead of showing.

Each module holds, finished, lines that a later lesson asks you to write yourself: the starter
of an earlier lesson needs them to run, but showing them there would put that later lesson's
answer one copy away. Read them if you like; you will write every one of them in its lesson.
Nothing here runs or draws random numbers when imported.
"""
