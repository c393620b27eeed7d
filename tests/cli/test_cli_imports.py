"""The modules of `relate/cli/` import each other without a cycle, counting imports inside
functions too (a lazy import that closes a cycle still ties the two modules together), and the
parsers module, which every command module reads, imports none of them."""
from __future__ import annotations

import ast
from pathlib import Path

import relate.cli

CLI = Path(relate.cli.__file__).parent


def cli_imports() -> dict[str, set[str]]:
    """module name -> the `relate.cli` modules it imports (module level and inside functions)."""
    names = {p.stem for p in CLI.glob("*.py")} - {"__init__"}
    graph: dict[str, set[str]] = {}
    for name in names:
        found = set()
        for node in ast.walk(ast.parse((CLI / f"{name}.py").read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level == 1:  # from .x import y / from . import x
                    targets = [node.module] if node.module else [a.name for a in node.names]
                elif node.level == 0 and (node.module or "").startswith("relate.cli."):
                    targets = [node.module.removeprefix("relate.cli.")]
                else:
                    continue
                found.update(t.split(".")[0] for t in targets if t.split(".")[0] in names)
            elif isinstance(node, ast.Import):
                found.update(a.name.removeprefix("relate.cli.") for a in node.names
                             if a.name.removeprefix("relate.cli.") in names)
        graph[name] = found - {name}
    return graph


def test_the_graph_sees_lazy_imports():
    graph = cli_imports()
    assert "serve" in graph["main"] and "terminal" in graph["main"]  # both imported inside functions


def test_no_cli_module_imports_one_that_imports_it_back():
    graph = cli_imports()
    cycles = []
    for start in graph:
        stack = [(start, (start,))]
        while stack:
            here, path = stack.pop()
            for nxt in graph[here]:
                if nxt == start:
                    cycles.append(" -> ".join(path + (start,)))
                elif nxt not in path:
                    stack.append((nxt, path + (nxt,)))
    assert cycles == []


def test_the_parsers_module_is_a_leaf():
    assert cli_imports()["parsers"] == set()
