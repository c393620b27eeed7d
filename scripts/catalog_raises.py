"""Command: rewrite error constructions into calls of the error catalog.

    python scripts/catalog_raises.py [--write] PATH...

Each `SomeError("Kind", detail, position=p, phase="runtime")` in the given files (or the .py
files under the given folders) becomes `E.Group.Kind(...)`, the declaration of relate/errors/
catalog.py for that class and kind:

    detail an f-string or literal of the kind's template   -> the template's fields
                                                              (`E.Semantic.VariableAlreadyBound(name=n)`)
    any other detail                                       -> the detail, as it was
    position=...                                           -> kept
    phase="<the declared phase>"                           -> dropped (the declaration fixes it)
    DeletedEntityError(d), UsageError(d), ReadOnlyError(d) -> E.Deleted.DeletedEntityAccess(d), ...
    ParameterMissingError(ns), StatementTimeout(s)         -> E.Parameter.ParameterMissing(names=ns),
                                                              E.Timeout.Timeout(seconds=s)

and the module imports `E` from relate.errors (class names it no longer uses leave the import).
The message, phase and position each rewritten call makes stay what they were; tests/unit/
test_error_catalog.py checks that a declaration makes what the class's constructor makes.

Left alone, and listed: a kind the catalog does not declare for that class, a kind that is not a
literal or module constant (helpers such as `Analyzer.fail(kind, ...)`: convert them by hand,
e.g. to take the declaration itself), a phase other than the declared one.  Without --write it
prints the diff and changes nothing.
"""
from __future__ import annotations

import argparse
import ast
import difflib
import re
import string
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from relate import errors  # noqa: E402
from relate.errors import E  # noqa: E402

GROUPS = {g.error.__name__: g for g in E.GROUPS}
WIDTH = 110


_MARK = 0xE000  # a private-use character stands for each {expression} of an f-string


def _fields(detail: ast.expr, message: str, source: str) -> list[str] | None:
    """The keyword arguments that make the template `message` say what `detail` (a literal or an
    f-string) says, None when no assignment of its fields does.  A field may take a literal
    (`clause="MERGE"`), one expression (`name=n`) or a piece of the f-string
    (`what=f"aggregation function {e.name}()"`)."""
    pieces: list[tuple[str, str | None, str]] = []  # the f-string's expressions: source, conversion, spec
    if isinstance(detail, ast.Constant) and isinstance(detail.value, str):
        flat = detail.value
    elif isinstance(detail, ast.JoinedStr):
        flat = ""
        for v in detail.values:
            if isinstance(v, ast.Constant):
                flat += v.value
                continue
            assert isinstance(v, ast.FormattedValue)
            spec = ""
            if v.format_spec is not None:
                if not all(isinstance(x, ast.Constant) for x in v.format_spec.values):
                    return None
                spec = "".join(x.value for x in v.format_spec.values)
            flat += chr(_MARK + len(pieces))
            pieces.append((ast.get_source_segment(source, v.value), None if v.conversion == -1 else chr(v.conversion),
                           spec))
    else:
        return None
    if any(_MARK <= ord(c) < _MARK + 0x100 for c in (detail.value if isinstance(detail, ast.Constant) else "")):
        return None
    pattern, names = "", []
    for literal, name, spec, conv in string.Formatter().parse(message):
        pattern += re.escape(literal)
        if name is not None:
            if not name.isidentifier():
                return None
            if name in names:
                pattern += f"(?P={name})"
            else:
                names.append(name)
                pattern += f"(?P<{name}>.*?)"
    m = re.fullmatch(pattern, flat, re.DOTALL)
    if m is None:
        return None
    out = []
    specs = {name: (spec or "", conv) for _, name, spec, conv in string.Formatter().parse(message) if name}
    for name in names:
        value = _value(m.group(name), pieces, *specs[name])
        if value is None:
            return None
        out.append(f"{name}={value}")
    return out


