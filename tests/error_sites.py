"""relate's source -> every place that makes an error, with the class and kind it makes.

    SomeError("Kind", ...) / SomeError(kind="Kind")     a class of the tree, the kind a literal, a
                                                         module constant, or a local name assigned
                                                         only literals (`kind = "A" if x else "B"`)
    ReadOnlyError(detail)                                a class whose constructor fixes the kind
    helper(..., "Kind")                                  a function whose parameter goes on as the
                                                         kind (`def fail(self, kind, detail, pos)`),
                                                         followed to its callers in its own area
                                                         (relate/semantic/, relate/syntax/, ...);
                                                         a default of that parameter counts too
    E.Group.Kind / Group.Kind                            a declaration of the catalog, named through
                                                         `from ..errors import E` or
                                                         `from ..errors.catalog import Group`

A kind the source does not tell (a variable from elsewhere) gives a site whose kind is None:
tests/unit/test_error_catalog.py refuses it, so every kind stays readable from the source.
"""
from __future__ import annotations

import ast
import inspect
from dataclasses import dataclass
from pathlib import Path

import relate
from relate import errors

PACKAGE = Path(relate.__file__).resolve().parent
FIXED = None  # Maker.index for a class whose constructor names the kind itself


@dataclass(frozen=True)
class Site:
    module: str        # dotted module name
    line: int
    cls: str           # error class name ("?Group" for a group the catalog lacks)
    kind: str | None   # None: the source does not tell


@dataclass(frozen=True)
class _Maker:
    """A callable whose call makes an error: a class of the tree, or a helper that passes one of
    its parameters on as the kind."""
    cls: str
    index: int | None          # where the kind is among the positional arguments of a call
    keyword: str | None        # ... or its keyword; both None: the class fixes the kind
    default: str | None        # the kind when a call passes none
    area: str | None           # a helper is followed only inside its own area (see _Module)


def error_classes() -> dict[str, type]:
    return {n: v for n, v in vars(errors).items()
            if inspect.isclass(v) and issubclass(v, errors.RelateError)}


def _callee(call: ast.Call) -> str | None:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def _arg(call: ast.Call, index: int | None, keyword: str | None) -> ast.expr | None:
    for kw in call.keywords:
        if keyword and kw.arg == keyword:
            return kw.value
    if index is not None and index < len(call.args) and \
            not any(isinstance(a, ast.Starred) for a in call.args[:index + 1]):
        return call.args[index]
    return None


