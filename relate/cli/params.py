"""Command-line parameters -> the parameter map statements run with.

Two sources, merged left to right (a later name replaces an earlier one):

- `--params JSON`: a JSON object, given inline or as `@FILE` to read it from a file (`@-`: standard
  input, when the statements do not come from there);
- `--param NAME=VALUE`: one parameter.  VALUE is read as JSON when it is a JSON value
  (`10`, `1.5`, `true`, `null`, `[1, 2]`, `{"a": 1}`, `"10"`), and as a plain string otherwise
  (`--param name=Ada`), so the common case needs no inner quotes.

JSON maps to Cypher as objects -> maps, arrays -> lists, numbers -> integers when written
without a fraction or exponent, floats otherwise.  Integers must fit in 64 bits, and NaN or
Infinity are refused, because Cypher has no such parameter values.  Every failure is a
`UsageError` worded here.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable

from ..errors import E
from ..values.depth import MAX_DEPTH, json_too_deep
from ..values.ints import INT_MAX as _INT_MAX
from ..values.ints import INT_MIN as _INT_MIN

_RANGE = "a number is out of range (integers must fit in 64 bits, floats must be finite)"
_DEEP = f"a value nests lists and maps more than {MAX_DEPTH} levels deep; flatten it"


class _TooDeep(Exception):
    """The JSON nests past the engine's bound: refused before a decoder builds it."""


def _no_constants(name: str) -> object:
    raise ValueError(name)


def _int(text: str) -> int:
    if len(text) > 20:  # past 64 bits; and int() itself refuses text over 4,300 digits
        raise OverflowError(text)
    value = int(text)
    if not _INT_MIN <= value <= _INT_MAX:
        raise OverflowError(text)
    return value


def _float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise OverflowError(text)
    return value


_DECODER = json.JSONDecoder(parse_constant=_no_constants, parse_int=_int, parse_float=_float)


def _decode(text: str, levels: int = MAX_DEPTH) -> object:
    """`text` as one JSON value; ValueError (or OverflowError) when it is not one, _TooDeep when
    it nests more than `levels` deep."""
    if json_too_deep(text, levels):
        raise _TooDeep()
    value, end = _DECODER.raw_decode(text.strip())
    if end != len(text.strip()):
        raise ValueError("trailing text")
    return value


def parse_param(item: str) -> tuple[str, object]:
    """`NAME=VALUE` -> (name, value)."""
    name, sep, raw = item.partition("=")
    name = name.strip()
    if not sep or not name:
        raise E.Usage.Usage(f"Error: --param expects NAME=VALUE, got {item!r}")
    try:
        return name, _decode(raw)
    except OverflowError:
        raise E.Usage.Usage(f"Error: --param {name}: {_RANGE}") from None
    except _TooDeep:
        raise E.Usage.Usage(f"Error: --param {name}: {_DEEP}") from None
    except ValueError:
        return name, raw


def parse_params(text: str, read_file: Callable[[str], str]) -> dict:
    """The `--params` value: a JSON object, or `@FILE` holding one."""
    where = "--params"
    if text.startswith("@"):
        where = f"--params {text}"
        text = read_file(text[1:])
    try:
        value = _decode(text, MAX_DEPTH + 1)  # the object of parameters is one level more
    except OverflowError:
        raise E.Usage.Usage(f"Error: {where}: {_RANGE}") from None
    except _TooDeep:
        raise E.Usage.Usage(f"Error: {where}: {_DEEP}") from None
    except ValueError:
        raise E.Usage.Usage(f"Error: {where} expects a JSON object, and this is not valid JSON") from None
    if not isinstance(value, dict):
        raise E.Usage.Usage(f"Error: {where} expects a JSON object (a map of parameter names)")
    return value


def merge(maps: Iterable[dict], pairs: Iterable[tuple[str, object]]) -> dict:
    out: dict = {}
    for m in maps:
        out.update(m)
    for name, value in pairs:
        out[name] = value
    return out
