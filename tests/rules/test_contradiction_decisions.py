"""CU201 decides each line once per lint run: a line repeated in several files is arbitrated once, and every copy
gets its finding."""

from __future__ import annotations

from pathlib import Path

from rules.engine import lint_paths
from tiers.workspace import Workspace


def _write(root: Path, files: dict[str, list[str]]) -> Workspace:
    for rel, lines in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return Workspace(root)


def _counting(monkeypatch) -> list[tuple[str, str]]:
    import tiers.arbitrate

    calls: list[tuple[str, str]] = []
    real = tiers.arbitrate.arbitrate

    def counted(index, text, tier, **kw):
        calls.append((str(text), kw.get("file", "")))
        return real(index, text, tier, **kw)

    monkeypatch.setattr(tiers.arbitrate, "arbitrate", counted)
    return calls


def test_a_line_repeated_across_files_is_arbitrated_once_and_reported_in_each(tmp_path: Path, monkeypatch) -> None:
    ws = _write(tmp_path, {
        "USER.md": ["- User said: never deploy on Fridays."],
        "memory/2026-11-01.md": ["- Deploying on Friday afternoons is fine.", "- The team meets on Monday."],
        "memory/2026-11-02.md": ["- Deploying on Friday afternoons is fine.", "- The team meets on Monday."],
    })
    calls = _counting(monkeypatch)
    found = [f for f in lint_paths(ws, select=["CU201"], cache=False).findings]
    assert sorted((f.path, f.line) for f in found) == [("memory/2026-11-01.md", 1), ("memory/2026-11-02.md", 1)]
    assert sorted(text for text, _ in calls) == ["- Deploying on Friday afternoons is fine.",
                                                 "- The team meets on Monday."]


def test_a_line_restating_a_constraint_is_decided_per_file(tmp_path: Path, monkeypatch) -> None:
    # Stamped with a key the workspace does not hold, the stamp does not verify: indexing classifies the line
    # (a DIRECTIVE, a constraint of its file), while CU201 takes the stamp's tier (HYPOTHESIS) and checks the line.
    # In its own file it restates itself; in the other it is compared with the first file's copy. Each file gets
    # its own decision.
    from tiers.model import Tier
    from tiers.stamps import apply_stamp, make_stamp

    text = "- User said: never deploy on Fridays."
    stamped = apply_stamp(text, make_stamp(text, Tier.HYPOTHESIS, 1, b"another workspace's key", ttl=3))
    ws = _write(tmp_path, {"MEMORY.md": [stamped], "memory/2026-11-01.md": [stamped]})
    calls = _counting(monkeypatch)
    lint_paths(ws, select=["CU201"], cache=False)
    assert sorted(f for _, f in calls) == ["MEMORY.md", "memory/2026-11-01.md"]


def test_a_re_lint_after_a_new_directive_classifies_only_the_new_line(tmp_path: Path, monkeypatch) -> None:
    # every file's CU201 result depends on the constraints, so a new directive re-checks every file; the tiers of
    # the lines indexed before come from .cuticle/cache's line table, not from classifying them again
    import tiers.arbitrate
    import tiers.classify

    files = {
        "USER.md": ["- User said: never deploy on Fridays."],
        "memory/2026-11-01.md": ["- Deploying on Friday afternoons is fine.", "- The team meets on Monday."],
        "memory/2026-11-02.md": ["- Probably the cache is stale.", "- Reports go out at 9:00."],
    }
    ws = _write(tmp_path / "cached", files)
    ws.ensure_state()
    lint_paths(ws, select=["CU201"])
    new = "- User said: send the reports before 8:00."
    files["USER.md"].append(new)
    _write(tmp_path / "cached", {"USER.md": files["USER.md"]})
    tiers.arbitrate._DISK.clear()  # a new process: nothing of the run above in memory
    tiers.arbitrate._FILE_CACHE.clear()
    seen: list[str] = []
    real = tiers.classify.classify

    def counted(text, *args, **kwargs):
        seen.append(text.strip())
        return real(text, *args, **kwargs)

    monkeypatch.setattr(tiers.classify, "classify", counted)
    found = lint_paths(ws, select=["CU201"]).findings
    assert seen == [new]
    monkeypatch.undo()
    assert found == lint_paths(_write(tmp_path / "fresh", files), select=["CU201"]).findings
    assert [(f.path, f.line) for f in found] == [("memory/2026-11-01.md", 1), ("memory/2026-11-02.md", 2)]


def test_line_table_entries_this_code_did_not_write_are_classified_again(tmp_path: Path) -> None:
    import tiers.arbitrate

    files = {"USER.md": ["- User said: never deploy on Fridays."],
             "memory/2026-11-01.md": ["- Deploying on Friday afternoons is fine.", "- The team meets on Monday."]}
    ws = _write(tmp_path, files)
    ws.ensure_state()
    expected = lint_paths(ws, select=["CU201"], cache=False).findings
    assert expected
    table = tiers.arbitrate._DISK[str(ws.root)]["_lines"]
    bad = [["Q", None], ["D"], 3, None, ["H", 7], [None, None]]
    for i, body in enumerate(sorted(table)):
        table[body] = bad[i % len(bad)]
    tiers.arbitrate._FILE_CACHE.clear()
    for rec in tiers.arbitrate._DISK[str(ws.root)]["files"].values():
        rec["sha"] = "changed"  # every file is indexed again, through the damaged table
    assert lint_paths(ws, select=["CU201"], cache=False).findings == expected
