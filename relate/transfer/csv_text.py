"""CSV text <-> records, as `neo4j-admin database import` reads them.

Writing (`field`): a field is quoted only when it must be: when it is empty (an unquoted empty
field is a missing value, a quoted one the empty string), holds the delimiter, the quote, a line
break, or starts or ends with white space; a quote inside is doubled.

Reading (`records`): lines -> (line number, fields).  A field is a `str`; an unquoted empty field is
`""` (missing) and a quoted empty one the `QUOTED_EMPTY` object (a `str` equal to `""`, told apart
by identity).  A quoted field may run over line breaks (neo4j-admin's `--multiline-fields`); the
line number is the record's first line.  Lines without a quote take a fast path (`str.split`).
Empty lines are skipped.  Bad quoting raises `CsvSyntax` with the line number.
"""
from __future__ import annotations

from typing import Iterable, Iterator


class _QuotedEmpty(str):
    pass


QUOTED_EMPTY = _QuotedEmpty("")


class CsvSyntax(Exception):
    def __init__(self, line: int, reason: str) -> None:
        super().__init__(reason)
        self.line = line
        self.reason = reason


def field(text: str, delimiter: str, quote: str) -> str:
    if (not text or delimiter in text or quote in text or "\n" in text or "\r" in text
            or text[0].isspace() or text[-1].isspace()):
        return quote + text.replace(quote, quote + quote) + quote
    return text


def record(fields: Iterable[str], delimiter: str, quote: str) -> str:
    return delimiter.join(field(f, delimiter, quote) for f in fields) + "\n"


def _ending(raw: str) -> str:
    """The line break `raw` ends with (files are read with `newline=""`: \\n, \\r\\n or \\r)."""
    if raw.endswith("\r\n"):
        return "\r\n"
    if raw.endswith("\n") or raw.endswith("\r"):
        return raw[-1]
    return ""


def records(lines: Iterable[str], delimiter: str = ",", quote: str = '"',
            first_line: int = 1) -> Iterator[tuple[int, list[str]]]:
    it = iter(lines)
    number = first_line - 1
    for raw in it:
        number += 1
        if number == first_line and raw.startswith("\ufeff"):
            raw = raw[1:]
        end = _ending(raw)
        line = raw[:len(raw) - len(end)] if end else raw
        if not line:
            continue
        if quote not in line:
            yield number, line.split(delimiter)
            continue
        start = number
        fields: list[str] = []
        buf: list[str] = []
        quoted = False     # inside a quoted field
        was_quoted = False  # the current field began with a quote
        i, n = 0, len(line)
        while True:
            while i < n:
                ch = line[i]
                if quoted:
                    if ch == quote:
                        if i + 1 < n and line[i + 1] == quote:
                            buf.append(quote)
                            i += 2
                            continue
                        quoted = False
                        i += 1
                        if i < n and line[i] != delimiter:
                            raise CsvSyntax(start, f"text after a closing quote at column {i + 1}")
                        continue
                    buf.append(ch)
                elif ch == delimiter:
                    fields.append(QUOTED_EMPTY if was_quoted and not buf else "".join(buf))
                    buf, was_quoted = [], False
                elif ch == quote and not buf and not was_quoted:
                    quoted = was_quoted = True
                else:
                    buf.append(ch)
                i += 1
            if not quoted:
                break
            nxt = next(it, None)  # the quoted field goes on over the line break
            if nxt is None:
                raise CsvSyntax(start, "a quoted field is not closed before the end of the file")
            number += 1
            buf.append(end)
            raw = nxt
            end = _ending(raw)
            line = raw[:len(raw) - len(end)] if end else raw
            i, n = 0, len(line)
        fields.append(QUOTED_EMPTY if was_quoted and not buf else "".join(buf))
        yield start, fields
