"""The error tree and the package's source -> the errors reference (a table per error class).

    relate/errors.py         every subclass of RelateError: category, TCK type, exit code,
                             retryable, internal (what an MCP caller sees), its docstring
    relate/**/*.py (ast)     every kind the package raises: a call `SomeError("Kind", ...)`,
                             `SomeError(kind="Kind")`, `SomeError(KIND, ...)` with a module-level
                             `KIND = "Kind"`, or a call of a helper that passes its own
                             `kind` parameter on to an error class (`_syntax(..., kind="X")`,
                             whose default counts too); a class whose constructor fixes its kind
                             (`super().__init__("ReadOnly", ...)`) gives that kind to every call
                          -> [ErrorClass(..., kinds=(Kind(name, modules), ...))]

Scanning the source rather than keeping a hand list means a new kind shows up in the reference
the moment code raises it; tests/e2e/test_docs_pages.py checks the page against errors the
native binary really prints.
"""
from __future__ import annotations

import ast
import html
import inspect
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Kind:
    name: str
    modules: tuple[str, ...]  # where it is raised, as dotted module names


@dataclass(frozen=True)
class ErrorClass:
    name: str
    base: str
    category: str
    tck_types: dict[str, str]  # phase ("" when it does not depend on one) -> TCK type
    exit_code: int
    retryable: bool
    internal: bool
    doc: str
    kinds: tuple[Kind, ...]


def _error_classes() -> dict[str, type]:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from relate import errors

    found = {}
    for name, value in vars(errors).items():
        if inspect.isclass(value) and issubclass(value, errors.RelateError):
            found[name] = value
    return found


