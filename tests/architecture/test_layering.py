"""The package layers the README names, checked on every import statement of the source tree.

gate -> rules -> personality -> tiers (a layer may import any layer below it); tiers -> nothing of ours. Nothing
imports gate, and no module imports another that imports it back. No module imports a private interpreter module (a leading underscore): one of them broke the hook on
Python 3.11, and their names change between releases.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = {
    "gate": {"gate", "rules", "personality", "tiers"},
    "rules": {"rules", "personality", "tiers"},
    "personality": {"personality", "tiers"},
    "tiers": {"tiers"},
}


def _imports(path: Path, package: list[str] | None = None) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in ``path``, relative imports resolved against its package."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    if package is None:
        package = list(path.relative_to(ROOT).parts[:-1])
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            out.append((node.lineno, name))
            # ``from re import _parser``: a private member of a module counts as that module
            out += [(node.lineno, f"{name}.{a.name}") for a in node.names
                    if a.name.startswith("_") and not a.name.startswith("__")]
    return out


def _sources() -> list[Path]:
    return sorted(p for layer in LAYERS for p in (ROOT / layer).rglob("*.py"))


def test_the_layer_table_covers_every_package():
    assert {p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file()} == set(LAYERS)


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_no_import_points_up_or_across_a_layer(layer: str):
    wrong = []
    for path in (ROOT / layer).rglob("*.py"):
        for line, name in _imports(path):
            top = name.split(".")[0]
            if top in LAYERS and top not in LAYERS[layer]:
                wrong.append(f"{path.relative_to(ROOT)}:{line}: {layer} imports {name}")
    assert wrong == []


def test_no_module_imports_a_private_interpreter_module():
    stdlib = set(sys.stdlib_module_names)
    wrong = []
    for path in _sources():
        for line, name in _imports(path):
            parts = name.split(".")
            private = parts[0].startswith("_") and parts[0] != "__future__"
            private_sub = parts[0] in stdlib and any(p.startswith("_") for p in parts[1:])
            if private or private_sub:
                wrong.append(f"{path.relative_to(ROOT)}:{line}: {name}")
    assert wrong == []


def test_the_walker_resolves_relative_and_private_imports(tmp_path: Path):
    """A check that cannot fail is none: the walker must see an upward relative import and a private module."""
    probe = tmp_path / "probe.py"
    probe.write_text("from ..gate import cli\nfrom . import model\nimport _socket\nfrom re import _parser\n",
                     encoding="utf-8")
    assert [n for _, n in _imports(probe, ["tiers", "arbitration"])] == ["tiers.gate", "tiers.arbitration",
                                                                         "_socket", "re", "re._parser"]
    assert [n for _, n in _imports(probe, ["tiers"])][:2] == ["gate", "tiers"]


# -- import circles ------------------------------------------------------------------------------------------
def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _import_graph(paths: list[Path]) -> dict[str, set[str]]:
    """Module -> the project modules it imports anywhere (function bodies too: a lazy import is still a
    dependency), leaving out ``if TYPE_CHECKING:`` blocks, which never run."""
    names = {_module_name(p): p for p in paths}
    graph: dict[str, set[str]] = {}
    for name, path in names.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
                node.body = []
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        deps: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = package[: len(package) - node.level + 1] if node.level else []
                mod = ".".join([*base, node.module] if node.module else base)
                subs = [f"{mod}.{a.name}" for a in node.names if f"{mod}.{a.name}" in names]
                targets = subs + ([mod] if len(subs) < len(node.names) else [])
            else:
                continue
            for target in targets:
                while target and target not in names:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    deps.add(target)
        graph[name] = deps
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_module_imports_another_that_imports_it_back():
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 5000))
    assert _circles(_import_graph(_sources())) == []


def test_the_circle_finder_sees_a_lazy_circle_and_ignores_type_checking(tmp_path: Path, monkeypatch):
    pkg = tmp_path / "tiers"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("def f():\n    from .b import g\n")
    (pkg / "b.py").write_text("from tiers.a import f\nTYPE_CHECKING = False\nif TYPE_CHECKING:\n    from .c import x\n")
    (pkg / "c.py").write_text("from . import b\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    graph = _import_graph(sorted(pkg.glob("*.py")))
    assert graph["tiers.c"] == {"tiers.b"} and graph["tiers.b"] == {"tiers.a"}
    assert _circles(graph) == [["tiers.a", "tiers.b"]]


# -- module size ---------------------------------------------------------------------------------------------
LONGEST = 800


def _states_why_it_is_long(path: Path) -> bool:
    """A module over LONGEST lines says why in its docstring: 'Over 800 lines because …' (or '… on purpose')."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    return f"Over {LONGEST} lines" in " ".join(doc.split())


def test_no_module_is_over_800_lines_without_a_reason_at_its_top():
    long = [f"{p.relative_to(ROOT)}: {n} lines" for p in _sources()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > LONGEST and not _states_why_it_is_long(p)]
    assert long == []


def test_the_size_check_sees_a_long_module_without_a_reason(tmp_path: Path):
    quiet = tmp_path / "quiet.py"
    quiet.write_text('"""A module."""\n' + "x = 1\n" * (LONGEST + 1), encoding="utf-8")
    said = tmp_path / "said.py"
    said.write_text(f'"""A table.\n\nOver {LONGEST}\n    lines because it is data."""\n' + "x = 1\n" * (LONGEST + 1),
                    encoding="utf-8")
    assert not _states_why_it_is_long(quiet) and _states_why_it_is_long(said)
