"""`python -m linebyline`: the same as the `linebyline` command."""
import sys

try:
    from .cli.entry import main
except KeyboardInterrupt:  # a Ctrl-C as it loads: as quiet as one later (see cli/entry.py)
    print("\nStopped.", file=sys.stderr)
    sys.exit(130)

sys.exit(main())
