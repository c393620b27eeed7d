"""The engine's layering, read from its source: every `relate/` module's imports -> the edges
between modules -> four rules, each failing with the offending edge, cycle or file.

Layers, bottom to top (an import may only point down, or sideways within its layer):

    L0 errors, version
    L1 temporal
    L2 values
    L3 storage, syntax, result
    L4 semantic
    L5 exec, procedures
    L6 plan
    L7 policy, database, schema
    L8 output, jsonenc, protocols
    L9 net, cli, browser, skill, relate/__init__

A module's layer is that of its first name under `relate` (`relate.exec.functions.convert` is in
exec, L5); `relate.skill` is the CLI's package data.  A module the map does not name fails the
test: place it before it lands.

What counts as an import: every `import` and `from ... import` statement anywhere in the module
(module level, inside functions and classes, under `if`/`try`), relative or absolute.  `from
pkg import name` is an edge to `pkg.name` when that is a module, otherwise to `pkg` itself.

The rules:
1. No upward edge (an import of a module in a higher layer).
2. No cycle: the module graph, function-level imports included, has no strongly connected
   component of more than one module (nor a module importing itself).
3. No module over 600 lines.
4. Pure core: outside `relate/net/`, no module imports a process-level or I/O-multiplexing module
   (`FORBIDDEN_AT_MODULE_LEVEL`: sockets, threads, signals, fcntl, select, asyncio, subprocess,
   ...) or `relate.net` at module level, i.e. anywhere outside a function body (module-level `if`
   and `try` blocks count as module level).  Inside a function such an import is allowed: it runs
   only on the native path that needs it (`storage/fs.py` takes the writer lease with `fcntl`,
   falling back when it is missing; `cli/serve.py` imports the transports in `relate.net` when a
   server starts), so importing any module of the core works where Pyodide lacks them.
"""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "relate"
MAX_LINES = 600

LAYERS = {
    "errors": 0, "version": 0, "dataclass_code": 0, "gc_pause": 0,
    "temporal": 1,
    "values": 2,
    "storage": 3, "syntax": 3, "result": 3,
    "semantic": 4,
    "exec": 5, "procedures": 5, "search": 5,
    "plan": 6,
    "policy": 7, "database": 7, "temporal_run": 7, "lean_run": 7, "transaction_blocks": 7, "schema": 7,
    "transactions": 7,
    "output": 8, "jsonenc": 8, "protocols": 8, "transfer": 8,
    "net": 9, "cli": 9, "browser": 9, "skill": 9, "": 9,  # "": relate/__init__.py
}

FORBIDDEN_AT_MODULE_LEVEL = frozenset({
    "socket", "socketserver", "ssl", "select", "selectors", "asyncio", "threading", "_thread",
    "multiprocessing", "concurrent", "subprocess", "signal", "fcntl", "termios", "tty", "pty",
})


def _modules() -> dict[str, Path]:
    """Dotted name -> file, for every module of the package (a package is its `__init__.py`)."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _layer(module: str) -> int:
    head = module.split(".")[1] if "." in module else ""
    assert head in LAYERS, f"{module} is in no layer: add {head!r} to LAYERS in {Path(__file__).name}"
    return LAYERS[head]


class _Import:
    __slots__ = ("target", "line", "in_function")

    def __init__(self, target: str, line: int, in_function: bool) -> None:
        self.target = target  # a dotted module name (outside relate too: 'socket', 'os.path')
        self.line = line
        self.in_function = in_function


def _imports(module: str, path: Path) -> list[_Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    package = module if is_package else module.rpartition(".")[0]
    found: list[_Import] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                for alias in child.names:
                    found.append(_Import(alias.name, child.lineno, in_function))
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")
                    base = base[:len(base) - (child.level - 1)]
                    origin = ".".join(base + ([child.module] if child.module else []))
                else:
                    origin = child.module or ""
                if origin == "__future__":
                    continue
                for alias in child.names:
                    sub = f"{origin}.{alias.name}"
                    found.append(_Import(sub if sub in MODULES else origin, child.lineno, in_function))
            visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    visit(tree, False)
    return found


IMPORTS = {module: _imports(module, path) for module, path in MODULES.items()}


def _where(module: str, imp: _Import) -> str:
    return f"{MODULES[module].relative_to(PACKAGE.parent)}:{imp.line}"


def _internal(target: str) -> str | None:
    """The relate module an import names, or None for the standard library and third parties."""
    if target == "relate" or target.startswith("relate."):
        while target not in MODULES:  # `import relate.a.b` of a name that is not a module
            target = target.rpartition(".")[0]
        return target
    return None


def _graph() -> dict[str, dict[str, _Import]]:
    graph: dict[str, dict[str, _Import]] = {m: {} for m in MODULES}
    for module, imports in IMPORTS.items():
        for imp in imports:
            target = _internal(imp.target)
            if target is not None:
                graph[module].setdefault(target, imp)
    return graph


def _components(graph: dict[str, dict[str, _Import]]) -> list[list[str]]:
    """Tarjan's strongly connected components (iterative: the package is deep enough)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    out.append(sorted(component))
    return out


