"""Cypher equality, comparison and ordering of values.

- `equals(a, b)` -> True, False or None (null when the answer is unknown: a null inside).
  Values of different types are never equal (`1 = '1'` is false), numbers compare by value
  (`1 = 1.0`), NaN equals nothing.
- `compare(a, b)` -> -1, 0, 1, None or NaN, for `<` and friends.  None (null) when either side
  is null or the types cannot be ordered against each other (`1 < 'a'`, maps, nodes); NaN when a
  NaN takes part, so that every inequality with it is false rather than null.
- `order_key(v)` -> a key that sorts any two values in Cypher's global order (ORDER BY, min,
  max): maps, nodes, relationships, lists, paths, temporal values, strings, booleans, numbers
  (NaN after every other number), then null last.
- `hashable(v)` -> a stand-in with Cypher equivalence for grouping and DISTINCT.
"""
from __future__ import annotations

import math

from ..values import Node, Path, Relationship

_NAN = float("nan")


_TEMPORAL = None


def _temporal():
    # imported on first use (only values that are none of the basic kinds get this far), then
    # kept: an import statement per comparison showed up in the scan benchmarks
    global _TEMPORAL
    if _TEMPORAL is None:
        from .. import temporal
        _TEMPORAL = temporal
    return _TEMPORAL


# Same-typed scalars compare with Python's == directly (NaN == NaN is already false).
_PLAIN = frozenset((str, int, float, bool))


def _is_num(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def equals(a: object, b: object) -> bool | None:
    ta = type(a)
    if ta is type(b) and ta in _PLAIN:
        return a == b
    if a is None or b is None:
        return None
    if _is_num(a) and _is_num(b):
        return a == b
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b if isinstance(a, bool) and isinstance(b, bool) else False
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return False
        unknown = False
        for x, y in zip(a, b):
            r = equals(x, y)
            if r is False:
                return False
            if r is None:
                unknown = True
        return None if unknown else True
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            return False
        unknown = False
        for k in a:
            r = equals(a[k], b[k])
            if r is False:
                return False
            if r is None:
                unknown = True
        return None if unknown else True
    if type(a) is not type(b):
        return False
    t = _temporal()
    if isinstance(a, t.VALUE_TYPES):
        return t.equals(a, b)
    return a == b


def compare(a: object, b: object):
    if a is None or b is None:
        return None
    if _is_num(a) and _is_num(b):
        if a != a or b != b:  # NaN on either side
            return _NAN
        return (a > b) - (a < b)
    if isinstance(a, str) and isinstance(b, str):
        return (a > b) - (a < b)
    if isinstance(a, bool) and isinstance(b, bool):
        return (a > b) - (a < b)
    if isinstance(a, list) and isinstance(b, list):
        for x, y in zip(a, b):
            r = compare(x, y)
            if r is None or r != 0:
                return r
        return (len(a) > len(b)) - (len(a) < len(b))
    if isinstance(a, (dict, Node, Relationship, Path, str, bool, int, float, list)) or \
            isinstance(b, (dict, Node, Relationship, Path, str, bool, int, float, list)):
        return None
    t = _temporal()
    if isinstance(a, t.VALUE_TYPES) and isinstance(b, t.VALUE_TYPES):
        return t.compare(a, b)
    return None


# Type ranks of the global sort order, ascending.
_RANK_MAP, _RANK_NODE, _RANK_REL, _RANK_LIST, _RANK_PATH, _RANK_TEMPORAL = 0, 1, 2, 3, 4, 5
_RANK_STR, _RANK_BOOL, _RANK_NUM, _RANK_NULL = 6, 7, 8, 9


def order_key(v: object) -> tuple:
    if v is None:
        return (_RANK_NULL,)
    if isinstance(v, bool):
        return (_RANK_BOOL, v)
    if isinstance(v, (int, float)):
        if v != v:
            return (_RANK_NUM, 1, 0.0)  # NaN sorts after every number
        return (_RANK_NUM, 0, v)
    if isinstance(v, str):
        return (_RANK_STR, v)
    if isinstance(v, list):
        return (_RANK_LIST, tuple(order_key(x) for x in v))
    if isinstance(v, dict):
        return (_RANK_MAP, tuple((k, order_key(v[k])) for k in sorted(v)))
    if isinstance(v, Node):
        return (_RANK_NODE, v.id)
    if isinstance(v, Relationship):
        return (_RANK_REL, v.id)
    if isinstance(v, Path):
        return (_RANK_PATH, tuple(n.id for n in v.nodes), tuple(r.id for r in v.rels))
    t = _temporal()
    if isinstance(v, t.VALUE_TYPES):
        return (_RANK_TEMPORAL, t.order_key(v))
    return (_RANK_NULL + 1, repr(v))


def hashable(v: object) -> object:
    """A hashable stand-in with Cypher equivalence for grouping and DISTINCT (1 and 1.0 group
    together, so do two NaNs; null groups with null)."""
    if isinstance(v, list):
        return ("l",) + tuple(hashable(x) for x in v)
    if isinstance(v, dict):
        return ("m",) + tuple(sorted((k, hashable(x)) for k, x in v.items()))
    if isinstance(v, bool):
        return ("b", v)
    if isinstance(v, float) and math.isnan(v):
        return ("nan",)
    return v
