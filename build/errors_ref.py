"""The error catalog -> the errors reference (one section per error class, a row per kind).

    relate/errors/tree.py     every subclass of RelateError: category, TCK type, exit code,
                              retryable, internal (what an MCP caller sees), its docstring
    relate/errors/catalog.py  every kind, declared in the group of its class: description, phase
                          -> [ErrorClass(..., kinds=(Kind(name, code, phase, description), ...))]

The page is generated from the catalog when the site is built, so it lists exactly the kinds
relate declares; tests/unit/test_error_catalog.py keeps the catalog equal to what the code
raises, and tests/e2e/test_errors_reference.py checks the page against errors the native binary
really prints.
"""
from __future__ import annotations

import html
import inspect
import sys
from dataclasses import dataclass
from pathlib import Path

from markdown import inline

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Kind:
    name: str
    code: str          # `code` of the CLI's error object: Relate.<TCK type>.<kind>
    phase: str         # compile or runtime
    description: str   # one line of inline Markdown


@dataclass(frozen=True)
class ErrorClass:
    name: str
    category: str
    tck_types: dict[str, str]  # phase ("" when it does not depend on one) -> TCK type
    exit_code: int
    retryable: bool
    internal: bool
    doc: str
    kinds: tuple[Kind, ...]


def _errors():
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from relate import errors

    return errors


def _tck_types(cls: type, kinds: list) -> dict[str, str]:
    """A class attribute, or a property that depends on the phase (a refusal found before the
    statement runs is filed differently from one found while it runs)."""
    if not isinstance(inspect.getattr_static(cls, "tck_type"), property):
        return {"": cls.tck_type}
    by_phase = {k.phase: k("detail").tck_type for k in kinds}
    return by_phase if len(set(by_phase.values())) > 1 else {"": next(iter(by_phase.values()))}


def error_tree() -> list[ErrorClass]:
    """The catalog's groups in the order of the tree; each kind with the code its error carries."""
    errors = _errors()
    out = []
    for group in errors.E.GROUPS:
        cls = group.error
        kinds = tuple(Kind(k.name, f"Relate.{k('detail').tck_type}.{k.name}", k.phase, k.description)
                      for k in group.kinds)
        out.append(ErrorClass(cls.__name__, cls.category, _tck_types(cls, list(group.kinds)), cls.exit_code,
                              cls.retryable, cls.internal, inspect.cleandoc(cls.__doc__ or ""), kinds))
    return out


EXIT_MEANING = {1: "other failure", 2: "usage", 5: "conflict or locked store", 6: "statement rejected",
                7: "timeout"}


def reference_html() -> str:
    """The generated part of the errors page: one section per class, its facts and its kinds."""
    parts = []
    e = html.escape
    for ec in error_tree():
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
        kinds = "".join(
            f'<tr id="{ec.name.lower()}-{e(k.name)}" data-kind="{e(k.name)}"><td><code>{e(k.name)}</code></td>'
            f"<td><code>{e(k.code)}</code></td><td>{e(k.phase)}</td><td>{inline(k.description)}</td></tr>"
            for k in ec.kinds)
        kind_table = ('<div class="table-scroll"><table class="doc-table"><thead><tr>'
                      '<th scope="col">kind</th><th scope="col"><code>code</code> in the error object</th>'
                      '<th scope="col">phase</th><th scope="col">what it means</th></tr></thead>'
                      f"<tbody>{kinds}</tbody></table></div>")
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
