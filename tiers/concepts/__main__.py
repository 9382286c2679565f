"""``python -m tiers.concepts --build``: rebuild the shipped lexicon tables after an edit of the TOML."""

import sys

from .tables import write_built

if sys.argv[1:] == ["--build"]:
    print(write_built())
