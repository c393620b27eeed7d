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

import sys
from itertools import chain
from operator import attrgetter
from typing import Any

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
    """Result rows -> the same rows with Python values; the list itself when no cell changes.
    Most results hold no temporal value at all: in a process that has made none the rows are not
    looked at, else `_clean` finds that out type by type, with the loops in C."""
    made = sys.modules.get("relate.temporal.values")
    if made is None or not made.Made.any or _clean(list(chain.from_iterable(rows))):
        return rows
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


_props = attrgetter("props")
_ends = attrgetter("start", "end")


def _clean(cells: list[Any]) -> bool:
    """Whether no value among `cells`, at any depth, is one `to_python` changes."""
    kinds = set(map(type, cells))
    if kinds <= _SAME:
        return True
    changed = _pyconv().CHANGED
    if kinds & changed:
        return False
    for kind in kinds - _SAME:
        of: list[Any] = cells if len(kinds) == 1 else [v for v in cells if type(v) is kind]
        if kind is Node:
            inner = list(chain.from_iterable(map(dict.values, map(_props, of))))
        elif kind is Relationship:
            inner = list(chain.from_iterable(map(dict.values, map(_props, of))))
            inner.extend(chain.from_iterable(map(_ends, of)))
        elif kind is Path:
            inner = list(chain.from_iterable(p.nodes + p.rels for p in of))
        elif issubclass(kind, dict):
            inner = list(chain.from_iterable(map(dict.values, of)))
        elif issubclass(kind, list):
            inner = list(chain.from_iterable(of))
        else:
            continue  # durations, points and anything else stay as they are
        if not _clean(inner):
            return False
    return True


def to_python(v: Any, memo: dict[int, object] | None = None) -> Any:
    """One Cypher value -> its Python value (`v` itself when nothing in it changes).  `memo`
    keeps one copy per node or relationship, so a path's relationships still join its nodes."""
    t = type(v)
    if t in _SAME:
        return v
    if memo is None:
        memo = {}
    if t is list:
        new = [to_python(x, memo) for x in v]
        return v if all(a is b for a, b in zip(new, v)) else new
    if t is dict:
        d = {k: to_python(x, memo) for k, x in v.items()}
        return v if all(d[k] is x for k, x in v.items()) else d
    if t is Node or t is Relationship:
        return _entity(v, memo)
    if t is Path:
        nodes = tuple(_entity(n, memo) for n in v.nodes)
        rels = tuple(_entity(r, memo) for r in v.rels)
        if all(a is b for a, b in zip(nodes + rels, v.nodes + v.rels)):
            return v
        return Path(nodes, rels)
    return _pyconv().to_python(v)


def _entity(e: Any, memo: dict[int, object]) -> Any:
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
            copy = Relationship(e.id, e.type, start, end, new_props)
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
