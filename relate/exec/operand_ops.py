"""The run-time meaning of the expression operators the compiler's closures call: truth of a
condition, property access, subscripts, IN, comparison and string predicates, regular
expressions and `||`.  Values in, value out; null in gives null out where Cypher says so.
"""
from __future__ import annotations

import functools
import re

from ..errors import E
from ..syntax import ast as A
from ..values import Node, Path, Relationship, type_name
from ..values.compare import compare, equals


def truth(v: object, what: str) -> bool | None:
    if v is None or v is True or v is False:
        return v
    raise E.Type.InvalidArgumentType(f"{what} expects a boolean, got {type_name(v)}")


def prop(subject, key):
    if subject is None:
        return None
    if isinstance(subject, (Node, Relationship)):
        if subject.deleted:
            deleted(subject, key)
        return subject.props.get(key)
    if isinstance(subject, dict):
        return subject.get(key)
    if not isinstance(subject, (bool, int, float, str, list, Path)):
        from .. import temporal  # `d.year`, `p.x`: components of temporal and spatial values
        if temporal.is_value(subject):
            return temporal.component(subject, key)
    raise E.Type.InvalidArgumentType(f"cannot read property `{key}` of {type_name(subject)}")


def deleted(entity, key: str | None):
    kind = "node" if isinstance(entity, Node) else "relationship"
    what = f"property `{key}`" if key is not None else "the properties"
    raise E.Deleted.DeletedEntityAccess(f"cannot read {what} of a {kind} deleted earlier in this statement")


def subscript(subject, index):
    if subject is None or index is None:
        return None
    if isinstance(subject, list):
        if not isinstance(index, int) or isinstance(index, bool):
            raise E.Type.ListElementAccessByNonInteger(type=type_name(index))
        try:
            return subject[index]
        except IndexError:
            return None
    if isinstance(subject, (dict, Node, Relationship)):
        if not isinstance(index, str):
            raise E.Type.MapElementAccessByNonString(type=type_name(index))
        return prop(subject, index)
    raise E.Type.InvalidArgumentType(f"cannot subscript {type_name(subject)}")


def in_list(item, lst):
    if lst is None:
        return None
    if not isinstance(lst, list):
        raise E.Type.InvalidArgumentType(f"IN expects a list, got {type_name(lst)}")
    unknown = False
    for x in lst:
        r = equals(item, x)
        if r is True:
            return True
        if r is None:
            unknown = True
    return None if unknown else False


def cmp_fn(op: A.BinOp):
    if op is A.BinOp.EQ:
        return equals
    if op is A.BinOp.NE:
        return lambda a, b: (lambda r: None if r is None else not r)(equals(a, b))
    test = {A.BinOp.LT: lambda c: c < 0, A.BinOp.GT: lambda c: c > 0,
            A.BinOp.LE: lambda c: c <= 0, A.BinOp.GE: lambda c: c >= 0}[op]

    def f(a, b):
        c = compare(a, b)
        return None if c is None else test(c)
    return f


def string_pred(op: A.BinOp):
    def f(a, b):
        if not isinstance(a, str) or not isinstance(b, str):
            return None
        if op is A.BinOp.STARTS_WITH:
            return a.startswith(b)
        if op is A.BinOp.ENDS_WITH:
            return a.endswith(b)
        return b in a
    return f


@functools.lru_cache(maxsize=256)
def _pattern(text: str) -> re.Pattern:
    try:
        return re.compile(text, re.DOTALL if text.startswith("(?s)") else 0)
    except re.error as e:
        raise E.Argument.InvalidArgumentValue(f"invalid regular expression {text!r}: {e}") from None


def regex(a, b):
    if not isinstance(a, str) or not isinstance(b, str):
        return None
    return _pattern(b).fullmatch(a) is not None


def concat(a, b):
    """`a || b`: two strings or two lists joined; null when either is null."""
    if a is None or b is None:
        return None
    if type(a) is str and type(b) is str:
        return a + b
    if type(a) is list and type(b) is list:
        return a + b
    raise E.Type.InvalidArgumentType(
        f"|| joins two strings or two lists, not {type_name(a)} and {type_name(b)}")
