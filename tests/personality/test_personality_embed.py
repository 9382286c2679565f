"""`cuticle embed` / `embed-status`: a local embedding plugin's vectors are computed once and read back."""

from __future__ import annotations

import json

import numpy as np
import pytest
from personality_data import CHITIN_SET, seeded, ws  # noqa: F401 - fixtures

from gate.cli import main
from personality import embeddings, similarity
from personality.api import retrieve_workspace


class Model:
    """A stand-in for a local model behind a cuticle_embed plugin: counts what it is asked to embed."""

    def __init__(self, dims: int = 8) -> None:
        self.dims = dims
        self.calls: list[list[str]] = []

    def __call__(self, texts):
        self.calls.append(list(texts))
        return [[float((hash(t) >> k) % 7) + 1.0 for k in range(self.dims)] for t in texts]

    @property
    def embedded(self) -> int:
        return sum(len(c) for c in self.calls)


def _configure(ws, embedder: str) -> None:
    (ws.root / ".cuticle").mkdir(exist_ok=True)
    (ws.root / ".cuticle" / "config.toml").write_text(f'[personality]\nembedder = "{embedder}"\n', encoding="utf-8")


@pytest.fixture
def model(monkeypatch) -> Model:
    m = Model()
    monkeypatch.setattr(similarity, "plugin_embedder", lambda pm=None: m)
    return m


def _run(capsys, ws, *argv):
    code = main([*argv, "-w", str(ws.root), "--json"])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else None), err


def test_embed_stores_a_vector_per_insight_and_a_second_run_embeds_nothing(capsys, seeded, model):
    _configure(seeded, "plugin")
    code, rep, _ = _run(capsys, seeded, "embed")
    assert code == 0 and rep["embedded"] == len(CHITIN_SET) and rep["dimensions"] == 8
    assert seeded.state_path("personality", "embeddings.npz").exists()
    code, rep, _ = _run(capsys, seeded, "embed")
    assert code == 0 and rep["embedded"] == 0 and rep["stored"] == len(CHITIN_SET)
    assert model.embedded == len(CHITIN_SET)


def test_embed_status_counts_stored_and_missing_vectors(capsys, seeded, model):
    _configure(seeded, "plugin")
    code, st, _ = _run(capsys, seeded, "embed-status")
    assert code == 0 and st["available"] and st["stored"] == 0 and st["missing"] == len(CHITIN_SET)
    _run(capsys, seeded, "embed")
    code, st, _ = _run(capsys, seeded, "embed-status")
    assert st["stored"] == len(CHITIN_SET) and st["missing"] == 0 and st["dimensions"] == 8


def test_retrieval_reads_stored_vectors_and_embeds_only_the_query_and_new_insights(capsys, seeded, model):
    _configure(seeded, "plugin")
    _run(capsys, seeded, "embed")
    model.calls.clear()
    result = retrieve_workspace(seeded, "fix the build")
    assert result.items
    assert model.calls == [["fix the build"]]  # every insight's vector came from the store


def test_an_edited_insight_is_embedded_again_and_the_old_vector_dropped(capsys, seeded, model):
    _configure(seeded, "plugin")
    _run(capsys, seeded, "embed")
    main(["update", CHITIN_SET[0].id, "--claim", "I use dry humour rarely", "-w", str(seeded.root)])
    capsys.readouterr()
    code, rep, _ = _run(capsys, seeded, "embed")
    assert rep["embedded"] == 1
    with np.load(seeded.state_path("personality", "embeddings.npz"), allow_pickle=False) as data:
        assert len(data["keys"]) == len(CHITIN_SET)


def test_a_model_of_another_size_replaces_the_stored_vectors(capsys, seeded, model, monkeypatch):
    _configure(seeded, "plugin")
    _run(capsys, seeded, "embed")
    bigger = Model(16)
    monkeypatch.setattr(similarity, "plugin_embedder", lambda pm=None: bigger)
    main(["contribute", "--type", "skill", "--claim", "Use uv for Python envs", "--confidence", "0.7",
          "-w", str(seeded.root)])
    capsys.readouterr()
    code, rep, _ = _run(capsys, seeded, "embed")
    assert code == 0 and rep["dimensions"] == 16 and rep["embedded"] == len(CHITIN_SET) + 1


@pytest.mark.parametrize("embedder, message", [
    ("none", "no embedder configured"),
    ("plugin", "no installed plugin implements cuticle_embed"),
], ids=["none", "plugin-missing"])
def test_without_a_usable_embedder_embed_exits_2_and_status_exits_1(capsys, seeded, monkeypatch, embedder, message):
    monkeypatch.setattr(similarity, "plugin_embedder", lambda pm=None: None)
    _configure(seeded, embedder)
    code, _, err = _run(capsys, seeded, "embed")
    assert code == 2 and message in err
    assert not seeded.state_path("personality", "embeddings.npz").exists()
    code, st, _ = _run(capsys, seeded, "embed-status")
    assert code == 1 and not st["available"] and message in st["note"]


def test_a_failing_plugin_stores_nothing_and_says_so(capsys, seeded, monkeypatch):
    def broken(texts):
        raise RuntimeError("model not loaded")

    monkeypatch.setattr(similarity, "plugin_embedder", lambda pm=None: broken)
    _configure(seeded, "plugin")
    code, _, err = _run(capsys, seeded, "embed")
    assert code == 2 and "failed or returned unusable vectors" in err
    assert not seeded.state_path("personality", "embeddings.npz").exists()


def test_the_built_in_embedder_needs_no_store(capsys, seeded):
    _configure(seeded, "hashed")
    code, rep, _ = _run(capsys, seeded, "embed")
    assert code == 0 and rep["embedded"] == 0
    assert not seeded.state_path("personality", "embeddings.npz").exists()


def test_an_unreadable_store_counts_as_empty(capsys, seeded, model):
    _configure(seeded, "plugin")
    seeded.state_path("personality").mkdir(parents=True, exist_ok=True)
    seeded.state_path("personality", "embeddings.npz").write_bytes(b"not an npz")
    code, st, _ = _run(capsys, seeded, "embed-status")
    assert code == 0 and st["stored"] == 0
    code, rep, _ = _run(capsys, seeded, "embed")
    assert code == 0 and rep["embedded"] == len(CHITIN_SET)


def test_the_embedded_text_is_chitins(seeded):
    ins = next(i for i in CHITIN_SET if i.context and i.reasoning)
    assert embeddings.insight_text(ins) == f"{ins.claim} — {ins.context} — {ins.reasoning}"
