"""`--mode toon`: one result set -> a TOON row block followed by trailer sections.

Layout (two-space indentation, LF line ends, no trailing spaces):

    rows[3]{name}:          <- the rows as the TOON value of the field `rows`
      Ada
    timings:                <- each trailer section: `key:` and one indented line
      {"elapsed_ms":...}       (objects/lists as compact sorted JSON, scalars as TOON primitives)
    planCache:
      miss

Trailer sections, in this order, each only when it applies: `stats` (the statement changed
something), `notifications` (non-empty), `plan` (EXPLAIN), then always `timings` and `planCache`,
then `rowCap` and `truncated` (the row cap dropped rows).

The row block is a TOON encoding (spec v4.0 draft, comma delimiter) of the rows, each row an
object keyed by column in RETURN order with cells in `values.to_json` shape:

- every cell a primitive (null, boolean, number, string)  -> tabular `rows[N]{a,b}:` + one line
  per row; map cells that share one key set and hold only primitives (or such maps) join the
  table as nested field groups `rows[N]{a,m{x,y}}:`
- any other cell (node, relationship, path, list, mixed or empty map) -> expanded list
  `rows[N]:` with one `- ` item per row
- no rows -> `rows: []`

Primitive text: `null`, `true`/`false`; numbers in plain decimal (no exponent between 1e-6 and
1e21, `1.0` -> `1`, `-0.0` -> `0`, `2.0^60` -> its exact digits `1152921504606846976`), exponent
form `1e-7` / `1e+21` outside that range; strings bare unless TOON needs quotes (empty, edge
whitespace, literal-like, number-like, structural characters, control characters, the comma, or a
leading `-` / `#`), quoted with TOON escapes.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..result import Result
from ..values.text import TOON_DELIM as DELIM
from ..values.text import toon_key as key
from ..values.text import toon_number as number
from ..values.text import toon_primitive as primitive
from ..values.text import toon_string as string
from .jsonout import dumps, row_object

__all__ = ["encode_field", "is_primitive", "number", "render", "string"]

INDENT = "  "

# --- primitives (their text is `values.text`'s TOON section) -----------------------------------


def is_primitive(value: object) -> bool:
    return value is None or isinstance(value, (bool, int, float, str))


# --- tabular detection ------------------------------------------------------------------------

# A field spec is a list of (name, sub) pairs: sub is None for a primitive column, or a nested
# field spec for a column of uniform maps.
_NOT_TABULAR = object()


def _column(values: list) -> object:
    if all(is_primitive(v) for v in values):
        return None
    if all(isinstance(v, dict) and v for v in values):
        return _uniform(values)
    return _NOT_TABULAR


def _uniform(objs: list) -> object:
    """The field spec shared by non-empty maps `objs`, or `_NOT_TABULAR`."""
    names = list(objs[0])
    name_set = set(names)
    for obj in objs[1:]:
        if len(obj) != len(names) or set(obj) != name_set:
            return _NOT_TABULAR
    spec = []
    for name in names:
        sub = _column([obj[name] for obj in objs])
        if sub is _NOT_TABULAR:
            return _NOT_TABULAR
        spec.append((name, sub))
    return spec


def _array_spec(items: list) -> object:
    if items and all(isinstance(v, dict) and v for v in items):
        return _uniform(items)
    return _NOT_TABULAR


def _keyed_spec(obj: dict) -> object:
    if len(obj) >= 2 and all(isinstance(v, dict) and v for v in obj.values()):
        return _uniform(list(obj.values()))
    return _NOT_TABULAR


def _fields(spec: list) -> str:
    return DELIM.join(key(name) + ("" if sub is None else "{" + _fields(sub) + "}")
                      for name, sub in spec)


def _cells(obj: dict, spec: list, out: list) -> list:
    for name, sub in spec:
        if sub is None:
            out.append(primitive(obj[name]))
        else:
            _cells(obj[name], sub, out)
    return out


def _row(obj: dict, spec: list) -> str:
    return DELIM.join(_cells(obj, spec, []))


# --- encoder ----------------------------------------------------------------------------------
# Lines are built as (depth, text) pairs and indented at the end.


def _field(name: str, value: object, depth: int, out: list) -> None:
    k = key(name)
    if is_primitive(value):
        out.append((depth, f"{k}: {primitive(value)}"))
    elif isinstance(value, dict):
        spec = _keyed_spec(value)
        if spec is not _NOT_TABULAR:
            out.append((depth, f"{k}[{len(value)}:]{{{_fields(spec)}}}:"))
            for entry, obj in value.items():
                out.append((depth + 1, f"{key(entry)}: {_row(obj, spec)}"))
        else:
            out.append((depth, f"{k}:"))
            _object(value, depth + 1, out)
    elif isinstance(value, list):
        if not value:
            out.append((depth, f"{k}: []"))
        elif all(is_primitive(v) for v in value):
            out.append((depth, f"{k}[{len(value)}]: " + DELIM.join(primitive(v) for v in value)))
        else:
            spec = _array_spec(value)
            if spec is not _NOT_TABULAR:
                out.append((depth, f"{k}[{len(value)}]{{{_fields(spec)}}}:"))
                out.extend((depth + 1, _row(obj, spec)) for obj in value)
            else:
                out.append((depth, f"{k}[{len(value)}]:"))
                for item in value:
                    _item(item, depth + 1, out)
    else:
        raise TypeError(f"not a JSON value: {value!r}")


def _object(obj: dict, depth: int, out: list) -> None:
    for name, value in obj.items():
        _field(name, value, depth, out)


def _item(value: object, depth: int, out: list) -> None:
    """One `- ` list item at `depth`."""
    if is_primitive(value):
        out.append((depth, "- " + primitive(value)))
    elif isinstance(value, list):
        if all(is_primitive(v) for v in value):
            inline = DELIM.join(primitive(v) for v in value)
            out.append((depth, f"- [{len(value)}]:" + (" " + inline if value else "")))
        else:
            out.append((depth, f"- [{len(value)}]:"))
            for sub in value:
                _item(sub, depth + 1, out)
    elif isinstance(value, dict):
        if not value:
            out.append((depth, "-"))
            return
        # The object's fields sit one level below the hyphen; the first one is then pulled up
        # onto the hyphen line, which leaves anything it opens two levels below the hyphen.
        start = len(out)
        _object(value, depth + 1, out)
        out[start] = (depth, "- " + out[start][1])
    else:
        raise TypeError(f"not a JSON value: {value!r}")


def encode_field(name: str, value: object) -> list[str]:
    """The TOON lines of one root-level field `name: value` (value in JSON shape)."""
    out: list = []
    _field(name, value, 0, out)
    return [INDENT * depth + text for depth, text in out]


# --- the output mode --------------------------------------------------------------------------


def _section(name: str, value: object) -> list[str]:
    text = primitive(value) if is_primitive(value) else dumps(value)
    return [f"{name}:", INDENT + text]


def render(result: Result, rows: Sequence[tuple], total: int) -> str:
    cols = result.columns
    lines = encode_field("rows", [row_object(cols, row) for row in rows])
    if result.stats.contains_updates:
        lines += _section("stats", result.stats.as_dict())
    if result.all_notifications:
        lines += _section("notifications", [n.as_dict() for n in result.all_notifications])
    if result.explained or result.profiled:
        lines += _section("plan", result.plan_json())
    lines += _section("timings", result.timings.as_dict())
    lines += _section("planCache", result.plan_cache)
    if len(rows) < total:
        lines += _section("rowCap", {"kept": len(rows), "total": total})
        lines += _section("truncated", True)
    return "\n".join(lines) + "\n"
