"""One JSON writer for everything relate prints: a Python value -> one compact line of JSON.

The text is the one serde_json writes for a `Value` holding the same data, so the CLI's JSON
modes, the MCP replies and the browser build agree byte for byte:

- object keys sorted at every level (serde's map is a BTreeMap), no spaces after `,` or `:`;
- strings escaped as serde escapes them (`\\"`, `\\\\`, `\\b`, `\\f`, `\\n`, `\\r`, `\\t`, other
  control characters as lowercase `\\u00xx`), everything else, non-ASCII included, as itself;
- floats in ryu's shortest form (`1.0`, `0.00001`, `1e-7`, `1e20`), non-finite floats as `null`;
- tuples written as arrays; any other type is a `TypeError` rather than a guess.
"""
from __future__ import annotations

import json
import math

from .values.text import ryu_format

__all__ = ["dumps"]


def dumps(value: object) -> str:
    """`value` as one line of serde-style JSON."""
    out: list[str] = []
    _encode(value, out)
    return "".join(out)


def _encode(value: object, out: list[str]) -> None:
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, str):
        # json's escaping is serde_json's: the short escapes, other controls as \u00xx
        out.append(json.dumps(value, ensure_ascii=False))
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
            out.append(json.dumps(key, ensure_ascii=False))
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
