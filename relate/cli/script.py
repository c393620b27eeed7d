"""Script text -> the statements in it, split at `;` outside strings, names and comments.

The parser takes one statement at a time, so the CLI splits a script first.  A `;` only ends a
statement when it stands in code: inside '...' or "..." strings (with backslash escapes), `...`
names (a doubled backtick escapes one) or `//` and `/* */` comments it is text.  Every statement
keeps the offset of its first character in the script, so an error position reported by the
engine can be moved back onto the script the user wrote.  Stretches holding only whitespace and
comments are not statements.

`split(script)` returns the statements of a complete script (the last one needs no `;`).
`pending(buffer)` is for the interactive shell: the statements closed by a `;` so far, and the
unfinished rest it should keep reading into.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


@dataclass(frozen=True, slots=True)
class Statement:
    """One statement of a script: its text (no `;`, no edge whitespace) and where it starts."""

    text: str
    offset: int  # index of text[0] in the script


class _State(Enum):
    CODE = 0
    SINGLE = 1  # '...'
    DOUBLE = 2  # "..."
    NAME = 3  # `...`
    LINE_COMMENT = 4  # // ... end of line
    BLOCK_COMMENT = 5  # /* ... */


_QUOTES = {"'": _State.SINGLE, '"': _State.DOUBLE, "`": _State.NAME}
_CLOSERS = {_State.SINGLE: "'", _State.DOUBLE: '"', _State.NAME: "`"}


@dataclass(frozen=True, slots=True)
class _Scan:
    statements: tuple[Statement, ...]
    rest_start: int  # where the text after the last `;` begins
    rest_has_code: bool  # whether that rest holds anything but whitespace and comments
    open: bool  # whether the rest ends inside a string, name or block comment


def _piece(script: str, start: int, end: int) -> Statement:
    raw = script[start:end]
    lead = len(raw) - len(raw.lstrip())
    return Statement(raw.strip(), start + lead)


def _scan(script: str) -> _Scan:
    found: list[Statement] = []
    state = _State.CODE
    start = 0
    has_code = False
    i, n = 0, len(script)
    while i < n:
        ch = script[i]
        if state is _State.CODE:
            if ch == ";":
                if has_code:
                    found.append(_piece(script, start, i))
                start, has_code = i + 1, False
            elif ch in _QUOTES:
                state, has_code = _QUOTES[ch], True
            elif ch == "/" and script.startswith("//", i):
                state = _State.LINE_COMMENT
                i += 1
            elif ch == "/" and script.startswith("/*", i):
                state = _State.BLOCK_COMMENT
                i += 1
            elif not ch.isspace():
                has_code = True
        elif state is _State.LINE_COMMENT:
            if ch == "\n":
                state = _State.CODE
        elif state is _State.BLOCK_COMMENT:
            if ch == "*" and script.startswith("*/", i):
                state = _State.CODE
                i += 1
        elif state is _State.NAME:
            if ch == "`":
                if script.startswith("``", i):
                    i += 1  # an escaped backtick inside the name
                else:
                    state = _State.CODE
        else:  # a string
            if ch == "\\":
                i += 1  # the escaped character cannot close the string
            elif ch == _CLOSERS[state]:
                state = _State.CODE
        i += 1
    still_open = state in (_State.SINGLE, _State.DOUBLE, _State.NAME, _State.BLOCK_COMMENT)
    return _Scan(tuple(found), start, has_code, still_open)


def split(script: str) -> list[Statement]:
    """Every statement of a complete script, in order; the last one may lack its `;`."""
    scan = _scan(script)
    out = list(scan.statements)
    if scan.rest_has_code:
        out.append(_piece(script, scan.rest_start, len(script)))
    return out


def pending(buffer: str) -> tuple[list[Statement], str]:
    """The statements a `;` has closed in `buffer`, and the text still waiting for one
    ('' when nothing but whitespace and comments is left)."""
    scan = _scan(buffer)
    rest = buffer[scan.rest_start:]
    if not scan.rest_has_code and not scan.open:
        rest = ""
    return list(scan.statements), rest
