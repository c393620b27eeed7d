"""A strict JSON reader that fails exactly like serde_json.

relate's MCP replies must match the Rust reference byte for byte, and a
malformed message's reply quotes serde_json's error text, e.g.
``expected ident at line 1 column 2``.  This module turns JSON text into
Python values (object -> dict, array -> list, string -> str, integer literal -> int,
exact even past u64/i64 where serde_json makes a float (see `json_numbers.py`), any other
number -> float, true/false -> bool, null -> None)
and turns bad text into a ``JsonError`` whose ``str()`` is serde_json's
message.

It ports serde_json's deserializer (the default features, i.e. without
``float_roundtrip`` or ``arbitrary_precision``): the same error classes, the
same order of checks and the same ``line L column C`` positions, where the
column counts UTF-8 bytes since the last newline.  ``Reader`` exposes the
primitives (``parse_any`` for ``serde_json::Value``, ``deserialize_string``,
``peek_invalid_type``, the seq/map access steps) so that ``jsonrpc`` can
replay a serde_derive struct visitor on top of them.

Where serde_json versions differ we follow the recent 1.0.1xx releases and
say so in a comment.  It favours fidelity over speed: ``jsonrpc`` reads
large values through the stdlib's C scanner and only falls back to this
port when that might disagree.
"""

from __future__ import annotations

import re

from ..values.text import ryu_format
from .json_cursor import (BACKSLASH, COLON, COMMA, LBRACE, LBRACKET, MINUS, NINE, QUOTE, RBRACE,
                          RBRACKET, ZERO)
from .json_errors import (CONTROL_CHARACTER, EOF_LIST, EOF_OBJECT, EOF_STRING, EOF_VALUE, EXPECTED_COLON,
                          EXPECTED_IDENT, EXPECTED_LIST_COMMA_OR_END, EXPECTED_OBJECT_COMMA_OR_END,
                          EXPECTED_VALUE, INVALID_ESCAPE, KEY_MUST_BE_A_STRING, LONE_LEADING_SURROGATE,
                          TRAILING_CHARACTERS, TRAILING_COMMA, UNEXPECTED_END_OF_HEX_ESCAPE, JsonError,
                          rust_debug_str)
from .json_numbers import NumberReader, f64_from_parts

__all__ = ["JsonError", "Reader", "f64_from_parts", "parse_value", "rust_debug_str", "ryu_format"]

_STRING_STOP = re.compile(rb'["\\\x00-\x1f]')
_HEX = {c: int(chr(c), 16) for c in b"0123456789abcdefABCDEF"}
_SIMPLE_ESCAPES = {
    QUOTE: '"', BACKSLASH: "\\", 0x2F: "/", 0x62: "\b",
    0x66: "\f", 0x6E: "\n", 0x72: "\r", 0x74: "\t",
}


def _unexpected_number(value: int | float) -> str:
    # serde prints integers plainly; serde_json >= 1.0.9x prints floats through
    # ryu (`1.0`, `1e300`) where older releases printed Rust's `{}` (`1`).
    if isinstance(value, float):
        return f"floating point `{ryu_format(value)}`"
    return f"integer `{value}`"


