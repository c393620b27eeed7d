"""Scalar functions: lower-cased name -> (python function, min args, max args).

Each function takes already-evaluated Cypher values and returns one.  Null in gives null out
unless the function says otherwise (`coalesce`).  Aggregates live in `aggregates.py`.
"""
from __future__ import annotations

import math

from ..errors import CypherArgumentError, CypherTypeError
from ..values import Node, Path, Relationship, type_name
from .arith import check_int


def _type_err(fn: str, v: object) -> CypherTypeError:
    return CypherTypeError("InvalidArgumentType",
                           f"{fn}() cannot take a {type_name(v).lower()} argument", phase="runtime")


def _null_in(f):
    def g(*args):
        if args and args[0] is None:
            return None
        return f(*args)
    g.__name__ = f.__name__
    return g


def _to_string(v):
    if v is None:
        return None
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "NaN"
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        r = repr(v)
        return r
    if isinstance(v, str):
        return v
    raise _type_err("toString", v)


def _to_integer(v):
    if v is None:
        return None
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            return None
        return check_int(int(v))
    if isinstance(v, str):
        try:
            return check_int(int(v.strip()))
        except ValueError:
            try:
                f = float(v)
            except ValueError:
                return None
            return None if math.isnan(f) or math.isinf(f) else check_int(int(f))
    raise _type_err("toInteger", v)


def _to_float(v):
    if v is None:
        return None
    if isinstance(v, bool):
        raise _type_err("toFloat", v)
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        try:
            return float(v.strip())
        except ValueError:
            return None
    raise _type_err("toFloat", v)


def _to_boolean(v):
    if v is None:
        return None
    if isinstance(v, bool):
        return v
    if isinstance(v, str):
        s = v.strip().lower()
        return True if s == "true" else False if s == "false" else None
    if isinstance(v, int):
        return v != 0
    raise _type_err("toBoolean", v)


@_null_in
def _size(v):
    if isinstance(v, (str, list, dict)):
        return len(v)
    if isinstance(v, Path):
        return len(v.rels)
    raise _type_err("size", v)


@_null_in
def _length(v):
    if isinstance(v, Path):
        return len(v.rels)
    if isinstance(v, (str, list)):
        return len(v)
    raise _type_err("length", v)


@_null_in
def _labels(v):
    if isinstance(v, Node):
        return sorted(v.labels)
    raise _type_err("labels", v)


@_null_in
def _type(v):
    if isinstance(v, Relationship):
        return v.type
    raise _type_err("type", v)


@_null_in
def _id(v):
    if isinstance(v, (Node, Relationship)):
        return v.id
    raise _type_err("id", v)


@_null_in
def _keys(v):
    if isinstance(v, (Node, Relationship)):
        return list(v.props)
    if isinstance(v, dict):
        return list(v)
    raise _type_err("keys", v)


@_null_in
def _properties(v):
    if isinstance(v, (Node, Relationship)):
        return dict(v.props)
    if isinstance(v, dict):
        return dict(v)
    raise _type_err("properties", v)


def _coalesce(*args):
    for a in args:
        if a is not None:
            return a
    return None


@_null_in
def _head(v):
    if isinstance(v, list):
        return v[0] if v else None
    raise _type_err("head", v)


@_null_in
def _last(v):
    if isinstance(v, list):
        return v[-1] if v else None
    raise _type_err("last", v)


@_null_in
def _tail(v):
    if isinstance(v, list):
        return v[1:]
    raise _type_err("tail", v)


@_null_in
def _reverse(v):
    if isinstance(v, (str, list)):
        return v[::-1]
    raise _type_err("reverse", v)


def _range(start, end, step=1):
    for v in (start, end, step):
        if not isinstance(v, int) or isinstance(v, bool):
            raise _type_err("range", v)
    if step == 0:
        raise CypherArgumentError("NumberOutOfRange", "range() step must not be 0")
    stop = end + (1 if step > 0 else -1)
    return list(range(start, stop, step))


def _str_fn(name, f):
    @_null_in
    def g(v, *rest):
        if not isinstance(v, str):
            raise _type_err(name, v)
        return f(v, *rest)
    return g


def _substring(s, start, length=None):
    if s is None:
        return None
    if not isinstance(s, str):
        raise _type_err("substring", s)
    if start is None or length is None and False:
        return None
    if start < 0 or (length is not None and length < 0):
        raise CypherArgumentError("NumberOutOfRange", "substring() takes non-negative start and length")
    return s[start:] if length is None else s[start:start + length]


