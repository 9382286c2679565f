"""`cuticle import` reads Chitin's SQLite database directly: the same insights `chitin export` would print."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from personality_data import ws  # noqa: F401 - fixture
from test_personality_chitin import CHITIN_EXPORT

from gate.cli import main
from personality import ops, store
from personality.chitin import read_database
from tiers.errors import ParseError

#: Chitin 1.4.5's schema (reference: storage, §1.2), with the migrated columns at the end as ALTER TABLE adds them
SCHEMA = """
CREATE TABLE insights (
  id TEXT PRIMARY KEY,
  type TEXT NOT NULL CHECK(type IN ('behavioral','personality','relational','principle','skill','trigger')),
  claim TEXT NOT NULL, reasoning TEXT, context TEXT, limitations TEXT,
  confidence REAL NOT NULL CHECK(confidence >= 0 AND confidence <= 1),
  tags TEXT DEFAULT '[]', source TEXT,
  created_at TEXT DEFAULT (datetime('now')), updated_at TEXT DEFAULT (datetime('now')),
  reinforcement_count INTEGER DEFAULT 0, last_retrieved_at TEXT
);
CREATE TABLE insight_embeddings (insight_id TEXT PRIMARY KEY REFERENCES insights(id) ON DELETE CASCADE,
  embedding BLOB NOT NULL);
"""
MIGRATIONS = ("ALTER TABLE insights ADD COLUMN condition TEXT",
              "ALTER TABLE insights ADD COLUMN avoid INTEGER DEFAULT 0",
              "ALTER TABLE insights ADD COLUMN provenance TEXT")


def make_db(path: Path, records: list[dict], *, migrated: bool = True) -> Path:
    con = sqlite3.connect(path)
    con.execute("PRAGMA journal_mode=WAL")
    con.executescript(SCHEMA)
    if migrated:
        for m in MIGRATIONS:
            con.execute(m)
    for r in reversed(records):  # oldest first, as they were contributed
        row = {"id": r["id"], "type": r["type"], "claim": r["claim"], "reasoning": r.get("reasoning"),
               "context": r.get("context"), "limitations": r.get("limitations"), "confidence": r["confidence"],
               "tags": json.dumps(r["tags"]), "source": r.get("source"), "created_at": r["createdAt"],
               "updated_at": r["updatedAt"], "reinforcement_count": r["reinforcementCount"],
               "last_retrieved_at": r.get("lastRetrievedAt")}
        if migrated:
            row.update(condition=r.get("condition"), avoid=int(r["avoid"]), provenance=r.get("provenance"))
        cols = ", ".join(row)
        con.execute(f"INSERT INTO insights ({cols}) VALUES ({', '.join('?' * len(row))})", list(row.values()))
    con.commit()
    con.close()
    return path


def test_the_database_reads_as_exactly_what_chitin_export_prints(tmp_path):
    db = make_db(tmp_path / "insights.db", json.loads(CHITIN_EXPORT))
    assert read_database(db) == json.loads(CHITIN_EXPORT)


def test_import_of_the_database_then_export_is_byte_identical_to_chitins_export(capsys, ws, tmp_path):
    db = make_db(tmp_path / "insights.db", json.loads(CHITIN_EXPORT))
    assert main(["import", str(db), "-w", str(ws.root)]) == 0
    assert "Imported 3 insight(s)" in capsys.readouterr().out
    assert ops.export_json(store.load(ws)) == CHITIN_EXPORT


def test_the_database_is_opened_read_only(ws, tmp_path):
    db = make_db(tmp_path / "insights.db", json.loads(CHITIN_EXPORT))
    before = db.read_bytes()
    assert main(["import", str(db), "-w", str(ws.root), "--dry-run"]) == 0
    assert db.read_bytes() == before


def test_a_database_from_before_the_migrations_imports_without_the_later_fields(capsys, ws, tmp_path):
    records = [r for r in json.loads(CHITIN_EXPORT) if r["type"] != "trigger"]
    db = make_db(tmp_path / "old.db", records, migrated=False)
    got = read_database(db)
    assert [r["id"] for r in got] == [r["id"] for r in records]
    assert all("provenance" not in r and r["avoid"] is False for r in got)
    assert main(["import", str(db), "-w", str(ws.root)]) == 0


def test_merge_skips_insights_already_imported_from_the_database(capsys, ws, tmp_path):
    db = make_db(tmp_path / "insights.db", json.loads(CHITIN_EXPORT))
    main(["import", str(db), "-w", str(ws.root)])
    before = (ws.root / "INSIGHTS.md").read_bytes()
    assert main(["import", str(db), "-w", str(ws.root), "--merge"]) == 0
    assert "skipped 3 duplicate(s)" in capsys.readouterr().out
    assert (ws.root / "INSIGHTS.md").read_bytes() == before


def test_a_bad_row_fails_the_whole_import_and_writes_nothing(capsys, ws, tmp_path):
    records = json.loads(CHITIN_EXPORT)
    db = make_db(tmp_path / "insights.db", records)
    con = sqlite3.connect(db)
    con.execute("UPDATE insights SET tags = 'not json' WHERE id = ?", (records[1]["id"],))
    con.commit()
    con.close()
    assert main(["import", str(db), "-w", str(ws.root)]) == 2
    assert "tags 'not json' are not a JSON list" in capsys.readouterr().err
    assert not (ws.root / "INSIGHTS.md").exists()


@pytest.mark.parametrize(
    "setup, message",
    [
        (lambda p: sqlite3.connect(p).execute("CREATE TABLE other (x)").connection.commit(), "no 'insights' table"),
        (lambda p: sqlite3.connect(p).execute("CREATE TABLE insights (x)").connection.commit(), "lacks claim, id, type"),
        (lambda p: p.write_bytes(b"SQLite format 3\x00" + b"\x00" * 200), "not a readable SQLite database"),
    ],
    ids=["no-table", "other-schema", "corrupt"],
)
def test_a_database_that_is_not_chitins_is_a_clear_error(capsys, ws, tmp_path, setup, message):
    db = tmp_path / "x.db"
    setup(db)
    with pytest.raises(ParseError, match=message):
        read_database(db)
    assert main(["import", str(db), "-w", str(ws.root)]) == 2
    assert message in capsys.readouterr().err
