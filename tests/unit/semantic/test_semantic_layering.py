"""The checking stage sits below exec and plan: no module of `relate/semantic` imports a layer
above it, at module level or inside a function."""
from __future__ import annotations

import ast
from pathlib import Path

import relate

SEMANTIC = Path(relate.__file__).resolve().parent / "semantic"
# the layers above semantic (L5 and up), as `relate.<first part>`
ABOVE = {"exec", "procedures", "plan", "policy", "database", "schema", "output", "jsonenc", "protocols",
         "net", "cli", "browser"}


def _imports(path: Path) -> list[tuple[int, str]]:
    package = ".".join(("relate",) + path.relative_to(SEMANTIC.parent).with_suffix("").parts[:-1])
    return _imports_of(path.read_text(encoding="utf-8"), package)


def _imports_of(source: str, package: str) -> list[tuple[int, str]]:
    """Every module `source` (a module of `package`) imports anywhere in it, as absolute names."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            # `from .. import exec` names a module too
            out.append((node.lineno, mod))
            out.extend((node.lineno, f"{mod}.{a.name}") for a in node.names)
    return out


def test_semantic_imports_nothing_above_it():
    upward = []
    files = sorted(SEMANTIC.rglob("*.py"))
    assert len(files) > 10
    for path in files:
        for line, mod in _imports(path):
            parts = mod.split(".")
            if parts[0] == "relate" and len(parts) > 1 and parts[1] in ABOVE:
                upward.append(f"{path.relative_to(SEMANTIC.parent)}:{line}: {mod}")
    assert upward == []


def test_the_walk_sees_function_level_and_relative_imports():
    found = [m for _, m in _imports_of("def f():\n    from ...exec import compile\n", "relate.semantic.checks")]
    assert "relate.exec.compile" in found
    found = [m for _, m in _imports_of("def f():\n    from ..exec import compile\n", "relate.semantic")]
    assert "relate.exec.compile" in found
    found = [m for _, m in _imports_of("import relate.plan.planner\n", "relate.semantic")]
    assert "relate.plan.planner" in found