def _cycle_in(component: list[str], graph: dict[str, dict[str, _Import]]) -> list[str]:
    """One cycle through the component's first module, as the path of modules it follows."""
    members = set(component)
    start = component[0]
    paths = {start: [start]}
    frontier = [start]
    while frontier:  # breadth-first: the shortest way back to the start
        nxt = []
        for node in frontier:
            for child in sorted(graph[node]):
                if child == start:
                    return paths[node] + [start]
                if child in members and child not in paths:
                    paths[child] = paths[node] + [child]
                    nxt.append(child)
        frontier = nxt
    raise AssertionError(f"no cycle through {start}")  # pragma: no cover - a component has one


def test_every_module_has_a_layer():
    for module in MODULES:
        _layer(module)


def test_no_import_points_to_a_higher_layer():
    upward = []
    for module, edges in _graph().items():
        for target, imp in sorted(edges.items()):
            if _layer(target) > _layer(module):
                upward.append(f"{_where(module, imp)}: {module} (L{_layer(module)}) imports {target} "
                              f"(L{_layer(target)})")
    assert not upward, "imports pointing to a higher layer:\n" + "\n".join(upward)


def test_no_import_cycle():
    graph = _graph()
    cycles = []
    for component in _components(graph):
        if len(component) > 1 or component[0] in graph[component[0]]:
            path = _cycle_in(component, graph)
            steps = " -> ".join(path)
            edges = ", ".join(_where(a, graph[a][b]) for a, b in zip(path, path[1:]))
            cycles.append(f"{steps} ({edges}); the component: {', '.join(component)}")
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_no_module_is_over_600_lines():
    long = []
    for module, path in MODULES.items():
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > MAX_LINES:
            long.append(f"{path.relative_to(PACKAGE.parent)}: {n} lines")
    assert not long, f"modules over {MAX_LINES} lines (split them along their sections):\n" + "\n".join(long)


def test_the_core_imports_no_process_or_network_module_at_module_level():
    found = []
    for module, imports in IMPORTS.items():
        if module == "relate.net" or module.startswith("relate.net."):
            continue
        for imp in imports:
            if imp.in_function:
                continue
            top = imp.target.split(".")[0]
            if top in FORBIDDEN_AT_MODULE_LEVEL or _internal(imp.target) in _NET:
                found.append(f"{_where(module, imp)}: {module} imports {imp.target} at module level")
    assert not found, ("outside relate/net/ these are imported only inside the function that needs "
                       "them:\n" + "\n".join(found))


_NET = {m for m in MODULES if m == "relate.net" or m.startswith("relate.net.")}


def test_the_walker_sees_every_kind_of_import():
    # the rules above pass vacuously if the walker misses imports: pin what it reads
    dirstore = {i.target for i in IMPORTS["relate.storage.dirstore"]}
    assert {"relate.errors", "relate.storage.frames", "os"} <= dirstore  # relative, `from . import`
    lazy = [i for i in IMPORTS["relate.storage.store"] if i.target == "relate.storage.dirstore"]
    assert lazy and lazy[0].in_function  # function-level, relative `from .dirstore import ...`
    assert _internal("relate.storage.fs.OS") == "relate.storage.fs"  # a name, not a module
    fs = [i for i in IMPORTS["relate.storage.fs"] if i.target == "fcntl"]
    assert fs and fs[0].in_function
    graph = {"a": {"b": None}, "b": {"c": None}, "c": {"a": None}, "d": {"a": None}}
    assert sorted(map(sorted, _components(graph))) == [["a", "b", "c"], ["d"]]
    assert _cycle_in(["a", "b", "c"], graph) == ["a", "b", "c", "a"]
