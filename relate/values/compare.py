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

These run per row in scans, joins, sorts and grouping: each starts with the exact-type tests
of the common kinds before the general chain (which also serves subclasses and the temporal
kinds).
"""
from __future__ import annotations

import math

from .entities import Node, Path, Relationship
from .kinds import is_num
from .kinds import temporal as _temporal

_NAN = float("nan")

# Same-typed values of these classes compare with Python's == directly (NaN == NaN is already
# false; entities compare by id).
_PLAIN = frozenset((str, int, float, bool, Node, Relationship, Path))
_NUMBER = frozenset((int, float))


def equals(a: object, b: object) -> bool | None:
    ta = type(a)
    if ta is type(b) and ta in _PLAIN:
        return a == b
    if a is None or b is None:
        return None
    if ta is int or ta is float:  # a number is equal only to a number
        return a == b if is_num(b) else False
    if ta is str or ta is bool:  # and b is of another type
        return False
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
    if is_num(a) and is_num(b):  # subclasses of int or float
        return a == b
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b if isinstance(a, bool) and isinstance(b, bool) else False
    if type(a) is not type(b):
        return False
    t = _temporal()
    if isinstance(a, t.VALUE_TYPES):
        return t.equals(a, b)
    return a == b


_ORDERABLE = (dict, Node, Relationship, Path, str, bool, int, float, list)


def compare(a: object, b: object) -> int | float | None:
    if a is None or b is None:
        return None
    ta = type(a)
    if ta is type(b):
        if ta is int or ta is str:
            return (a > b) - (a < b)  # type: ignore[operator,no-any-return]
        if ta is float:
            if a != a or b != b:  # NaN on either side
                return _NAN
            return (a > b) - (a < b)  # type: ignore[operator,no-any-return]
    if ta in _NUMBER and type(b) in _NUMBER or is_num(a) and is_num(b):
        if a != a or b != b:  # NaN on either side
            return _NAN
        return (a > b) - (a < b)  # type: ignore[operator,no-any-return]
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
    if isinstance(a, _ORDERABLE) or isinstance(b, _ORDERABLE):
        return None
    t = _temporal()
    if isinstance(a, t.VALUE_TYPES) and isinstance(b, t.VALUE_TYPES):
        return t.compare(a, b)
    return None


# Type ranks of the global sort order, ascending.
_RANK_MAP, _RANK_NODE, _RANK_REL, _RANK_LIST, _RANK_PATH, _RANK_TEMPORAL = 0, 1, 2, 3, 4, 5
_RANK_STR, _RANK_BOOL, _RANK_NUM, _RANK_NULL = 6, 7, 8, 9
_NULL_KEY = (_RANK_NULL,)
_NAN_ORDER_KEY = (_RANK_NUM, 1, 0.0)  # NaN sorts after every number


def order_key(v: object) -> tuple[object, ...]:
    if v is None:
        return _NULL_KEY
    t = type(v)
    if t is str:
        return (_RANK_STR, v)
    if t is int:
        return (_RANK_NUM, 0, v)
    if t is bool:
        return (_RANK_BOOL, v)
    if t is float:
        return (_RANK_NUM, 0, v) if v == v else _NAN_ORDER_KEY
    if isinstance(v, bool):
        return (_RANK_BOOL, v)
    if isinstance(v, (int, float)):
        if v != v:
            return _NAN_ORDER_KEY
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
    tm = _temporal()
    if isinstance(v, tm.VALUE_TYPES):
        return (_RANK_TEMPORAL, tm.order_key(v))
    return (_RANK_NULL + 1, repr(v))


def hashable(v: object) -> object:
    """A hashable stand-in with Cypher equivalence for grouping and DISTINCT (1 and 1.0 group
    together, so do two NaNs; null groups with null)."""
    t = type(v)
    if t in _SELF_GROUPED:
        return v
    if t is float:
        return _NAN_GROUP if v != v else v
    if t is bool:
        return ("b", v)
    if isinstance(v, list):
        return ("l",) + tuple(hashable(x) for x in v)
    if isinstance(v, dict):
        return ("m",) + tuple(sorted((k, hashable(x)) for k, x in v.items()))
    if isinstance(v, bool):
        return ("b", v)
    if isinstance(v, float) and math.isnan(v):
        return _NAN_GROUP
    return v


_NAN_GROUP = ("nan",)
# Kinds whose Python equality and hash already are Cypher's grouping equivalence.
_SELF_GROUPED = frozenset((str, int, type(None), Node, Relationship, Path))