def _value(text: str, pieces, spec: str, conv: str | None) -> str | None:
    """Source for what a field must hold to render as `text` (marks standing for expressions)."""
    marks = [ord(c) - _MARK for c in text if _MARK <= ord(c) < _MARK + len(pieces)]
    if len(text) == 1 and marks:
        expr, econv, espec = pieces[marks[0]]
        if (econv, espec) == (conv, spec):
            return expr
    if spec or conv:
        return None  # a formatted field renders only one expression formatted the same way
    if not marks:
        return f'"{text}"' if not any(c in text for c in '"\\\n\t') else repr(text)
    used = "".join(pieces[i][0] for i in marks)
    quote = next((q for q in ('"', "'") if q not in used), None)
    if quote is None or "\\" in used:
        return None
    body = ""
    for c in text:
        if _MARK <= ord(c) < _MARK + len(pieces):
            expr, econv, espec = pieces[ord(c) - _MARK]
            body += "{" + expr + (f"!{econv}" if econv else "") + (f":{espec}" if espec else "") + "}"
        else:
            body += {"{": "{{", "}": "}}", "\\": "\\\\", "\n": "\\n", "\t": "\\t", quote: "\\" + quote}.get(c, c)
    return f"f{quote}{body}{quote}"


class Rewriter:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.source = path.read_text(encoding="utf-8")
        self.tree = ast.parse(self.source)
        self.constants = {t.id: n.value.value for n in self.tree.body if isinstance(n, ast.Assign)
                          for t in n.targets if isinstance(t, ast.Name)
                          and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)}
        self.left: list[str] = []

    def where(self, node: ast.AST) -> str:
        return f"{self.path}:{node.lineno}"

    def call(self, node: ast.Call) -> str | None:
        """The catalog call that replaces `node`, None to leave it."""
        cls = node.func.id if isinstance(node.func, ast.Name) else None
        group = GROUPS.get(cls or "")
        if group is None:
            return None
        seg = lambda n: ast.get_source_segment(self.source, n)  # noqa: E731
        keywords = {kw.arg: kw.value for kw in node.keywords}
        if any(isinstance(a, ast.Starred) for a in node.args) or None in keywords:
            self.left.append(f"{self.where(node)} {cls}: *args or **kwargs")
            return None
        args = list(node.args)
        if len(group.kinds) == 1 and "kind" not in _params(group.error):
            kind = group.kinds[0]
        else:
            first = args.pop(0) if args else keywords.pop("kind", None)
            name = first.value if isinstance(first, ast.Constant) else \
                self.constants.get(first.id) if isinstance(first, ast.Name) else None
            if not isinstance(name, str):
                self.left.append(f"{self.where(node)} {cls}: the kind is not a literal ({seg(first)})")
                return None
            kind = vars(group).get(name)
            if not isinstance(kind, E.Kind):
                self.left.append(f"{self.where(node)} {cls}({name!r}): not declared in the catalog")
                return None
        phase = keywords.pop("phase", None)
        if phase is not None and not (isinstance(phase, ast.Constant) and phase.value == kind.phase):
            self.left.append(f"{self.where(node)} {cls}({kind.name!r}): phase {seg(phase)}, "
                             f"declared {kind.phase}")
            return None
        out: list[str] = []
        if group.error is errors.ParameterMissingError:
            out.append(f"names={seg(args.pop(0))}")
        elif group.error is errors.StatementTimeout:
            out.append(f"seconds={seg(args.pop(0))}")
        else:
            detail = args.pop(0) if args else keywords.pop("detail", None)
            if detail is None:
                self.left.append(f"{self.where(node)} {cls}({kind.name!r}): no detail")
                return None
            fields = _fields(detail, kind.message, self.source) if isinstance(kind.message, str) else None
            if fields is not None:
                out.extend(fields)
            else:
                text = seg(detail)
                if "\n" in text and detail.lineno != node.lineno:
                    # the detail had lines of its own: keep it hanging below the call
                    line = self.source.splitlines()[node.lineno - 1]
                    hang = len(line) - len(line.lstrip(" ")) + 4
                    text = "\n" + " " * hang + _reindent(text, hang - detail.col_offset)
                else:
                    shift = len(f"E.{group.__name__}.{kind.name}(") - (detail.col_offset - node.col_offset)
                    text = _reindent(text, shift)
                out.append(text)
        if args:
            self.left.append(f"{self.where(node)} {cls}({kind.name!r}): extra positional arguments")
            return None
        out.extend(f"{k}={seg(v)}" for k, v in keywords.items())
        return f"E.{group.__name__}.{kind.name}(" + ", ".join(out) + ")"

    def rewrite(self) -> str:
        edits = []
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Call):
                new = self.call(node)
                if new is not None:
                    edits.append((node, new))
        if not edits:
            return self.source
        lines = self.source.splitlines(keepends=True)
        offsets = [0]
        for line in lines:
            offsets.append(offsets[-1] + len(line.encode("utf-8")))
        data = self.source.encode("utf-8")
        # innermost last: apply from the end so earlier offsets stay valid
        spans = sorted(((offsets[n.lineno - 1] + n.col_offset, offsets[n.end_lineno - 1] + n.end_col_offset, new)
                        for n, new in edits), reverse=True)
        kept = []
        for start, end, new in spans:
            if any(s <= start and end <= e for s, e, _ in kept):
                continue  # inside a call rewritten already (never happens for error calls)
            line_start = data.rfind(b"\n", 0, start) + 1
            lead = data[line_start:start].decode("utf-8")
            tail = data[end:data.find(b"\n", end) if b"\n" in data[end:] else len(data)].decode("utf-8")
            if "\n" not in new and len(lead) + len(new) + len(tail) > WIDTH:
                indent = len(lead) - len(lead.lstrip(" "))
                head, _, rest = new.partition("(")
                new = head + "(\n" + " " * (indent + 4) + rest
            data = data[:start] + new.encode("utf-8") + data[end:]
            kept.append((start, end, new))
        return _imports(data.decode("utf-8"), self.path)


