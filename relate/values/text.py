"""Cypher values -> text, one function family per format that writes values:

- **Cypher literal** (`to_text`): the table output mode and the TCK's comparisons.  Strings in
  double quotes with escapes (control characters too, so a value stays on one line), names
  back-quoted when they are not identifiers, floats as Python's shortest repr, `NaN`,
  `Infinity`, nodes `(:A {k: 1})`, relationships `[:T]`, paths `<(a)-[:T]->(b)>`.
- **toString** (`string_form`, `java_double`): the text Cypher's `toString()` and string
  concatenation give; numbers as Java writes them (`1.0E10`), which the TCK's expectations
  come from.
- **JSON numbers** (`ryu_format`): the float text serde_json writes (the `ryu` crate: `1.0`,
  `1e20`, `1e-7`); `relate.jsonenc` writes everything else.
- **TOON scalars** (`toon_primitive` and its parts): null, booleans, numbers in plain decimal
  (exponent form outside [1e-6, 1e21); a whole float in its exact digits, which a TOON decoder
  reads back as that number), strings bare unless TOON needs quotes.
"""
from __future__ import annotations

import math
import re
from decimal import Decimal

from .entities import Node, Path, Relationship
from .kinds import temporal_of

# null and the booleans are written the same in every format here (looked up by identity first:
# the key True would also answer for 1)
_WORDS: dict[object, str] = {None: "null", True: "true", False: "false"}

# --- Cypher literal ---------------------------------------------------------------------------

_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b",
            "\f": "\\f"}
_NEEDS_ESCAPE = re.compile(r'[\\"\x00-\x1f\x7f]')


def _escape(m: re.Match[str]) -> str:
    c = m.group()
    return _ESCAPES.get(c) or f"\\u{ord(c):04x}"


def _quote(text: str) -> str:
    # control characters are written as escapes, so one value stays on one line of a table
    return '"' + _NEEDS_ESCAPE.sub(_escape, text) + '"'


def _key(name: str) -> str:
    if name and (name[0].isalpha() or name[0] == "_") and all(c.isalnum() or c == "_" for c in name):
        return name
    return "`" + name.replace("`", "``") + "`"


def _props(props: dict[str, object]) -> str:
    if not props:
        return ""
    return " {" + ", ".join(f"{_key(k)}: {to_text(v)}" for k, v in props.items()) + "}"


def to_text(value: object) -> str:
    """A Cypher value as Cypher-literal text (the table output mode and TCK comparisons)."""
    if value is None or value is True or value is False:
        return _WORDS[value]
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return repr(value)
    if isinstance(value, str):
        return _quote(value)
    if isinstance(value, list):
        return "[" + ", ".join(to_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)}: {to_text(v)}" for k, v in value.items()) + "}"
    if isinstance(value, Node):
        labels = "".join(":" + _key(label) for label in sorted(value.labels))
        return f"({labels}{_props(value.props)})"
    if isinstance(value, Relationship):
        return f"[:{_key(value.type)}{_props(value.props)}]"
    if isinstance(value, Path):
        parts = [to_text(value.nodes[0])]
        for i, rel in enumerate(value.rels):
            prev = value.nodes[i]
            parts.append(f"-{to_text(rel)}->" if rel.start is prev else f"<-{to_text(rel)}-")
            parts.append(to_text(value.nodes[i + 1]))
        return "<" + "".join(parts) + ">"
    t = temporal_of(value)
    if t is not None:
        return t.render(value)
    if isinstance(value, bytes):  # a byte array (only the Python API passes them): its bytes
        return "[" + ", ".join(str(b) for b in value) + "]"
    raise TypeError(f"not a Cypher value: {value!r}")


# --- toString ---------------------------------------------------------------------------------


