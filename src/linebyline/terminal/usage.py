"""The error every terminal command raises for a request it cannot do as asked (exit code 2):
here, below the commands, so that a command's helpers (the watch loop, say) can catch it."""


class UsageError(Exception):
    """Something the user asked for cannot be done as asked (exit code 2)."""
