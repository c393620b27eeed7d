"""serde_json's error texts and its error type, for the strict JSON reader (`json_decode.py`).

`JsonError`'s `str()` is serde_json's message with its `line L column C` position; the constants
are serde_json's ErrorCode texts; `rust_debug_str` is Rust's `{:?}` of a string, as serde quotes an
unexpected string in an invalid-type error.
"""
from __future__ import annotations

import unicodedata

# serde_json's ErrorCode texts.
EOF_LIST = "EOF while parsing a list"
EOF_OBJECT = "EOF while parsing an object"
EOF_STRING = "EOF while parsing a string"
EOF_VALUE = "EOF while parsing a value"
EXPECTED_COLON = "expected `:`"
EXPECTED_LIST_COMMA_OR_END = "expected `,` or `]`"
EXPECTED_OBJECT_COMMA_OR_END = "expected `,` or `}`"
EXPECTED_IDENT = "expected ident"
EXPECTED_VALUE = "expected value"
INVALID_ESCAPE = "invalid escape"
INVALID_NUMBER = "invalid number"
NUMBER_OUT_OF_RANGE = "number out of range"
CONTROL_CHARACTER = "control character (\\u0000-\\u001F) found while parsing a string"
KEY_MUST_BE_A_STRING = "key must be a string"
LONE_LEADING_SURROGATE = "lone leading surrogate in hex escape"
TRAILING_COMMA = "trailing comma"
TRAILING_CHARACTERS = "trailing characters"
UNEXPECTED_END_OF_HEX_ESCAPE = "unexpected end of hex escape"
RECURSION_LIMIT = "recursion limit exceeded"


class JsonError(Exception):
    """A serde_json error; ``line == 0`` means "no position yet" (serde's custom errors)."""

    def __init__(self, message: str, line: int = 0, column: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column

    def __str__(self) -> str:
        if self.line == 0:
            return self.message
        return f"{self.message} at line {self.line} column {self.column}"


# Characters Rust's Debug escapes as \u{..}: not printable (Cc Cf Cs Co Cn Zl Zp Zs
# but ' '), or Grapheme_Extend.  Python's unicodedata approximates Rust's tables.
_NOT_PRINTABLE = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"))
_OTHER_GRAPHEME_EXTEND = frozenset(
    (0x09BE, 0x09D7, 0x0B3E, 0x0B57, 0x0BBE, 0x0BD7, 0x0CC2, 0x0CD5, 0x0CD6,
     0x0D3E, 0x0D57, 0x0DCF, 0x0DDF, 0x1B35, 0x200C, 0x302E, 0x302F, 0xFF9E,
     0xFF9F, 0x1D165, 0x1D16E, 0x1D16F, 0x1D170, 0x1D171, 0x1D172)
)
_DEBUG_ESCAPES = {"\0": "\\0", "\t": "\\t", "\r": "\\r", "\n": "\\n", "\\": "\\\\", '"': '\\"'}


def rust_debug_str(text: str) -> str:
    """Rust's ``{:?}`` of a ``&str``, as serde shows an unexpected string."""
    out = ['"']
    for ch in text:
        if ch in _DEBUG_ESCAPES:
            out.append(_DEBUG_ESCAPES[ch])
            continue
        code = ord(ch)
        if 0x20 <= code < 0x7F:
            out.append(ch)
            continue
        category = unicodedata.category(ch)
        if (category in _NOT_PRINTABLE or category in ("Mn", "Me")
                or code in _OTHER_GRAPHEME_EXTEND):
            out.append(f"\\u{{{code:x}}}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)
