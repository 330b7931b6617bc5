"""The learner's own program: their passing lesson code assembled into the course's scripts
(assemble), trained while every step is watched and compared with the reference run (training),
and both from a terminal (terminal: `linebyline assemble`, `linebyline train --mine`).

assemble.py and training.py are standard library only: the browser's Python runs the very same
files (frontend/src/train-worker.ts bundles them), so the page and the terminal agree.
"""
