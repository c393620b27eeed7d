"""String functions: case, trimming, substrings, split, replace and Unicode normal forms.

Positions and lengths are integers; a null string gives null, a null or negative position or
length is an error (`InvalidArgumentValue`, `NegativeIntegerArgument`).
"""
from __future__ import annotations

from .common import non_negative, type_err


def _string(fn: str, v) -> str:
    if not isinstance(v, str):
        raise type_err(fn, v)
    return v


def _unary(name: str, op):
    def f(v):
        return None if v is None else op(_string(name, v))
    return f


def substring(s, start, length=None):
    if s is None:
        return None
    s = _string("substring", s)
    a = non_negative("substring", "start", start)
    if length is None:
        return s[a:]
    return s[a:a + non_negative("substring", "length", length)]


def left(s, n):
    if s is None:
        return None
    return _string("left", s)[:non_negative("left", "length", n)]


def right(s, n):
    if s is None:
        return None
    s = _string("right", s)
    n = non_negative("right", "length", n)
    return s[len(s) - n:] if n else ""


def split(s, sep):
    if s is None or sep is None:
        return None
    s = _string("split", s)
    if isinstance(sep, list):
        seps = [_string("split", x) for x in sep if x is not None]
    else:
        seps = [_string("split", sep)]
    seps = [x for x in seps if x]
    if not seps:
        return list(s) if s else [""]
    out, start, i = [], 0, 0
    while i < len(s):
        for x in seps:
            if s.startswith(x, i):
                out.append(s[start:i])
                i += len(x)
                start = i
                break
        else:
            i += 1
    out.append(s[start:])
    return out


def replace(s, search, replacement):
    if s is None or search is None or replacement is None:
        return None
    return _string("replace", s).replace(_string("replace", search), _string("replace", replacement))


def _trim_fn(name: str, side: str):
    def f(s, chars=None):
        if s is None:
            return None
        s = _string(name, s)
        if chars is not None:
            chars = _string(name, chars)
        elif side:
            chars = None
        if side == "l":
            return s.lstrip(chars)
        if side == "r":
            return s.rstrip(chars)
        return s.strip(chars)
    return f


_FORMS = ("NFC", "NFD", "NFKC", "NFKD")


def normalize(s, form="NFC"):
    """`s` in a Unicode normal form (NFC unless named; the parser turns the form keyword into
    its name)."""
    if s is None:
        return None
    import unicodedata
    return unicodedata.normalize(form, _string("normalize", s))


def is_normalized(s, form: str = "NFC"):
    if s is None:
        return None
    import unicodedata
    return unicodedata.is_normalized(form, _string("IS NORMALIZED", s))


def _length(v):
    return None if v is None else len(_string("char_length", v))


STRINGS: dict[str, tuple] = {
    "toupper": (_unary("toUpper", str.upper), 1, 1),
    "tolower": (_unary("toLower", str.lower), 1, 1),
    "upper": (_unary("upper", str.upper), 1, 1),
    "lower": (_unary("lower", str.lower), 1, 1),
    "trim": (_trim_fn("trim", ""), 1, 1),
    "btrim": (_trim_fn("btrim", ""), 1, 2),
    "ltrim": (_trim_fn("lTrim", "l"), 1, 2),
    "rtrim": (_trim_fn("rTrim", "r"), 1, 2),
    "substring": (substring, 2, 3),
    "left": (left, 2, 2),
    "right": (right, 2, 2),
    "split": (split, 2, 2),
    "replace": (replace, 3, 3),
    "char_length": (_length, 1, 1),
    "character_length": (_length, 1, 1),
    "normalize": (normalize, 1, 2),
}