def _left(s, n):
    if s is None:
        return None
    if n is None or n < 0:
        raise CypherArgumentError("NumberOutOfRange", "left() takes a non-negative length")
    return s[:n]


def _right(s, n):
    if s is None:
        return None
    if n is None or n < 0:
        raise CypherArgumentError("NumberOutOfRange", "right() takes a non-negative length")
    return s[len(s) - n:] if n else ""


def _split(s, sep):
    if s is None or sep is None:
        return None
    return s.split(sep) if sep else list(s)


def _replace(s, a, b):
    if s is None or a is None or b is None:
        return None
    return s.replace(a, b)


def _num_fn(name, f):
    @_null_in
    def g(v):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise _type_err(name, v)
        return f(v)
    return g


def _abs(v):
    return check_int(abs(v)) if isinstance(v, int) else abs(v)


def _sign(v):
    return (v > 0) - (v < 0)


def _round(v, precision=None, mode=None):
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise _type_err("round", v)
    if precision is None:
        return float(math.floor(v + 0.5)) if math.isfinite(v) else float(v)
    factor = 10 ** precision
    return math.floor(v * factor + 0.5) / factor


def _nodes(p):
    if p is None:
        return None
    if isinstance(p, Path):
        return list(p.nodes)
    raise _type_err("nodes", p)


def _relationships(p):
    if p is None:
        return None
    if isinstance(p, Path):
        return list(p.rels)
    raise _type_err("relationships", p)


def _start_node(r):
    return None if r is None else r.start


def _end_node(r):
    return None if r is None else r.end


def _sqrt(v):
    return math.sqrt(v) if v >= 0 else float("nan")


def _log(v):
    return math.log(v) if v > 0 else (float("-inf") if v == 0 else float("nan"))


def _log10(v):
    return math.log10(v) if v > 0 else (float("-inf") if v == 0 else float("nan"))


FUNCTIONS: dict[str, tuple] = {
    "tostring": (_to_string, 1, 1),
    "tointeger": (_to_integer, 1, 1),
    "tofloat": (_to_float, 1, 1),
    "toboolean": (_to_boolean, 1, 1),
    "size": (_size, 1, 1),
    "length": (_length, 1, 1),
    "labels": (_labels, 1, 1),
    "type": (_type, 1, 1),
    "id": (_id, 1, 1),
    "elementid": (lambda v: None if v is None else str(v.id), 1, 1),
    "keys": (_keys, 1, 1),
    "properties": (_properties, 1, 1),
    "coalesce": (_coalesce, 1, 10 ** 6),
    "head": (_head, 1, 1),
    "last": (_last, 1, 1),
    "tail": (_tail, 1, 1),
    "reverse": (_reverse, 1, 1),
    "range": (_range, 2, 3),
    "toupper": (_str_fn("toUpper", str.upper), 1, 1),
    "tolower": (_str_fn("toLower", str.lower), 1, 1),
    "trim": (_str_fn("trim", str.strip), 1, 1),
    "ltrim": (_str_fn("lTrim", str.lstrip), 1, 1),
    "rtrim": (_str_fn("rTrim", str.rstrip), 1, 1),
    "substring": (_substring, 2, 3),
    "left": (_left, 2, 2),
    "right": (_right, 2, 2),
    "split": (_split, 2, 2),
    "replace": (_replace, 3, 3),
    "abs": (_num_fn("abs", _abs), 1, 1),
    "sign": (_num_fn("sign", _sign), 1, 1),
    "ceil": (_num_fn("ceil", lambda v: float(math.ceil(v))), 1, 1),
    "floor": (_num_fn("floor", lambda v: float(math.floor(v))), 1, 1),
    "round": (_round, 1, 3),
    "sqrt": (_num_fn("sqrt", _sqrt), 1, 1),
    "exp": (_num_fn("exp", math.exp), 1, 1),
    "log": (_num_fn("log", _log), 1, 1),
    "log10": (_num_fn("log10", _log10), 1, 1),
    "sin": (_num_fn("sin", math.sin), 1, 1),
    "cos": (_num_fn("cos", math.cos), 1, 1),
    "tan": (_num_fn("tan", math.tan), 1, 1),
    "pi": (lambda: math.pi, 0, 0),
    "e": (lambda: math.e, 0, 0),
    "rand": (lambda: __import__("random").random(), 0, 0),
    "nodes": (_nodes, 1, 1),
    "relationships": (_relationships, 1, 1),
    "startnode": (_start_node, 1, 1),
    "endnode": (_end_node, 1, 1),
}