def _callee(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _kind_arg(call: ast.Call, index: int, keyword: str) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == keyword:
            return kw.value
    if len(call.args) > index and not any(isinstance(a, ast.Starred) for a in call.args[:index + 1]):
        return call.args[index]
    return None


def _const_str(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _module_constants(tree: ast.Module) -> dict[str, str]:
    """Top-level `KIND = "TraversalDepthExceeded"` assignments: a kind kept in a constant."""
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            value = _const_str(node.value)
            if value is not None:
                out[node.targets[0].id] = value
    return out


def scan(package: Path | None = None) -> dict[str, dict[str, set[str]]]:
    """-> {class name: {kind: {module, ...}}} for every kind raised in the package's source."""
    package = package or ROOT / "relate"
    classes = _error_classes()
    found: dict[str, dict[str, set[str]]] = {name: {} for name in classes}
    trees = {}
    for path in sorted(package.rglob("*.py")):
        module = ".".join(path.relative_to(package.parent).with_suffix("").parts)
        trees[module] = ast.parse(path.read_text(encoding="utf-8"), str(path))

    # helpers: def f(..., kind="Default") whose body builds an error class from `kind`
    helpers: dict[str, tuple[str, int, str | None]] = {}
    for tree in trees.values():
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or fn.name in classes:
                continue
            params = [a.arg for a in fn.args.args]
            if "kind" not in params:
                continue
            for call in ast.walk(fn):
                if isinstance(call, ast.Call) and _callee(call) in classes:
                    arg = _kind_arg(call, 0, "kind")
                    if isinstance(arg, ast.Name) and arg.id == "kind":
                        index = params.index("kind")
                        defaults = fn.args.defaults
                        offset = len(params) - len(defaults)
                        default = _const_str(defaults[index - offset]) if index >= offset else None
                        helpers[fn.name] = (_callee(call), index, default)

    fixed = _fixed_kinds(classes)
    for module, tree in trees.items():
        constants = _module_constants(tree)

        def literal(node: ast.expr | None) -> str | None:
            if isinstance(node, ast.Name) and node.id in constants:
                return constants[node.id]
            return _const_str(node)

        for call in ast.walk(tree):
            if not isinstance(call, ast.Call):
                continue
            name = _callee(call)
            if name in fixed:
                kind, cls = fixed[name], name
            elif name in classes and name != "RelateError":
                kind = literal(_kind_arg(call, 0, "kind"))
                cls = name
            elif name in helpers:
                cls, index, default = helpers[name]
                kind = literal(_kind_arg(call, index, "kind")) or (
                    default if _kind_arg(call, index, "kind") is None else None)
            else:
                continue
            if kind and kind[:1].isupper() and kind.isidentifier():
                found[cls].setdefault(kind, set()).add(module)
    return found


def _fixed_kinds(classes: dict[str, type]) -> dict[str, str]:
    """Classes whose constructor names the kind itself, read from their `super().__init__("Kind",
    ...)` call -> {class name: kind} (ReadOnlyError -> "ReadOnly"); subclasses inherit it."""
    tree = ast.parse(inspect.getsource(sys.modules[next(iter(classes.values())).__module__]))
    fixed = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        for item in node.body:
            if isinstance(item, ast.FunctionDef) and item.name == "__init__" and \
                    "kind" not in [a.arg for a in item.args.args]:
                for call in ast.walk(item):
                    if isinstance(call, ast.Call) and _callee(call) == "__init__" and call.args:
                        kind = _const_str(call.args[0])
                        if kind:
                            fixed[node.name] = kind
    for name, cls in classes.items():
        for parent in cls.__mro__:
            if parent.__name__ in fixed:
                fixed.setdefault(name, fixed[parent.__name__])
                break
            if "__init__" in vars(parent):
                break
    return fixed


def _tck_types(cls: type) -> dict[str, str]:
    """A class attribute, or a property that depends on the phase (a refusal found before the
    statement runs is filed differently from one found while it runs)."""
    if not isinstance(inspect.getattr_static(cls, "tck_type"), property):
        return {"": cls.tck_type}
    by_phase = {}
    for phase in ("compile", "runtime"):
        try:
            by_phase[phase] = cls("Kind", "detail", phase=phase).tck_type
        except TypeError:
            return {"": "(set per error)"}
    return by_phase if len(set(by_phase.values())) > 1 else {"": by_phase["compile"]}


def error_tree() -> list[ErrorClass]:
    classes = _error_classes()
    raised = scan()
    out = []
    for name, cls in classes.items():
        kinds = tuple(Kind(k, tuple(sorted(m))) for k, m in sorted(raised.get(name, {}).items()))
        base = cls.__mro__[1].__name__ if name != "RelateError" else ""
        out.append(ErrorClass(name, base, cls.category, _tck_types(cls), cls.exit_code, cls.retryable,
                              cls.internal, inspect.cleandoc(cls.__doc__ or ""), kinds))
    return out


EXIT_MEANING = {1: "other failure", 2: "usage", 5: "conflict or locked store", 6: "statement rejected",
                7: "timeout"}


def reference_html() -> str:
    """The generated part of the errors page: one section per class that something raises."""
    parts = []
    for ec in error_tree():
        if ec.name == "RelateError":
            continue
        e = html.escape
        tck = "; ".join(f"<code>{e(t)}</code>" + (f" ({e(p)} phase)" if p else "")
                        for p, t in ec.tck_types.items())
        facts = [
            ("Message starts", f"<code>{e(ec.category)}:</code>"),
            ("TCK type", tck),
            ("Exit code", f"{ec.exit_code} ({EXIT_MEANING.get(ec.exit_code, 'other')})"),
            ("Retry can help", "yes" if ec.retryable else "no"),
            ("MCP tool result", "<code>Error: internal error</code> (detail withheld)" if ec.internal
             else "<code>Error: </code> + the message"),
        ]
        rows = "".join(f"<tr><th scope=\"row\">{k}</th><td>{v}</td></tr>" for k, v in facts)
        if ec.kinds:
            kinds = "".join(
                f'<tr id="{ec.name.lower()}-{e(k.name)}" data-kind="{e(k.name)}"><td><code>{e(k.name)}</code></td>'
                "<td>" + " or ".join(f"<code>Relate.{e(t)}.{e(k.name)}</code>" for t in ec.tck_types.values())
                + "</td>"
                f"<td>{' '.join(f'<code>{e(m)}</code>' for m in k.modules)}</td></tr>"
                for k in ec.kinds)
            kind_table = ('<div class="table-scroll"><table class="doc-table"><thead><tr>'
                          '<th scope="col">kind</th><th scope="col"><code>code</code> in the error object</th>'
                          f'<th scope="col">raised in</th></tr></thead><tbody>{kinds}</tbody></table></div>')
        else:
            kind_table = "<p>Nothing in this version raises it yet.</p>"
        anchor = f"class-{ec.name.lower()}"
        parts.append(
            f'<section class="error-class" aria-labelledby="{anchor}">'
            f'<h3 id="{anchor}"><code>{e(ec.name)}</code></h3>'
            f"<p>{e(ec.doc)}</p>"
            f'<div class="table-scroll"><table class="doc-table facts"><tbody>{rows}</tbody></table></div>'
            f"{kind_table}</section>")
    return "\n".join(parts)


if __name__ == "__main__":
    for ec in error_tree():
        print(ec.name, ec.category, ec.exit_code, [k.name for k in ec.kinds])