def java_double(x: float) -> str:
    """A float as Java's `Double.toString` writes it: the shortest digits that read back exactly,
    plain notation for magnitudes in [1e-3, 1e7), otherwise `d.dddE<exponent>`."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0.0:
        return "-0.0" if math.copysign(1.0, x) < 0 else "0.0"
    sign = "-" if x < 0 else ""
    _, digit_tuple, exp = Decimal(repr(abs(x))).as_tuple()
    assert isinstance(exp, int)  # a finite number's exponent
    digits = "".join(map(str, digit_tuple)).rstrip("0")
    exp += len(digit_tuple) - len(digits)
    point = len(digits) - 1 + exp  # the power of ten of the first digit
    if 1e-3 <= abs(x) < 1e7:
        if point >= 0:
            whole = digits[:point + 1].ljust(point + 1, "0")
            frac = digits[point + 1:] or "0"
            return f"{sign}{whole}.{frac}"
        return f"{sign}0.{'0' * (-point - 1)}{digits}"
    return f"{sign}{digits[0]}.{digits[1:] or '0'}E{point}"


def string_form(v: object) -> str | None:
    """The text `toString(v)` gives for a string, boolean, number, temporal or spatial value;
    None for a value with no string form (null, lists, maps, graph entities)."""
    if isinstance(v, str):
        return v
    if v is True or v is False:
        return _WORDS[v]
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return java_double(v)
    if v is None or isinstance(v, (list, dict)):
        return None
    t = temporal_of(v)
    return t.render(v) if t is not None else None


# --- JSON numbers -----------------------------------------------------------------------------


def ryu_format(value: float) -> str:
    """serde_json's text for an f64 (the ``ryu`` crate): ``1.0``, ``1e20``, ``1e-7``.

    Python's repr gives the same shortest round-trip digits; only the layout differs.
    """
    if value != value:
        return "NaN"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    sign = "-" if math.copysign(1.0, value) < 0 else ""
    if value == 0:
        return sign + "0.0"
    mantissa, _, exp_text = repr(abs(value)).partition("e")
    whole, _, frac = mantissa.partition(".")
    digits = (whole + frac).lstrip("0")
    exponent = (int(exp_text) if exp_text else 0) - len(frac)
    stripped = digits.rstrip("0")
    exponent += len(digits) - len(stripped)
    digits = stripped
    length = len(digits)
    kk = length + exponent  # 10^(kk-1) <= value < 10^kk
    if 0 <= exponent and kk <= 16:
        text = digits + "0" * exponent + ".0"
    elif 0 < kk <= 16:
        text = digits[:kk] + "." + digits[kk:]
    elif -5 < kk <= 0:
        text = "0." + "0" * -kk + digits
    elif length == 1:
        text = f"{digits}e{kk - 1}"
    else:
        text = f"{digits[0]}.{digits[1:]}e{kk - 1}"
    return sign + text


# --- TOON scalars (spec v4.0 draft) -----------------------------------------------------------

TOON_DELIM = ","

_TOON_NUMBER_LIKE = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?", re.IGNORECASE)
_TOON_BARE_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
_TOON_STRUCTURAL = frozenset(':"\\[]{}')
_TOON_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def toon_quote(text: str) -> str:
    """`text` in double quotes with TOON's escapes (other C0 controls as lowercase \\u00xx)."""
    out = []
    for ch in text:
        esc = _TOON_ESCAPES.get(ch)
        if esc is not None:
            out.append(esc)
        elif ch < " ":
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def toon_needs_quotes(text: str, delim: str = TOON_DELIM) -> bool:
    """Whether TOON must quote `text`: empty, edge whitespace, literal-like, number-like,
    structural or control characters, the delimiter, or a leading `-` / `#`."""
    if not text:
        return True
    if text[0] in " \t" or text[-1] in " \t":
        return True
    if text in ("true", "false", "null") or _TOON_NUMBER_LIKE.fullmatch(text):
        return True
    if text[0] in "-#" or delim in text:
        return True
    return any(ch in _TOON_STRUCTURAL or ch < " " for ch in text)


def toon_string(text: str, delim: str = TOON_DELIM) -> str:
    return toon_quote(text) if toon_needs_quotes(text, delim) else text


def toon_key(name: str) -> str:
    """A field name, bare when it is identifier-like (dots allowed), quoted otherwise."""
    return name if _TOON_BARE_KEY.fullmatch(name) else toon_quote(name)


def toon_number(value: int | float) -> str:
    if isinstance(value, int):
        return str(value)
    if not math.isfinite(value):
        return "null"
    if value == 0:
        return "0"  # also folds -0.0
    if value.is_integer() and abs(value) < 1e21:
        # the exact digits: from 2**53 on, repr's shortest digits (1152921504606847000 for 2.0**60)
        # read back as an integer that is not the float
        return str(int(value))
    text = repr(value)
    if 1e-6 <= abs(value) < 1e21:
        plain = format(Decimal(text), "f")
        if "." in plain:
            plain = plain.rstrip("0").rstrip(".")
        return plain
    mantissa, _, exp = text.partition("e")
    power = int(exp)
    return f"{mantissa}e{'+' if power >= 0 else '-'}{abs(power)}"


def toon_primitive(value: object, delim: str = TOON_DELIM) -> str:
    """A JSON-shaped scalar (null, boolean, number, string) as TOON text."""
    if value is None or value is True or value is False:
        return _WORDS[value]
    if isinstance(value, str):
        return toon_string(value, delim)
    return toon_number(value)  # type: ignore[arg-type]
