"""`python -m gate` runs the cuticle command."""

from .cli import console

console()
