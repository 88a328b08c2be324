"""``python -m gatherscatter``: the command line (default: the tour)."""

import sys

from .cli import main

sys.exit(main())
