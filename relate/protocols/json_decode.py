"""A strict JSON reader that fails exactly like serde_json.

relate's MCP replies must match the Rust reference byte for byte, and a
malformed message's reply quotes serde_json's error text, e.g.
``expected ident at line 1 column 2``.  This module turns JSON text into
Python values (object -> dict, array -> list, string -> str, integer within
u64/i64 -> int, any other number -> float, true/false -> bool, null -> None)
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

import math
import re
import unicodedata

__all__ = ["JsonError", "Reader", "f64_from_parts", "parse_value", "rust_debug_str", "ryu_format"]

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

_U64_MAX = (1 << 64) - 1
_I32_MAX = (1 << 31) - 1
_I32_MIN = -(1 << 31)
_POW10 = tuple(float(f"1e{i}") for i in range(309))  # serde_json's POW10 table

_QUOTE, _BACKSLASH, _MINUS, _PLUS = 0x22, 0x5C, 0x2D, 0x2B
_ZERO, _NINE, _DOT, _COLON, _COMMA = 0x30, 0x39, 0x2E, 0x3A, 0x2C
_LBRACKET, _RBRACKET, _LBRACE, _RBRACE = 0x5B, 0x5D, 0x7B, 0x7D
_LOWER_E, _UPPER_E, _NEWLINE = 0x65, 0x45, 0x0A

_WHITESPACE = re.compile(rb"[ \n\t\r]*")
_DIGITS = re.compile(rb"[0-9]*")
_STRING_STOP = re.compile(rb'["\\\x00-\x1f]')
_HEX = {c: int(chr(c), 16) for c in b"0123456789abcdefABCDEF"}
_SIMPLE_ESCAPES = {
    _QUOTE: '"', _BACKSLASH: "\\", 0x2F: "/", 0x62: "\b",
    0x66: "\f", 0x6E: "\n", 0x72: "\r", 0x74: "\t",
}


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


def _unexpected_number(value: int | float) -> str:
    # serde prints integers plainly; serde_json >= 1.0.9x prints floats through
    # ryu (`1.0`, `1e300`) where older releases printed Rust's `{}` (`1`).
    if isinstance(value, float):
        return f"floating point `{ryu_format(value)}`"
    return f"integer `{value}`"


class Reader:
    """serde_json's ``Deserializer<StrRead>``: a cursor over the UTF-8 bytes of one text."""

    __slots__ = ("text", "data", "index", "depth")

    def __init__(self, text: str) -> None:
        self.text = text
        # surrogatepass: a str carrying lone surrogates must not crash the reader.
        self.data = text.encode("utf-8", "surrogatepass")
        self.index = 0
        self.depth = 128  # serde_json's remaining_depth

    # --- cursor and positions -------------------------------------------------

    def peek(self) -> int | None:
        return self.data[self.index] if self.index < len(self.data) else None

    def peek_or_null(self) -> int:
        return self.data[self.index] if self.index < len(self.data) else 0

    def next(self) -> int | None:
        if self.index < len(self.data):
            self.index += 1
            return self.data[self.index - 1]
        return None

    def _position(self, index: int) -> tuple[int, int]:
        start = self.data.rfind(b"\n", 0, index) + 1
        return self.data.count(b"\n", 0, start) + 1, index - start

    def error(self, message: str) -> JsonError:
        """An error about the byte just consumed."""
        return JsonError(message, *self._position(self.index))

    def peek_error(self, message: str) -> JsonError:
        """An error about the byte being peeked at (one past the cursor, capped at the end)."""
        return JsonError(message, *self._position(min(len(self.data), self.index + 1)))

    def fix(self, err: JsonError) -> JsonError:
        """serde_json's fix_position: a custom error takes the cursor's position."""
        if err.line == 0:
            return self.error(err.message)
        return err

    def parse_whitespace(self) -> int | None:
        self.index = _WHITESPACE.match(self.data, self.index).end()
        return self.peek()

    def enter(self) -> None:
        """check_recursion!: called while peeking at `[` or `{`."""
        self.depth -= 1
        if self.depth == 0:
            raise self.peek_error(RECURSION_LIMIT)

    def leave(self) -> None:
        self.depth += 1

    def end(self) -> None:
        """Deserializer::end: only whitespace may follow the value."""
        if self.parse_whitespace() is not None:
            raise self.peek_error(TRAILING_CHARACTERS)

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
            if byte == _QUOTE:
                parts.append(data[start:at].decode("utf-8", "surrogatepass"))
                self.index = at + 1
                return "".join(parts)
            if byte == _BACKSLASH:
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
        for wanted in (_BACKSLASH, 0x75):
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

    # --- numbers (serde_json without float_roundtrip) -------------------------

    def parse_integer(self, positive: bool) -> int | float:
        """After an optional `-`: u64/i64 stay ints, anything else becomes a float."""
        byte = self.next()
        if byte is None:
            raise self.error(EOF_VALUE)
        if byte == _ZERO:
            if _ZERO <= self.peek_or_null() <= _NINE:
                raise self.peek_error(INVALID_NUMBER)
            return self._parse_number(positive, 0)
        if not _ZERO < byte <= _NINE:
            raise self.error(INVALID_NUMBER)
        significand, taken, overflow = self._absorb_digits(byte - _ZERO)
        if overflow:
            return self._parse_long_integer(positive, significand)
        return self._parse_number(positive, significand)

    def _absorb_digits(self, significand: int) -> tuple[int, int, bool]:
        """serde's digit loop: take digits while significand*10+digit fits a u64.

        Returns the significand, how many digits were taken, and whether a
        digit was left behind because it would overflow.
        """
        end = _DIGITS.match(self.data, self.index).end()
        run = self.data[self.index:end]
        zeros = 0
        if significand == 0:  # zeros never overflow a zero significand
            zeros = len(run) - len(run.lstrip(b"0"))
            run = run[zeros:]
        # Taking digits is monotonic, so the longest prefix that fits is what
        # the byte-at-a-time loop would have taken; a nonzero u64 takes < 20 more.
        for taken in range(min(len(run), 20), -1, -1):
            value = significand * 10 ** taken + (int(run[:taken]) if taken else 0)
            if value <= _U64_MAX:
                self.index += zeros + taken
                return value, zeros + taken, taken < len(run)
        raise AssertionError("unreachable: taking no digit always fits")

    def _parse_number(self, positive: bool, significand: int) -> int | float:
        byte = self.peek_or_null()
        if byte == _DOT:
            return self._parse_decimal(positive, significand, 0)
        if byte in (_LOWER_E, _UPPER_E):
            return self._parse_exponent(positive, significand, 0)
        if positive:
            return significand
        # `-0` and negatives below i64::MIN become floats, as in serde_json.
        if significand == 0 or significand > 1 << 63:
            return -float(significand)
        return -significand

    def _parse_decimal(self, positive: bool, significand: int, exponent: int) -> float:
        self.index += 1  # '.'
        significand, taken, overflow = self._absorb_digits(significand)
        exponent -= taken
        if overflow:
            return self._parse_decimal_overflow(positive, significand, exponent)
        # Counting digits after the point (not `exponent == 0`) is the recent
        # serde_json fix that rejects `18446744073709551616.`.
        if taken == 0:
            if self.peek() is not None:
                raise self.peek_error(INVALID_NUMBER)
            raise self.peek_error(EOF_VALUE)
        if self.peek_or_null() in (_LOWER_E, _UPPER_E):
            return self._parse_exponent(positive, significand, exponent)
        return self._f64_from_parts(positive, significand, exponent)

    def _parse_decimal_overflow(self, positive: bool, significand: int, exponent: int) -> float:
        self.index = _DIGITS.match(self.data, self.index).end()  # further digits are ignored
        if self.peek_or_null() in (_LOWER_E, _UPPER_E):
            return self._parse_exponent(positive, significand, exponent)
        return self._f64_from_parts(positive, significand, exponent)

    def _parse_exponent(self, positive: bool, significand: int, starting_exp: int) -> float:
        self.index += 1  # 'e' or 'E'
        positive_exp = True
        sign = self.peek_or_null()
        if sign == _PLUS:
            self.index += 1
        elif sign == _MINUS:
            self.index += 1
            positive_exp = False
        byte = self.next()
        if byte is None:
            raise self.error(EOF_VALUE)
        if not _ZERO <= byte <= _NINE:
            raise self.error(INVALID_NUMBER)
        exp = byte - _ZERO
        while _ZERO <= (byte := self.peek_or_null()) <= _NINE:
            self.index += 1
            digit = byte - _ZERO
            if _overflows(exp, digit, _I32_MAX):
                return self._parse_exponent_overflow(positive, significand == 0, positive_exp)
            exp = exp * 10 + digit
        final = starting_exp + exp if positive_exp else starting_exp - exp
        return self._f64_from_parts(positive, significand, max(_I32_MIN, min(_I32_MAX, final)))

    def _parse_exponent_overflow(self, positive: bool, zero: bool, positive_exp: bool) -> float:
        if not zero and positive_exp:
            raise self.error(NUMBER_OUT_OF_RANGE)
        self.index = _DIGITS.match(self.data, self.index).end()
        return 0.0 if positive else -0.0

    def _parse_long_integer(self, positive: bool, significand: int) -> float:
        end = _DIGITS.match(self.data, self.index).end()
        exponent = end - self.index  # the digits past u64 only scale the value
        self.index = end
        byte = self.peek_or_null()
        if byte == _DOT:
            return self._parse_decimal(positive, significand, exponent)
        if byte in (_LOWER_E, _UPPER_E):
            return self._parse_exponent(positive, significand, exponent)
        return self._f64_from_parts(positive, significand, exponent)

    def _f64_from_parts(self, positive: bool, significand: int, exponent: int) -> float:
        value = f64_from_parts(significand, exponent)
        if value is None:
            raise self.error(NUMBER_OUT_OF_RANGE)
        return value if positive else -value

    # --- values ---------------------------------------------------------------

    def parse_any(self) -> object:
        """``serde_json::Value::deserialize``: any JSON value."""
        byte = self.parse_whitespace()
        if byte is None:
            raise self.peek_error(EOF_VALUE)
        if byte == _QUOTE:
            self.index += 1
            return self.parse_str()
        if byte == _LBRACE:
            return self._parse_object()
        if byte == _LBRACKET:
            return self._parse_array()
        if byte == _MINUS:
            self.index += 1
            return self.parse_integer(False)
        if _ZERO <= byte <= _NINE:
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
        if byte == _RBRACKET:
            return False
        if byte == _COMMA and not first:
            self.index += 1
            byte = self.parse_whitespace()
        elif byte is None:
            raise self.peek_error(EOF_LIST)
        elif not first:
            raise self.peek_error(EXPECTED_LIST_COMMA_OR_END)
        if byte == _RBRACKET:
            raise self.peek_error(TRAILING_COMMA)
        if byte is None:
            raise self.peek_error(EOF_VALUE)
        return True

    def map_has_next(self, first: bool) -> bool:
        """MapAccess::next_key_seed up to the key: True at its `"` (not consumed)."""
        byte = self.parse_whitespace()
        if byte == _RBRACE:
            return False
        if byte == _COMMA and not first:
            self.index += 1
            byte = self.parse_whitespace()
        elif byte is None:
            raise self.peek_error(EOF_OBJECT)
        elif not first:
            raise self.peek_error(EXPECTED_OBJECT_COMMA_OR_END)
        if byte == _QUOTE:
            return True
        if byte == _RBRACE:
            raise self.peek_error(TRAILING_COMMA)
        if byte is None:
            raise self.peek_error(EOF_VALUE)
        raise self.peek_error(KEY_MUST_BE_A_STRING)

    def parse_object_colon(self) -> None:
        byte = self.parse_whitespace()
        if byte == _COLON:
            self.index += 1
        elif byte is None:
            raise self.peek_error(EOF_OBJECT)
        else:
            raise self.peek_error(EXPECTED_COLON)

    def end_seq(self) -> None:
        byte = self.parse_whitespace()
        if byte == _RBRACKET:
            self.index += 1
            return
        if byte == _COMMA:
            self.index += 1
            if self.parse_whitespace() == _RBRACKET:
                raise self.peek_error(TRAILING_COMMA)
            raise self.peek_error(TRAILING_CHARACTERS)
        if byte is None:
            raise self.peek_error(EOF_LIST)
        raise self.peek_error(TRAILING_CHARACTERS)

    def end_map(self) -> None:
        byte = self.parse_whitespace()
        if byte == _RBRACE:
            self.index += 1
            return
        if byte == _COMMA:
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
        if byte == _QUOTE:
            self.index += 1
            return self.parse_str()
        raise self.peek_invalid_type(expected)

    def peek_invalid_type(self, expected: str) -> JsonError:
        """serde_json's peek_invalid_type: consume the scalar to name it, not a container."""
        byte = self.peek_or_null()
        if byte == _QUOTE:
            self.index += 1
            unexpected = "string " + rust_debug_str(self.parse_str())
        elif byte == _LBRACKET:
            unexpected = "sequence"
        elif byte == _LBRACE:
            unexpected = "map"
        elif byte == _MINUS:
            self.index += 1
            unexpected = _unexpected_number(self.parse_integer(False))
        elif _ZERO <= byte <= _NINE:
            unexpected = _unexpected_number(self.parse_integer(True))
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


def _overflows(value: int, digit: int, limit: int) -> bool:
    return value >= limit // 10 and (value > limit // 10 or digit > limit % 10)


def f64_from_parts(significand: int, exponent: int) -> float | None:
    """serde_json's significand * 10^exponent (no float_roundtrip); None when out of range.

    Not correctly rounded for long mantissas or large exponents; neither is serde_json's default.
    """
    value = float(significand)  # u64 -> f64 rounds to nearest even, as Rust's `as` does
    while True:
        if abs(exponent) <= 308:
            if exponent >= 0:
                value *= _POW10[exponent]
                return None if math.isinf(value) else value
            return value / _POW10[-exponent]
        if value == 0.0:
            return value
        if exponent >= 0:
            return None
        value /= 1e308
        exponent += 308


def parse_value(text: str) -> object:
    """``serde_json::from_str::<Value>``: one JSON value, or a ``JsonError``."""
    reader = Reader(text)
    value = reader.parse_any()
    reader.end()
    return value
