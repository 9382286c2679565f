"""A contradicting memory write padded with a long line of any shape (digits, ``a-a-a-…``, blanks after a ``?``,
zero-width runs, emoji, Russian words, …; the shapes of
``tests/tiers/test_long_lines_of_any_shape_are_checked_in_linear_time.py``) is refused by every host's hook: the
padding neither crashes a check nor hides the contradicting line after it. Bounded: 4 KiB lines, in-process."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tiers"))

from gate_helpers import HOSTS, TERRAFORM_FLIP, TERRAFORM_RULE, installed_with_memory, write_payload  # noqa: E402
from test_long_lines_of_any_shape_are_checked_in_linear_time import SHAPES, _line  # noqa: E402

MEMORY = f"# Memory\n\n{TERRAFORM_RULE}\n"
SIZE = 4096


@pytest.mark.parametrize("host", HOSTS)
def test_every_padded_contradiction_is_refused(tmp_path: Path, host: str) -> None:
    from gate.doctor import is_block
    from gate.handler import handle

    ws = installed_with_memory(tmp_path, MEMORY)
    through = []
    for name, shape in SHAPES.items():
        content = MEMORY + "- " + _line(*shape, SIZE) + "\n" + TERRAFORM_FLIP + "\n"
        payload, event = write_payload(host, ws, "MEMORY.md", content)
        reply = handle(host, event, json.dumps(payload).encode(), env={}, cwd=str(ws))
        if not is_block(host, reply.stdout, reply.exit_code) or "internal error" in reply.stderr:
            through.append((name, reply.exit_code, reply.stderr[:200]))
    assert not through, through
    assert (ws / "MEMORY.md").read_text(encoding="utf-8") == MEMORY
