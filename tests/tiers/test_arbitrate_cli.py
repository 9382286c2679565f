"""CLI contract of `cuticle arbitrate`, `cuticle gc` and `cuticle session`: output shape and exit codes."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from gate.cli import main
from tiers.model import Tier
from tiers.session import current_session
from tiers.stamps import apply_stamp, make_stamp
from tiers.workspace import Workspace


@pytest.fixture
def mem(tmp_path):
    (tmp_path / "MEMORY.md").write_text("# Rules\n- User said: never deploy on Fridays.\n", encoding="utf-8")
    (tmp_path / "USER.md").write_text("- Пользователь сказал: зови меня Катя.\n", encoding="utf-8")
    return tmp_path


def _run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_arbitrate_block_prints_one_json_object_and_exits_1(mem, capsys):
    before = sorted(p.name for p in mem.iterdir())
    code, out, _ = _run(capsys, "arbitrate", "--workspace", str(mem), "--json", "- Friday deploys are fine.")
    assert code == 1
    obj = json.loads(out)
    assert obj["decision"] == "block" and obj["tier"] == "HYPOTHESIS"
    assert obj["error"]["error"] == "EpistemicConflictError"
    assert obj["error"]["conflicts_with"]["line"] == 2
    assert sorted(p.name for p in mem.iterdir()) == before  # wrote nothing, not even .cuticle/


def test_arbitrate_allow_exits_0_with_null_error(mem, capsys):
    code, out, _ = _run(capsys, "arbitrate", "-w", str(mem), "--json", "- Deploys go out Monday to Thursday.")
    assert code == 0
    obj = json.loads(out)
    assert obj["decision"] == "allow" and obj["error"] is None


def test_arbitrate_file_option_and_cross_file_directive(mem, capsys):
    code, out, _ = _run(capsys, "arbitrate", "-w", str(mem), "--file", "memory/2026-11-28.md", "--json",
                        "- Обращаться к пользователю: Екатерина Андреевна.")
    assert code == 1
    obj = json.loads(out)
    assert obj["file"] == "memory/2026-11-28.md"
    assert obj["error"]["conflicts_with"]["file"] == "USER.md"


def test_arbitrate_text_output_names_file_and_line(mem, capsys):
    code, out, _ = _run(capsys, "arbitrate", "-w", str(mem), "- Friday deploys are fine.")
    assert code == 1
    assert "MEMORY.md:2" in out and "reason:" in out and "resolution:" in out


@pytest.mark.parametrize("argv", [
    ["--json", "--tier", "Q", "- x"],              # bad tier
    ["--json", "--file", "../outside.md", "- x"],  # path leaves the workspace
    ["--json", "a\nb"],                            # two lines
], ids=["bad-tier", "outside", "multiline"])
def test_arbitrate_usage_errors_exit_2(mem, capsys, argv):
    code, out, err = _run(capsys, "arbitrate", "-w", str(mem), *argv)
    assert code == 2 and out == "" and err.startswith("cuticle:")


def test_arbitrate_without_line_is_an_argparse_usage_error(mem, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["arbitrate", "-w", str(mem), "--json"])
    assert exc.value.code == 2


def test_arbitrate_tier_option_and_verified_session(mem, capsys):
    ws = Workspace(mem)
    from tiers.provenance import record_prompt

    record_prompt(ws, "s1", "Friday deploys are fine from now on.")
    code, out, _ = _run(capsys, "arbitrate", "-w", str(mem), "--session", "s1", "--json",
                        "- Friday deploys are fine from now on.")
    obj = json.loads(out)
    assert code == 0 and obj["classification"]["verified"] and obj["supersedes"][0]["line"] == 2
    code, out, _ = _run(capsys, "arbitrate", "-w", str(mem), "--tier", "D", "--json", "- Friday deploys are fine.")
    assert code == 1 and json.loads(out)["tier"] == "DIRECTIVE"


def test_session_and_gc_commands(tmp_path, capsys):
    ws = Workspace(tmp_path)
    ws.ensure_state()
    hyp = apply_stamp("- Maybe the cache is cold.", make_stamp("- Maybe the cache is cold.", Tier.HYPOTHESIS, 1,
                                                               ws.key, ttl=1))
    (tmp_path / "MEMORY.md").write_text(f"- keep\n{hyp}\n", encoding="utf-8")
    code, out, _ = _run(capsys, "session", "-w", str(tmp_path), "--json")
    assert code == 0 and json.loads(out) == {"counter": 1}
    code, out, _ = _run(capsys, "session", "-w", str(tmp_path), "--json", "--end", "a")
    assert json.loads(out)["counter"] == 2
    code, out, _ = _run(capsys, "session", "-w", str(tmp_path), "--json", "--end", "a")
    assert json.loads(out)["counter"] == 2 and current_session(ws) == 2
    code, out, _ = _run(capsys, "gc", str(tmp_path), "--dry-run", "--json")
    rep = json.loads(out)
    assert code == 0 and rep["dry_run"] and len(rep["removed"]) == 1
    assert hyp in (tmp_path / "MEMORY.md").read_text(encoding="utf-8")
    code, out, _ = _run(capsys, "gc", "--workspace", str(tmp_path), "--json")
    rid = json.loads(out)["removed"][0]["id"]
    assert (tmp_path / "MEMORY.md").read_text(encoding="utf-8") == "- keep\n"
    code, out, _ = _run(capsys, "gc", "-w", str(tmp_path), "--archive", "--json")
    assert [r["id"] for r in json.loads(out)["archive"]] == [rid]
    code, out, _ = _run(capsys, "gc", "-w", str(tmp_path), "--restore", rid)
    assert code == 0 and "restored" in out
    assert "Maybe the cache is cold." in (tmp_path / "MEMORY.md").read_text(encoding="utf-8")
    code, _, err = _run(capsys, "gc", "-w", str(tmp_path), "--restore", "nosuch")
    assert code == 2 and "no archived line" in err


def test_console_script_exit_codes(mem):
    exe = shutil.which("cuticle")
    cmd = [exe] if exe else [sys.executable, "-m", "gate"]
    blocked = subprocess.run([*cmd, "arbitrate", "-w", str(mem), "--json", "- Friday deploys are fine."],
                             capture_output=True, text=True, timeout=120)
    allowed = subprocess.run([*cmd, "arbitrate", "-w", str(mem), "--json", "- The CI runs on GitHub Actions."],
                             capture_output=True, text=True, timeout=120)
    assert blocked.returncode == 1 and json.loads(blocked.stdout)["decision"] == "block"
    assert allowed.returncode == 0 and json.loads(allowed.stdout)["decision"] == "allow"


def test_arbitrate_reads_the_index_cache_and_writes_nothing(mem, capsys, monkeypatch):
    from tiers import arbitrate as arb
    from tiers import classify as classify_module

    ws = Workspace(mem)
    ws.ensure_state()
    arb.ConstraintIndex.from_workspace(ws)  # a lint or a hook call filled .cuticle/cache
    cache = ws.state_path("cache", "arbitrate.json")
    before = cache.read_bytes()
    arb._FILE_CACHE.clear()
    arb._DISK.clear()  # a fresh process
    classified = []
    real = classify_module.classify
    monkeypatch.setattr(classify_module, "classify", lambda text: classified.append(text) or real(text))
    code, out, _ = _run(capsys, "arbitrate", "--json", "-w", str(mem), "--tier", "H", "- Friday deploys are fine.")
    assert code == 1 and json.loads(out)["decision"] == "block"
    assert classified == []  # the memory lines came from the cache, none was classified again
    assert cache.read_bytes() == before


def test_arbitrate_on_changed_memory_reindexes_without_saving(mem, capsys):
    from tiers import arbitrate as arb

    ws = Workspace(mem)
    ws.ensure_state()
    arb.ConstraintIndex.from_workspace(ws)
    cache = ws.state_path("cache", "arbitrate.json")
    before = cache.read_bytes()
    (mem / "MEMORY.md").write_text("# Rules\n- User said: use pnpm.\n", encoding="utf-8")
    arb._FILE_CACHE.clear()
    arb._DISK.clear()
    code, out, _ = _run(capsys, "arbitrate", "--json", "-w", str(mem), "--tier", "H", "- Friday deploys are fine.")
    assert json.loads(out)["decision"] == "allow" and code == 0  # the new content decides, not the stale cache
    assert cache.read_bytes() == before
