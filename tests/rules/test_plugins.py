"""The plugin manager loads `cuticle` entry points (ours and a third party's) and reports broken plugins."""

from __future__ import annotations

import sys
import textwrap
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from rules.plugins import collect_rules, new_plugin_manager

PLUGIN = textwrap.dedent('''
    """A tiny third-party cuticle plugin: one rule that flags the word TODO."""
    from rules.model import Problem, Rule, Severity
    from tiers.hookspecs import hookimpl

    def check(ctx):
        for line in ctx.lines:
            if "TODO" in line.text:
                yield Problem(f"{ctx.path}:{line.number}: TODO left in memory", line.number, line.text.index("TODO") + 1)

    @hookimpl
    def cuticle_register_rules():
        return [Rule("ACM001", "todo-left", "TODO left in memory", Severity.WARNING, check, docs="Flags TODO.")]
''')


@pytest.fixture
def fake_dist(tmp_path: Path, monkeypatch) -> Path:
    """A plugin installed the way pip installs one: a module plus a dist-info with a `cuticle` entry point."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "acme_cuticle_plugin.py").write_text(PLUGIN)
    (site / "acme_broken_plugin.py").write_text("raise ImportError('missing dependency acme-core')\n")
    (site / "acme_bad_rules.py").write_text(
        "from tiers.hookspecs import hookimpl\n@hookimpl\ndef cuticle_register_rules():\n    return ['not a rule']\n")
    dist = site / "acme_cuticle-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-cuticle\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(
        "[cuticle]\nacme = acme_cuticle_plugin\nbroken = acme_broken_plugin\nbadrules = acme_bad_rules\n")
    monkeypatch.syspath_prepend(str(site))
    for name in ("acme_cuticle_plugin", "acme_broken_plugin", "acme_bad_rules"):
        sys.modules.pop(name, None)
    return site


def test_third_party_plugin_registers_through_the_entry_point_group(fake_dist: Path) -> None:
    pm, failures = new_plugin_manager()
    reg = collect_rules(pm, failures)
    assert "ACM001" in reg.rules and reg.rules["ACM001"].plugin == "acme"
    assert "CU301" in reg.rules and reg.rules["CU301"].plugin == "memory"  # ours, same path


def test_broken_plugins_are_reported_not_fatal(fake_dist: Path) -> None:
    pm, failures = new_plugin_manager()
    reg = collect_rules(pm, failures)
    by_plugin = {f.plugin: f.reason for f in reg.failures}
    assert "missing dependency acme-core" in by_plugin["broken"]
    assert "not a rules.engine.Rule" in by_plugin["badrules"]
    findings = reg.failure_findings()
    assert {f.code for f in findings} == {"CU001"}
    assert any("<plugin:broken>" == f.path for f in findings)


def test_plugin_rule_runs_in_lint(fake_dist: Path, tmp_path: Path, monkeypatch) -> None:
    import rules.plugins as plugins
    from rules.engine import lint_paths
    from tiers.workspace import Workspace

    monkeypatch.setattr(plugins, "_registry", None)
    monkeypatch.setattr(plugins, "_manager", None)
    ws_dir = tmp_path / "ws"
    ws_dir.mkdir()
    (ws_dir / "MEMORY.md").write_text("- TODO: write the runbook.\n")
    result = lint_paths(Workspace(ws_dir), select=["ACM001"])
    codes = [(f.code, f.line, f.column) for f in result.findings]
    assert ("ACM001", 1, 3) in codes
    assert any(f.code == "CU001" for f in result.findings)  # the broken ones still show up
    monkeypatch.setattr(plugins, "_registry", None)
    monkeypatch.setattr(plugins, "_manager", None)


def test_duplicate_rule_codes_from_plugins_are_rejected() -> None:
    from rules.model import Rule, Severity
    from tiers.hookspecs import hookimpl

    class Dup:
        @hookimpl
        def cuticle_register_rules(self):
            return [Rule("CU301", "my-secret-rule", "x", Severity.ERROR, lambda ctx: ())]

    ep = EntryPoint(name="memory", value="rules.memory.plugin", group="cuticle")
    pm, failures = new_plugin_manager([ep])
    pm.register(Dup(), name="dup")
    reg = collect_rules(pm, failures)
    assert reg.rules["CU301"].plugin == "memory"
    assert any("already used" in f.reason for f in reg.failures)
