"""Which other distributions declare `cuticle` entry points: the quick look never hides one importlib.metadata finds."""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

import pytest

from tiers.plugins import installed_entry_points, other_entry_points

OWN = frozenset({"cuticle"})


def _dist(site: Path, dirname: str, name: str | None, entry_points: str | None, meta: str = "METADATA") -> None:
    d = site / dirname
    d.mkdir(parents=True)
    if name is not None:
        (d / meta).write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n\nName: not-a-header\n",
                              encoding="utf-8")
    if entry_points is not None:
        (d / "entry_points.txt").write_text(entry_points, encoding="utf-8")


def _reference() -> list[str]:
    """What importlib.metadata finds, asked directly."""
    return sorted(ep.name for ep in installed_entry_points() if ep.dist.name not in OWN)


@pytest.fixture
def path(tmp_path: Path, monkeypatch) -> list[str]:
    """sys.path holding only the standard library and a fresh site directory (``path[0]``)."""
    site = tmp_path / "site"
    site.mkdir()
    stdlib = [p for p in sys.path if p and "site-packages" not in p and "dist-packages" not in p
              and Path(p).resolve() != Path.cwd().resolve()]
    new = [str(site), *stdlib]
    monkeypatch.setattr(sys, "path", new)
    return new


def test_no_other_distribution_means_no_entry_points(path):
    site = Path(path[0])
    _dist(site, "cuticle-0.1.0.dist-info", "cuticle", "[cuticle]\nmemory = rules.memory.plugin\n")
    _dist(site, "other-1.0.dist-info", "other", "[console_scripts]\nother = other:main\n")
    _dist(site, "bare-1.0.dist-info", "bare", None)
    assert other_entry_points(OWN) == [] == _reference()


@pytest.mark.parametrize("dirname, meta", [("acme_cuticle-1.0.dist-info", "METADATA"),
                                           ("acme_cuticle.egg-info", "PKG-INFO"),
                                           ("ACME_Cuticle-1.0.DIST-INFO", "METADATA")])
def test_another_distribution_is_found(path, dirname, meta):
    _dist(Path(path[0]), dirname, "acme-cuticle", "[cuticle]\nacme = acme_cuticle\n", meta)
    assert [ep.name for ep in other_entry_points(OWN)] == ["acme"] == _reference()


def test_a_distribution_that_only_looks_like_ours_is_not_skipped(path):
    # the directory says cuticle, the metadata (what importlib.metadata reads) does not
    _dist(Path(path[0]), "cuticle-9.dist-info", "Cuticle-Fork", "[cuticle]\nfork = fork\n")
    assert [ep.name for ep in other_entry_points(OWN)] == ["fork"] == _reference()


def test_unreadable_metadata_counts_as_another_distribution(path):
    _dist(Path(path[0]), "nameless-1.0.dist-info", None, "[cuticle]\nx = x\n")
    from tiers.plugins import _others_may_declare

    assert _others_may_declare(OWN)


def test_a_zip_on_the_path_is_asked_about(path, tmp_path):
    z = tmp_path / "plugins.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("zipped-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: zipped\nVersion: 1.0\n")
        zf.writestr("zipped-1.0.dist-info/entry_points.txt", "[cuticle]\nzipped = zipped\n")
    path.append(str(z))
    assert [ep.name for ep in other_entry_points(OWN)] == ["zipped"] == _reference()


def test_another_distribution_finder_is_asked_about(path, monkeypatch):
    from tiers.plugins import _others_may_declare

    class Finder:
        @staticmethod
        def find_spec(*args, **kwargs):
            return None

        @staticmethod
        def find_distributions(*args, **kwargs):
            return iter(())

    monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, Finder])
    assert _others_may_declare(OWN)


def test_missing_path_entries_are_skipped(path, tmp_path):
    path.insert(0, str(tmp_path / "gone"))
    assert other_entry_points(OWN) == [] == _reference()