def _params(cls: type) -> set[str]:
    import inspect
    return set(inspect.signature(cls.__init__).parameters)


def _reindent(text: str, shift: int) -> str:
    if "\n" not in text or shift == 0:
        return text
    first, *rest = text.split("\n")
    moved = [(" " * shift + line) if shift > 0 else line[min(-shift, len(line) - len(line.lstrip(" "))):]
             for line in rest]
    return "\n".join([first, *moved])


def _imports(source: str, path: Path) -> str:
    """Import `E` beside the module's error classes; drop class names nothing uses any more."""
    tree = ast.parse(source)
    target = next((n for n in tree.body if isinstance(n, ast.ImportFrom)
                   and (n.module == "errors" and n.level > 0 or n.module == "relate.errors")), None)
    if target is None:
        return source
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | \
           {n.value.id for n in ast.walk(tree) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)}
    names = []
    for alias in target.names:
        keep = alias.asname or alias.name
        if alias.name not in GROUPS or keep in used:
            names.append(alias.name if alias.asname is None else f"{alias.name} as {alias.asname}")
    if "E" not in names:
        names.append("E")
    names = sorted(set(names), key=lambda n: (n != "E" and not n[0].isupper(), n))
    head = f"from {'.' * target.level}{target.module or ''} import "
    line = head + ", ".join(names)
    if len(line) > WIDTH:
        line, row = head + "(", ""
        pieces = []
        for n in names:
            if len(head) + 1 + len(row) + len(n) + 2 > WIDTH:
                pieces.append(row.rstrip())
                row = ""
            row += n + ", "
        pieces.append(row.rstrip(", ") + ")")
        line += ("\n" + " " * (len(head) + 1)).join(pieces)
    lines = source.splitlines(keepends=True)
    before = "".join(lines[:target.lineno - 1])
    after = "".join(lines[target.end_lineno:])
    return before + line + "\n" + after


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="+", type=Path)
    ap.add_argument("--write", action="store_true", help="change the files (default: print the diff)")
    args = ap.parse_args(argv)
    files = [f for p in args.paths for f in (sorted(p.rglob("*.py")) if p.is_dir() else [p])
             if "errors" not in f.resolve().relative_to(ROOT).parts[1:2]]  # not the tree and catalog
    left = []
    for path in files:
        rw = Rewriter(path)
        new = rw.rewrite()
        ast.parse(new)  # the rewrite must still be Python
        left.extend(rw.left)
        if new != rw.source:
            if args.write:
                path.write_text(new, encoding="utf-8")
            else:
                sys.stdout.writelines(difflib.unified_diff(rw.source.splitlines(keepends=True),
                                                           new.splitlines(keepends=True), str(path), str(path)))
    for line in left:
        print("left:", line, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
