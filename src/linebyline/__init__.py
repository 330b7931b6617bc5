"""linebyline: an interactive course platform that teaches you to build microgpt, line by line."""

__version__ = "0.1.0"
