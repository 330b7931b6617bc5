"""The `linebyline` command: where it starts (entry.py, light, so that a Ctrl-C while it loads is
quiet), the learner's and author's commands (main.py), the teacher's (teacher.py) and the server
(serve.py). Nothing is imported here, so that starting stays light."""
