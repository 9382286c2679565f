"""`python -m gate` runs the cuticle command."""

import sys

from .cli import main

sys.exit(main())