class _Module:
    def __init__(self, path: Path) -> None:
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        self.name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        # a helper is followed within its area: the subpackage of relate it sits in (all of
        # relate for a top-level module), so `fail` in semantic/ is not `fail` in cli/
        self.area = ".".join(self.name.split(".")[:2]) if len(parts) > 2 else parts[0]
        self.tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        self.constants = {t.id: n.value.value for n in self.tree.body if isinstance(n, ast.Assign)
                          for t in n.targets if isinstance(t, ast.Name)
                          and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)}
        self.parent: dict[ast.AST, ast.AST] = {}
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                self.parent[child] = node

    def enclosing(self, node: ast.AST) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        while node in self.parent:
            node = self.parent[node]
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return node
        return None

    def kinds(self, at: ast.AST, expr: ast.expr | None):
        """-> the kinds `expr` can be, ("param", function, name) when it is a parameter of the
        enclosing function, or None when the source does not tell."""
        if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
            return [expr.value]
        if isinstance(expr, ast.IfExp):
            a, b = self.kinds(at, expr.body), self.kinds(at, expr.orelse)
            return a + b if isinstance(a, list) and isinstance(b, list) else None
        if isinstance(expr, ast.Name):
            fn = self.enclosing(at)
            if fn is not None:
                if expr.id in [a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs]:
                    return ("param", fn, expr.id)
                values = [n.value for n in ast.walk(fn) if isinstance(n, ast.Assign)
                          and any(isinstance(t, ast.Name) and t.id == expr.id for t in n.targets)]
                if values:
                    found = [self.kinds(v, v) for v in values]
                    return [k for f in found for k in f] if all(isinstance(f, list) for f in found) else None
            if expr.id in self.constants:
                return [self.constants[expr.id]]
        return None

    def helper(self, fn: ast.FunctionDef | ast.AsyncFunctionDef, param: str, cls: str) -> _Maker:
        positional = [a.arg for a in fn.args.posonlyargs + fn.args.args]
        is_method = isinstance(self.parent.get(fn), ast.ClassDef)
        index = positional.index(param) - (1 if is_method else 0) if param in positional else None
        defaults = dict(zip(positional[len(positional) - len(fn.args.defaults):], fn.args.defaults))
        defaults.update({a.arg: d for a, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults) if d is not None})
        default = defaults.get(param)
        return _Maker(cls, index, param,
                      default.value if isinstance(default, ast.Constant) else None, self.area)

    def catalog_names(self) -> tuple[set[str], dict[str, str]]:
        """Names this module binds to the catalog (`E`) and to its groups (`Semantic`)."""
        whole, groups = set(), {}
        for node in ast.walk(self.tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                module = node.module
                for alias in node.names:
                    bound = alias.asname or alias.name
                    if (module == "errors" or module.endswith(".errors")) and alias.name in ("E", "catalog"):
                        whole.add(bound)
                    elif module == "errors.catalog" or module.endswith(".errors.catalog"):
                        groups[bound] = alias.name
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.endswith("errors.catalog") and alias.asname:
                        whole.add(alias.asname)
        return whole, groups


def _within(maker: _Maker, module: _Module) -> bool:
    return maker.area is None or module.name == maker.area or module.name.startswith(maker.area + ".")


def _modules(package: Path) -> list[_Module]:
    return [_Module(p) for p in sorted(package.rglob("*.py"))
            if p.relative_to(package).parts[0] not in ("errors", "errors.py")]


def _makers(modules: list[_Module]) -> dict[str, list[_Maker]]:
    makers: dict[str, list[_Maker]] = {}
    for name, cls in error_classes().items():
        fixed = "kind" not in inspect.signature(cls.__init__).parameters
        makers[name] = [_Maker(name, FIXED if fixed else 0, None if fixed else "kind", None, None)]
    changed = True
    while changed:  # helpers passing a parameter on as the kind, until no new one turns up
        changed = False
        for module in modules:
            for call in ast.walk(module.tree):
                if not isinstance(call, ast.Call):
                    continue
                for maker in list(makers.get(_callee(call) or "", [])):
                    if not _within(maker, module) or maker.keyword is None:
                        continue
                    found = module.kinds(call, _arg(call, maker.index, maker.keyword))
                    if isinstance(found, tuple):
                        helper = module.helper(found[1], found[2], maker.cls)
                        if helper not in makers.setdefault(found[1].name, []):
                            makers[found[1].name].append(helper)
                            changed = True
    return makers


def scan(package: Path = PACKAGE) -> list[Site]:
    """Every site in the package (outside relate/errors/) that makes an error or names a kind."""
    modules = _modules(package)
    makers = _makers(modules)
    fixed_kind = {g.error.__name__: g.kinds[0].name for g in errors.E.GROUPS if len(g.kinds) == 1}
    groups = {g.__name__: g for g in errors.E.GROUPS}
    sites = []
    for module in modules:
        whole, imported = module.catalog_names()
        for node in ast.walk(module.tree):
            if isinstance(node, ast.Attribute):
                base = node.value
                group = None
                if isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name) and base.value.id in whole:
                    group = base.attr
                elif isinstance(base, ast.Name) and imported.get(base.id) in groups:
                    group = imported[base.id]
                if group is not None:
                    cls = groups[group].error.__name__ if group in groups else "?" + group
                    sites.append(Site(module.name, node.lineno, cls, node.attr))
                continue
            if not isinstance(node, ast.Call):
                continue
            for maker in makers.get(_callee(node) or "", []):
                if not _within(maker, module):
                    continue
                if maker.keyword is None:
                    sites.append(Site(module.name, node.lineno, maker.cls, fixed_kind.get(maker.cls)))
                    continue
                expr = _arg(node, maker.index, maker.keyword)
                found = [maker.default] if expr is None and maker.default else module.kinds(node, expr)
                if isinstance(found, tuple):
                    continue  # a helper's own body: its callers are the sites
                for kind in found or [None]:
                    sites.append(Site(module.name, node.lineno, maker.cls, kind))
    return sites
