"""The hook command `cuticle init` installs: ``PYTHON -I -S .../gate/cuticle_hook.py hook HOST [EVENT]``.

A pip console script imports ``re`` and, through ``site``, runs every ``.pth`` file of the environment before the
first line of cuticle: more than a whole forwarded hook call costs. This file is run by path instead, by the
environment's own interpreter in isolated mode (``-I``: no PYTHON* variables, no user site, no current directory
on ``sys.path``) and without ``site`` (``-S``). It puts the directory holding the ``gate`` package at the *end* of
``sys.path`` (after the standard library, so nothing there can shadow it) and runs the ordinary command line;
``gate.cli.load_site`` finishes the interpreter's start-up the moment anything beyond a forwarded call needs
the environment's other packages (the in-process gate, any other subcommand).
"""

import os
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from gate.cli import console  # noqa: E402 - the path above is what makes it importable

console()
