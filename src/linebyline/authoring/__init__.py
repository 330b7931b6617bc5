"""What a course author's tools are made of: `linebyline lint` (lint.py), the lesson standard it
holds every lesson to (lesson_standard.py), and the figures a lesson computes with its own code
(computed.py), which the web app and the terminal show."""
