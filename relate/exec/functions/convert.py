"""Type conversion functions: toString, toInteger, toFloat, toBoolean, their `...OrNull` forms
(null where the plain form would fail) and their `...List` forms (element-wise, OrNull style).

Number text follows Java, which the TCK's expectations come from: `toString(1.0E10)` is
`'1.0E10'` (the text itself is `values.text.string_form`, which `+` of a string and a number
uses too), `toFloat(' 1.5 ')` is 1.5, `toFloat('inf')` is null but `toFloat('Infinity')` is not.
"""
from __future__ import annotations

import math
import re

from ...errors import RelateError
from ...values.ints import check_int
from ...values.text import string_form
from .common import type_err

_JAVA_DOUBLE = re.compile(r"[+-]?(?:NaN|Infinity|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)[fFdD]?")
_JAVA_LONG = re.compile(r"[+-]?\d+")


def parse_float(text: str) -> float | None:
    """Java's `Double.parseDouble` (surrounding whitespace allowed), or None when it would fail."""
    s = text.strip(" \t\n\r\x0b\x0c\x00")
    if not _JAVA_DOUBLE.fullmatch(s):
        return None
    if s[-1] in "fFdD":
        s = s[:-1]
    return float(s)


def to_string(v):
    if v is None:
        return None
    text = string_form(v)
    if text is None:
        raise type_err("toString", v)
    return text


def to_integer(v):
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
        if _JAVA_LONG.fullmatch(v):
            return check_int(int(v))
        f = parse_float(v)
        if f is None or math.isnan(f) or math.isinf(f):
            return None
        return check_int(int(f))
    raise type_err("toInteger", v)


def to_float(v):
    if v is None:
        return None
    if isinstance(v, bool):
        raise type_err("toFloat", v)
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        return parse_float(v)
    raise type_err("toFloat", v)


def to_boolean(v):
    if v is None or v is True or v is False:
        return v
    if isinstance(v, str):
        s = v.strip().lower()
        return True if s == "true" else False if s == "false" else None
    if isinstance(v, int):
        return v != 0
    raise type_err("toBoolean", v)


def _or_null(f):
    def g(v):
        try:
            return f(v)
        except RelateError:
            return None
    return g


def _list_of(name: str, f):
    convert = _or_null(f)

    def g(v):
        if v is None:
            return None
        if not isinstance(v, list):
            raise type_err(name, v)
        return [convert(x) for x in v]
    return g


CONVERT: dict[str, tuple] = {
    "tostring": (to_string, 1, 1),
    "tointeger": (to_integer, 1, 1),
    "tofloat": (to_float, 1, 1),
    "toboolean": (to_boolean, 1, 1),
    "tostringornull": (_or_null(to_string), 1, 1),
    "tointegerornull": (_or_null(to_integer), 1, 1),
    "tofloatornull": (_or_null(to_float), 1, 1),
    "tobooleanornull": (_or_null(to_boolean), 1, 1),
    "tostringlist": (_list_of("toStringList", to_string), 1, 1),
    "tointegerlist": (_list_of("toIntegerList", to_integer), 1, 1),
    "tofloatlist": (_list_of("toFloatList", to_float), 1, 1),
    "tobooleanlist": (_list_of("toBooleanList", to_boolean), 1, 1),
}
