"""The walk's parts for git, interpreters, SQL, network tools and the per-tool handlers are imported the first time a
command needs one: a plain command does not pay for them, and a command that needs one is judged exactly as before."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules.governance.analyze import handlers

ROOT = Path(__file__).resolve().parents[3]

_DEFERRED = ("git", "gittrees", "worktree", "interp", "net", "sql", "files", "runners", "awk", "cuticle")


def _fresh(command: str) -> tuple[str, str, list[str]]:
    """The decision and rule for ``command`` in a fresh interpreter, and the deferred modules it imported."""
    code = (f"import json, sys\nsys.path.insert(0, {str(ROOT)!r})\n"
            "from rules.governance.evaluate import evaluate_command\n"
            f"e = evaluate_command({command!r})\n"
            f"loaded = [m for m in {_DEFERRED!r} if 'rules.governance.analyze.' + m in sys.modules]\n"
            "print(json.dumps([e.decision, e.rule, loaded]))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    decision, rule, loaded = json.loads(proc.stdout.strip().splitlines()[-1])
    return decision, rule, loaded


def test_a_plain_redirect_loads_none_of_the_deferred_parts():
    decision, rule, loaded = _fresh('echo "- the user likes tabs" >> MEMORY.md')
    assert (decision, rule) == ("deny", "no-memory-write-via-shell")
    assert loaded == []


@pytest.mark.parametrize(("command", "rule", "module"), [
    ("git push --force origin main", "no-force-push", "git"),
    ("python3 -c \"import os; os.system('rm -rf /')\"", "no-recursive-delete", "interp"),
    ('sqlite3 app.db "DROP TABLE users"', "no-destructive-sql", "sql"),
    ("rm -rf /", "no-recursive-delete", "files"),
], ids=["git", "interpreter", "sql", "handler"])
def test_a_command_that_needs_a_deferred_part_loads_it_and_is_denied(command, rule, module):
    decision, got_rule, loaded = _fresh(command)
    assert (decision, got_rule) == ("deny", rule)
    assert module in loaded


@pytest.mark.parametrize("tool", sorted(handlers._FINAL))
def test_every_tool_of_the_handler_table_names_a_handler_that_exists(tool):
    fn = handlers.final_handler(tool)
    module, name = handlers._FINAL[tool].split(":")
    assert callable(fn) and fn.__name__ == name and fn.__module__ == f"rules.governance.analyze.{module}"
