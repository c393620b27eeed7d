"""One JSON writer for everything relate prints: a Python value -> one compact line of JSON.

The text is the one serde_json writes for a `Value` holding the same data, so the CLI's JSON
modes, the MCP replies and the browser build agree byte for byte:

- object keys sorted at every level (serde's map is a BTreeMap), no spaces after `,` or `:`;
- strings escaped as serde escapes them (`\\"`, `\\\\`, `\\b`, `\\f`, `\\n`, `\\r`, `\\t`, other
  control characters as lowercase `\\u00xx`), everything else, non-ASCII included, as itself;
  a lone surrogate (a Cypher string can hold one: `'\\ud800'`), which no UTF-8 stream can carry,
  as its `\\udxxx` escape, so every line this writer makes can be written anywhere;
- floats in ryu's shortest form (`1.0`, `0.00001`, `1e-7`, `1e20`), non-finite floats as `null`;
- tuples written as arrays; any other type is a `TypeError` rather than a guess.

`dumps` first asks the stdlib's C encoder for the text (sorted keys, no spaces, no NaN): its
output is serde's except for floats past the range where `repr` and ryu lay digits out alike
(`repr` then writes `1e+20`, `1e-05`), so a text with such a number in it, or a value the C
encoder refuses (NaN, a type it does not know, nesting past the stack), is written again by the
walk below, which is the definition.  The C pass is about ten times cheaper per reply.  One
leniency comes with it: a dict whose keys are all numbers (or bools, None) has them written as
strings, where the walk refuses them; relate builds no such dict (keys are names).
"""
from __future__ import annotations

import json
import math
import re

from .values.text import ryu_format

__all__ = ["dumps", "escape_lone_surrogates"]

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def escape_lone_surrogates(json_text: str) -> str:
    """JSON text with each lone surrogate written as its `\\udxxx` escape (the same JSON value)."""
    # isascii() is a flag read, so the common case pays nothing for the surrogate check
    if not json_text.isascii() and _LONE_SURROGATE.search(json_text):
        return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", json_text)
    return json_text


# the C string escaper json.dumps(text, ensure_ascii=False) ends in, without building an encoder per call
_escape = json.encoder.encode_basestring


def _refuse(value: object) -> object:
    raise TypeError(f"cannot encode {type(value).__name__} as JSON")


_C_ENCODER = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False,
                              check_circular=False, default=_refuse)
_EXPONENT = re.compile(r"[0-9]e[-+][0-9]")  # repr's exponent layout: ryu writes those floats otherwise


def _string(text: str) -> str:
    out = _escape(text)
    # the check inline: this runs for every string cell written
    if not out.isascii() and _LONE_SURROGATE.search(out):
        return escape_lone_surrogates(out)
    return out


def dumps(value: object) -> str:
    """`value` as one line of serde-style JSON."""
    try:
        text = _C_ENCODER.encode(value)
    except (TypeError, ValueError, RecursionError):
        pass  # the walk below words the refusal, writes non-finite floats as null, or goes deep
    else:
        if _EXPONENT.search(text) is None:
            return escape_lone_surrogates(text)
    return _walk(value)


def _walk(value: object) -> str:
    out: list[str] = []
    try:
        _encode(value, out)
    except RecursionError:
        # nested deeper than the stack allows (the plan of a statement of hundreds of clauses):
        # the same text, written without recursion; the common case keeps the fast path
        out = []
        _encode_deep(value, out)
    return "".join(out)


class _Raw:
    """Text `_encode_deep` writes as it is (punctuation and keys), among the values it writes."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def _encode_deep(value: object, out: list[str]) -> None:
    stack: list[object] = [value]
    while stack:
        item = stack.pop()
        if type(item) is _Raw:
            out.append(item.text)
        elif isinstance(item, dict):
            parts: list[object] = [_Raw("{")]
            for position, key in enumerate(sorted(item)):
                if not isinstance(key, str):
                    raise TypeError(f"JSON object keys must be str, not {type(key).__name__}")
                parts.append(_Raw(("," if position else "") + _string(key) + ":"))
                parts.append(item[key])
            parts.append(_Raw("}"))
            stack.extend(reversed(parts))
        elif isinstance(item, (list, tuple)):
            parts = [_Raw("[")]
            for position, element in enumerate(item):
                if position:
                    parts.append(_Raw(","))
                parts.append(element)
            parts.append(_Raw("]"))
            stack.extend(reversed(parts))
        else:
            _encode(item, out)  # a scalar


def _encode(value: object, out: list[str]) -> None:
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, str):
        # json's escaping is serde_json's: the short escapes, other controls as \u00xx
        out.append(_string(value))
    elif isinstance(value, int):
        out.append(str(int(value)))
    elif isinstance(value, float):
        out.append(ryu_format(value) if math.isfinite(value) else "null")
    elif isinstance(value, dict):
        out.append("{")
        for position, key in enumerate(sorted(value)):
            if not isinstance(key, str):
                raise TypeError(f"JSON object keys must be str, not {type(key).__name__}")
            if position:
                out.append(",")
            out.append(_string(key))
            out.append(":")
            _encode(value[key], out)
        out.append("}")
    elif isinstance(value, (list, tuple)):
        out.append("[")
        for position, item in enumerate(value):
            if position:
                out.append(",")
            _encode(item, out)
        out.append("]")
    else:
        raise TypeError(f"cannot encode {type(value).__name__} as JSON")
