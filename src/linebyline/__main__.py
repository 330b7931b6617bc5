"""`python -m linebyline`: the same as the `linebyline` command."""
import sys

from .entry import main

sys.exit(main())