class Reader(NumberReader):
    """serde_json's ``Deserializer<StrRead>``: a cursor over the UTF-8 bytes of one text (the
    cursor in `json_cursor.py`, the number steps in `json_numbers.py`)."""

    __slots__ = ()

    # --- scalars --------------------------------------------------------------

    def parse_ident(self, ident: bytes) -> None:
        for expected in ident:
            got = self.next()
            if got is None:
                raise self.error(EOF_VALUE)
            if got != expected:
                raise self.error(EXPECTED_IDENT)

    def parse_str(self) -> str:
        """The body of a string, the opening quote already consumed."""
        data = self.data
        parts: list[str] = []
        start = self.index
        while True:
            stop = _STRING_STOP.search(data, self.index)
            if stop is None:
                self.index = len(data)
                raise self.error(EOF_STRING)
            at = stop.start()
            byte = data[at]
            if byte == QUOTE:
                parts.append(data[start:at].decode("utf-8", "surrogatepass"))
                self.index = at + 1
                return "".join(parts)
            if byte == BACKSLASH:
                parts.append(data[start:at].decode("utf-8", "surrogatepass"))
                self.index = at + 1
                parts.append(self._parse_escape())
                start = self.index
                continue
            self.index = at + 1
            raise self.error(CONTROL_CHARACTER)

    def _parse_escape(self) -> str:
        byte = self.next()
        if byte is None:
            raise self.error(EOF_STRING)
        simple = _SIMPLE_ESCAPES.get(byte)
        if simple is not None:
            return simple
        if byte != 0x75:  # 'u'
            raise self.error(INVALID_ESCAPE)
        n1 = self._decode_hex_escape()
        if 0xDC00 <= n1 <= 0xDFFF:
            raise self.error(LONE_LEADING_SURROGATE)
        if not 0xD800 <= n1 <= 0xDBFF:
            return chr(n1)
        for wanted in (BACKSLASH, 0x75):
            got = self.peek()
            if got is None:
                raise self.error(EOF_STRING)
            self.index += 1
            if got != wanted:
                raise self.error(UNEXPECTED_END_OF_HEX_ESCAPE)
        n2 = self._decode_hex_escape()
        if not 0xDC00 <= n2 <= 0xDFFF:
            raise self.error(LONE_LEADING_SURROGATE)
        return chr((((n1 - 0xD800) << 10) | (n2 - 0xDC00)) + 0x10000)

    def _decode_hex_escape(self) -> int:
        # serde_json >= 1.0.12x consumes all four bytes before reporting a bad
        # digit (older releases stopped at the bad digit, one to three columns earlier).
        if self.index + 4 > len(self.data):
            self.index = len(self.data)
            raise self.error(EOF_STRING)
        quad = self.data[self.index:self.index + 4]
        self.index += 4
        value = 0
        for byte in quad:
            digit = _HEX.get(byte)
            if digit is None:
                raise self.error(INVALID_ESCAPE)
            value = (value << 4) | digit
        return value

    # --- values ---------------------------------------------------------------

    def parse_any(self) -> object:
        """``serde_json::Value::deserialize``: any JSON value."""
        byte = self.parse_whitespace()
        if byte is None:
            raise self.peek_error(EOF_VALUE)
        if byte == QUOTE:
            self.index += 1
            return self.parse_str()
        if byte == LBRACE:
            return self._parse_object()
        if byte == LBRACKET:
            return self._parse_array()
        if byte == MINUS:
            self.index += 1
            return self.parse_integer(False)
        if ZERO <= byte <= NINE:
            return self.parse_integer(True)
        for first, rest, value in _IDENTS:
            if byte == first:
                self.index += 1
                self.parse_ident(rest)
                return value
        raise self.peek_error(EXPECTED_VALUE)

    def _parse_array(self) -> list:
        self.enter()
        self.index += 1
        items = []
        first = True
        while self.seq_has_next(first):
            first = False
            items.append(self.parse_any())
        self.leave()
        self.end_seq()
        return items

    def _parse_object(self) -> dict:
        self.enter()
        self.index += 1
        members = {}
        first = True
        while self.map_has_next(first):
            first = False
            self.index += 1
            key = self.parse_str()
            self.parse_object_colon()
            members[key] = self.parse_any()  # a repeated key keeps its last value
        self.leave()
        self.end_map()
        return members

    def seq_has_next(self, first: bool) -> bool:
        """SeqAccess::next_element_seed up to the element: False at `]` (not consumed)."""
        byte = self.parse_whitespace()
        if byte == RBRACKET:
            return False
        if byte == COMMA and not first:
            self.index += 1
            byte = self.parse_whitespace()
        elif byte is None:
            raise self.peek_error(EOF_LIST)
        elif not first:
            raise self.peek_error(EXPECTED_LIST_COMMA_OR_END)
        if byte == RBRACKET:
            raise self.peek_error(TRAILING_COMMA)
        if byte is None:
            raise self.peek_error(EOF_VALUE)
        return True

    def map_has_next(self, first: bool) -> bool:
        """MapAccess::next_key_seed up to the key: True at its `"` (not consumed)."""
        byte = self.parse_whitespace()
        if byte == RBRACE:
            return False
        if byte == COMMA and not first:
            self.index += 1
            byte = self.parse_whitespace()
        elif byte is None:
            raise self.peek_error(EOF_OBJECT)
        elif not first:
            raise self.peek_error(EXPECTED_OBJECT_COMMA_OR_END)
        if byte == QUOTE:
            return True
        if byte == RBRACE:
            raise self.peek_error(TRAILING_COMMA)
        if byte is None:
            raise self.peek_error(EOF_VALUE)
        raise self.peek_error(KEY_MUST_BE_A_STRING)

    def parse_object_colon(self) -> None:
        byte = self.parse_whitespace()
        if byte == COLON:
            self.index += 1
        elif byte is None:
            raise self.peek_error(EOF_OBJECT)
        else:
            raise self.peek_error(EXPECTED_COLON)

    def end_seq(self) -> None:
        byte = self.parse_whitespace()
        if byte == RBRACKET:
            self.index += 1
            return
        if byte == COMMA:
            self.index += 1
            if self.parse_whitespace() == RBRACKET:
                raise self.peek_error(TRAILING_COMMA)
            raise self.peek_error(TRAILING_CHARACTERS)
        if byte is None:
            raise self.peek_error(EOF_LIST)
        raise self.peek_error(TRAILING_CHARACTERS)

    def end_map(self) -> None:
        byte = self.parse_whitespace()
        if byte == RBRACE:
            self.index += 1
            return
        if byte == COMMA:
            raise self.peek_error(TRAILING_COMMA)
        if byte is None:
            raise self.peek_error(EOF_OBJECT)
        raise self.peek_error(TRAILING_CHARACTERS)

    # --- typed fields ---------------------------------------------------------

    def deserialize_string(self, expected: str = "a string") -> str:
        """``String::deserialize``: a JSON string, else serde's invalid-type error."""
        byte = self.parse_whitespace()
        if byte is None:
            raise self.peek_error(EOF_VALUE)
        if byte == QUOTE:
            self.index += 1
            return self.parse_str()
        raise self.peek_invalid_type(expected)

    def peek_invalid_type(self, expected: str) -> JsonError:
        """serde_json's peek_invalid_type: consume the scalar to name it, not a container."""
        byte = self.peek_or_null()
        if byte == QUOTE:
            self.index += 1
            unexpected = "string " + rust_debug_str(self.parse_str())
        elif byte == LBRACKET:
            unexpected = "sequence"
        elif byte == LBRACE:
            unexpected = "map"
        elif byte == MINUS:
            self.index += 1
            unexpected = _unexpected_number(self.parse_integer(False, exact=False))
        elif ZERO <= byte <= NINE:
            unexpected = _unexpected_number(self.parse_integer(True, exact=False))
        else:
            for first, rest, value in _IDENTS:
                if byte == first:
                    self.index += 1
                    self.parse_ident(rest)
                    unexpected = "null" if value is None else f"boolean `{str(value).lower()}`"
                    break
            else:
                return self.peek_error(EXPECTED_VALUE)
        return self.fix(JsonError(f"invalid type: {unexpected}, expected {expected}"))


_IDENTS = ((0x6E, b"ull", None), (0x74, b"rue", True), (0x66, b"alse", False))


def parse_value(text: str) -> object:
    """``serde_json::from_str::<Value>``: one JSON value, or a ``JsonError``."""
    reader = Reader(text)
    value = reader.parse_any()
    reader.end()
    return value
