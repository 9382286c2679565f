"""skills/cuticle/SKILL.md: what it tells an agent to run exists, and the skill folder has the shape hosts read."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

SKILL = Path(__file__).resolve().parents[2] / "skills" / "cuticle" / "SKILL.md"


def _commands() -> list[str]:
    out, fenced = [], False
    for line in SKILL.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        if fenced and line.startswith("cuticle "):
            out.append(line)
    return out


def test_the_skill_has_the_front_matter_hosts_read():
    import frontmatter

    meta = frontmatter.loads(SKILL.read_text(encoding="utf-8")).metadata
    assert meta["name"] == SKILL.parent.name == "cuticle"
    assert len(meta["description"]) > 40


def test_the_skill_shows_commands():
    assert len(_commands()) >= 10


@pytest.mark.parametrize("command", _commands())
def test_every_command_in_the_skill_parses(command):
    from gate.cli import _build_parser

    argv = shlex.split(command)[1:]
    args = _build_parser(argv[0]).parse_args(argv)  # argparse exits 2 on an option that does not exist
    assert args.command == argv[0]
