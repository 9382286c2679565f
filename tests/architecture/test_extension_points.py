"""A third-party plugin installed the way pip installs one (a module and a dist-info with a `cuticle` entry point)
reaches every extension point: lint rules, tool-call votes, embeddings and the judge (docs/plugins.md)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


@pytest.fixture
def site(tmp_path: Path, monkeypatch) -> Path:
    """A site directory holding acme_cuticle, installed with its entry point, first on sys.path."""
    site = tmp_path / "site"
    site.mkdir()
    shutil.copy(HERE / "acme_plugin" / "acme_cuticle.py", site / "acme_cuticle.py")
    dist = site / "acme_cuticle-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-cuticle\nVersion: 1.0\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text("[cuticle]\nacme = acme_cuticle\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    sys.modules.pop("acme_cuticle", None)
    return site


@pytest.fixture
def installed(workspace: Path) -> Path:
    state = workspace / ".cuticle"
    state.mkdir()
    (state / "key").write_text("5a" * 32 + "\n", encoding="ascii")
    (state / "config.toml").write_text("", encoding="utf-8")
    return workspace


def _cuticle(site: Path, *args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]),
               CUTICLE_SERVER="off")
    return subprocess.run([sys.executable, "-m", "gate", *args], capture_output=True, text=True, cwd=cwd,
                          input=stdin, env=env, timeout=120)


def test_its_lint_rule_reports_through_cuticle_lint(site, installed):
    (installed / "MEMORY.md").write_text("# Memory\n\n- TODO: ask which region the user wants.\n", encoding="utf-8")
    out = _cuticle(site, "lint", "--workspace", str(installed), "--format", "json", cwd=installed)
    found = [f for f in json.loads(out.stdout)["findings"] if f["code"] == "ACM001"]
    assert [(f["path"], f["line"], f["column"]) for f in found] == [("MEMORY.md", 3, 3)]
    rule = _cuticle(site, "rule", "ACM001", cwd=installed)
    assert rule.returncode == 0 and "Flags TODO markers" in rule.stdout


def test_its_vote_denies_a_shell_call_that_cuticle_alone_allows(site, installed):
    denied = _cuticle(site, "evaluate", "--workspace", str(installed), "--json", "-c", "terraform apply -auto-approve",
                      cwd=installed)
    assert json.loads(denied.stdout)["decision"] == "deny"
    assert "applies Terraform only from CI" in json.loads(denied.stdout)["reason"]
    allowed = _cuticle(site, "evaluate", "--workspace", str(installed), "--json", "-c", "terraform plan",
                       cwd=installed)
    assert json.loads(allowed.stdout)["decision"] == "allow"


def test_its_vote_reaches_the_model_through_the_host_hook(site, installed):
    payload = {"session_id": "s1", "cwd": str(installed), "hook_event_name": "PreToolUse", "tool_name": "Bash",
               "tool_input": {"command": "terraform apply"}}
    out = _cuticle(site, "hook", "claude", cwd=installed, stdin=json.dumps(payload))
    answer = json.loads(out.stdout)["hookSpecificOutput"]
    assert answer["permissionDecision"] == "deny"
    assert "plugin acme" in answer["permissionDecisionReason"]


def test_without_the_plugin_the_same_call_is_allowed(installed, tmp_path):
    out = _cuticle(tmp_path, "evaluate", "--workspace", str(installed), "--json", "-c", "terraform apply",
                   cwd=installed)
    assert json.loads(out.stdout)["decision"] == "allow"


def test_its_embedder_serves_personality_retrieval(site):
    from personality.similarity import plugin_embedder

    embed = plugin_embedder()
    assert embed is not None
    assert embed(["deploy the server", "a dry joke"]) == [[1.0, 0.0], [0.0, 1.0]]


def test_its_judge_is_loaded_from_the_same_entry_point(site):
    from tiers.judge import load_judge

    judge = load_judge()
    assert judge is not None
    verdict = judge("- The user prefers tabs.", "- User said: indent with four spaces.", {"tier": "HYPOTHESIS"})
    assert verdict == {"conflict": True, "confidence": 0.95, "reason": "tabs vs the user's spaces"}
    assert judge("- The user likes tea.", "- User said: indent with four spaces.", {"tier": "HYPOTHESIS"}) is None


def test_a_plugin_that_crashes_while_voting_denies(site):
    from rules.model import ToolCall
    from rules.plugins import plugin_verdicts
    from tiers.hookspecs import hookimpl
    from tiers.plugins import new_plugin_manager

    class Broken:
        @hookimpl
        def cuticle_tool_call_verdict(self, call, context):
            raise KeyError("policy")

    pm, _ = new_plugin_manager([Broken()], entry_points=())
    votes = plugin_verdicts(ToolCall(tool="Bash", kind="shell", command="ls"), None, pm)
    assert [(v.decision.value, v.rule) for _, v in votes] == [("deny", "plugin-error")]


def test_the_plugin_in_the_docs_is_the_plugin_under_test():
    doc = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")
    block = doc.split("```python\n", 1)[1].split("```", 1)[0]
    assert block == (HERE / "acme_plugin" / "acme_cuticle.py").read_text(encoding="utf-8")
