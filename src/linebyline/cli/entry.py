"""Where the `linebyline` command starts: a Ctrl-C while Python is still loading the CLI (its
first tenth of a second) ends it as quietly as one a moment later, without a traceback."""
from __future__ import annotations

import sys


def main() -> int:
    try:
        from .main import main as run
    except KeyboardInterrupt:
        print("\nStopped.", file=sys.stderr)
        return 130
    return run()


if __name__ == "__main__":
    sys.exit(main())
