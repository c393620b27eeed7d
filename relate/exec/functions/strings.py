"""String functions: case, trimming, substrings, split, replace and Unicode normal forms.

Positions and lengths are integers; a null string gives null, a null or negative position or
length is an error (`InvalidArgumentValue`, `NegativeIntegerArgument`).
"""
from __future__ import annotations

from ..value_size import value_size
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


def replace_within(budget, s, search, replacement):
    """replace() under a memory limit: the result's size is known from the number of matches
    (`replace(s, '', s)` alone would square the length)."""
    if s is None or search is None or replacement is None:
        return None
    s, search, replacement = (_string("replace", v) for v in (s, search, replacement))
    if len(replacement) > len(search) or not replacement.isascii():
        limit = budget.limit
        grows = value_size(replacement, limit) - value_size(search, limit)
        if grows > 0:
            budget.check(value_size(s, limit) + s.count(search) * grows)
    return s.replace(search, replacement)


def split_within(budget, s, sep):
    """split() under a memory limit: the pieces are counted before the list is built (each piece
    costs a member's 8 bytes besides its text)."""
    if s is None or sep is None:
        return None
    s = _string("split", s)
    seps = [_string("split", x) for x in sep if x is not None] if isinstance(sep, list) else [_string("split", sep)]
    limit = budget.limit
    if 8 * (len(s) + 1) + 4 * len(s) > limit:  # only a long text can split past the limit
        seps = [x for x in seps if x]
        text = value_size(s, limit)
        if not seps:
            budget.check(8 * max(len(s), 1) + text)
        elif len(seps) == 1:
            n = s.count(seps[0])
            budget.check(8 * (n + 1) + text - n * value_size(seps[0], limit))
        else:
            n = removed = i = 0
            while i < len(s):
                for x in seps:
                    if s.startswith(x, i):
                        n += 1
                        removed += value_size(x, limit)
                        i += len(x)
                        break
                else:
                    i += 1
            budget.check(8 * (n + 1) + text - removed)
    return split(s, sep)


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

STRINGS_WITHIN: dict = {"replace": replace_within, "split": split_within}
