"""The Python API's door: Python parameter values -> Cypher values, result rows -> Python values.

In (`parameters`, every door: JSON parameters never hold these, so for them nothing changes):
`datetime` values become temporal values (`relate.temporal.pyconv`), `timedelta` a duration,
`bytearray` and `memoryview` a byte array (`bytes`), tuples lists; maps and lists are converted
member by member.

Out (`rows`, only for `Database.execute`): temporal values become `datetime` values, inside
lists, maps and the property maps of nodes and relationships too (a node whose properties change
is a copy of the store's record, never the record itself).  Durations, points and byte arrays are
already Python objects and stay as they are.  The CLI, MCP and the browser read the Cypher rows.
"""
from __future__ import annotations

from .entities import Node, Path, Relationship

# the kinds that are the same value on both sides
_SAME = frozenset((str, int, float, bool, type(None), bytes))


def _pyconv():
    from ..temporal import pyconv  # on first use: most statements never need it
    return pyconv


def param_from_python(v: object, what: str) -> object:
    """One parameter value -> its Cypher value (`what` names it in an error: `parameter $d`)."""
    t = type(v)
    if t in _SAME:
        return v
    if isinstance(v, dict):
        return {k: param_from_python(x, what) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [param_from_python(x, what) for x in v]
    if isinstance(v, (bytearray, memoryview)):
        return bytes(v)
    return _pyconv().from_python(v, what)


def params_from_python(params: dict) -> dict:
    return {k: param_from_python(v, f"parameter ${k}") for k, v in params.items()}


def rows_to_python(rows: list[tuple]) -> list[tuple]:
    """Result rows -> the same rows with Python values; the list itself when no cell changes."""
    out = rows
    same = _SAME
    for i, row in enumerate(rows):
        for v in row:
            if type(v) not in same:
                break
        else:
            continue
        memo: dict[int, object] = {}
        new = tuple(to_python(v, memo) for v in row)
        if any(a is not b for a, b in zip(new, row)):
            if out is rows:
                out = list(rows)
            out[i] = new
    return out


def to_python(v: object, memo: dict[int, object] | None = None) -> object:
    """One Cypher value -> its Python value (`v` itself when nothing in it changes).  `memo`
    keeps one copy per node or relationship, so a path's relationships still join its nodes."""
    t = type(v)
    if t in _SAME:
        return v
    if memo is None:
        memo = {}
    if t is list:
        new = [to_python(x, memo) for x in v]  # type: ignore[attr-defined]
        return v if all(a is b for a, b in zip(new, v)) else new  # type: ignore[call-overload]
    if t is dict:
        d = {k: to_python(x, memo) for k, x in v.items()}  # type: ignore[attr-defined]
        return v if all(d[k] is x for k, x in v.items()) else d  # type: ignore[attr-defined]
    if t is Node or t is Relationship:
        return _entity(v, memo)
    if t is Path:
        nodes = tuple(_entity(n, memo) for n in v.nodes)  # type: ignore[attr-defined]
        rels = tuple(_entity(r, memo) for r in v.rels)  # type: ignore[attr-defined]
        if all(a is b for a, b in zip(nodes + rels, v.nodes + v.rels)):  # type: ignore[attr-defined]
            return v
        return Path(nodes, rels)  # type: ignore[arg-type]
    return _pyconv().to_python(v)


def _entity(e, memo: dict[int, object]):
    key = id(e)
    if key in memo:
        return memo[key]
    memo[key] = e  # a relationship's copy may reach its own end nodes first
    props = e.props
    new_props = {k: to_python(x, memo) for k, x in props.items()}
    changed = any(new_props[k] is not x for k, x in props.items())
    if type(e) is Relationship:
        start, end = _entity(e.start, memo), _entity(e.end, memo)
        if changed or start is not e.start or end is not e.end:
            copy = Relationship(e.id, e.type, start, end, new_props)  # type: ignore[arg-type]
            copy.deleted = e.deleted
            memo[key] = copy
            return copy
        return e
    if changed:
        node = Node(e.id, e.labels, new_props)
        node.deleted = e.deleted
        memo[key] = node
        return node
    return e
