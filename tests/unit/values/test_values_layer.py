"""The value layer sits at the bottom: `relate.values` imports only `relate.errors` and
`relate.temporal`, and the layers above reach Cypher equality and text through it (storage
no longer imports exec; arithmetic and the conversion functions no longer import each other).
Imports inside functions count as much as those at the top of a module."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[3] / "relate"


def _module(path: Path) -> tuple[str, bool]:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    package = parts[-1] == "__init__"
    return ".".join(parts[:-1] if package else parts), package


def _imports(path: Path) -> set[str]:
    """The relate modules (or names in them) `path` imports, anywhere in it."""
    name, package = _module(path)
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")[: len(name.split(".")) - node.level + (1 if package else 0)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{a.name}" for a in node.names)
    # `from .. import temporal` names `relate` and `relate.temporal`: the second is the import
    return {m for m in found if m.startswith("relate.")}


def _edges(under: str) -> dict[str, set[str]]:
    folder = PACKAGE.joinpath(*under.split(".")[1:])
    paths = sorted(folder.rglob("*.py")) if folder.is_dir() else [folder.with_suffix(".py")]
    return {_module(p)[0]: _imports(p) for p in paths}


def _within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def test_values_imports_nothing_above_it():
    allowed = ("relate.values", "relate.errors", "relate.temporal")
    upward = {(m, t) for m, ts in _edges("relate.values").items() for t in ts if not _within(t, allowed)}
    assert upward == set()


def test_storage_does_not_import_the_executor():
    edges = {(m, t) for m, ts in _edges("relate.storage").items() for t in ts if _within(t, ("relate.exec",))}
    assert edges == set()


def test_arithmetic_and_the_functions_do_not_import_each_other_both_ways():
    arith = _edges("relate.exec.arith")["relate.exec.arith"]
    functions = _edges("relate.exec.functions")
    into_arith = {m for m, ts in functions.items() if "relate.exec.arith" in ts}
    assert not (into_arith and any(_within(t, ("relate.exec.functions",)) for t in arith))
