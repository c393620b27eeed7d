"""The strict JSON reader's cursor: one text's UTF-8 bytes, the index into them, serde_json's
positions (`line L column C`, the column counting bytes since the last newline) and its
recursion limit.  The reading steps (`json_numbers.py`, `json_decode.py`) build on it.
"""
from __future__ import annotations

import re

from .json_errors import RECURSION_LIMIT, TRAILING_CHARACTERS, JsonError

QUOTE, BACKSLASH, MINUS, PLUS = 0x22, 0x5C, 0x2D, 0x2B
ZERO, NINE, DOT, COLON, COMMA = 0x30, 0x39, 0x2E, 0x3A, 0x2C
LBRACKET, RBRACKET, LBRACE, RBRACE = 0x5B, 0x5D, 0x7B, 0x7D
LOWER_E, UPPER_E = 0x65, 0x45

_WHITESPACE = re.compile(rb"[ \n\t\r]*")


class Cursor:
    """The position state of serde_json's ``Deserializer<StrRead>``."""

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
