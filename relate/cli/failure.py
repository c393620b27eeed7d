"""A failed command -> what relate prints about it.

- stderr: `Error: <message>` (plus, for people, the statement line with a caret under the
  error's position: `excerpt`);
- stdout, in the JSON and TOON modes: one error object an agent branches on without reading
  prose:

      {"error":{"code":"Relate.SyntaxError.ParseError","kind":"ParseError","message":"...",
                "phase":"compile","position":{"column":11,"line":1,"offset":10},"retryable":false}}

  `code` is `Relate.<TCK type>.<kind>`, `position` is null when the error has none.  In a script
  of several statements the object also carries `statement`, the 1-based number of the failing
  one, and `position` counts in the script text, not in the statement.
- the exit code of the error's class (`RelateError.exit_code`).
"""
from __future__ import annotations

from ..errors import Position, RelateError, UsageError
from ..output.jsonout import dumps
from .script import Statement


def locate(offset: int, source: str) -> Position:
    """The line and column (1-based, in characters) of `offset` in `source`."""
    offset = max(0, min(offset, len(source)))
    line = source.count("\n", 0, offset) + 1
    start = source.rfind("\n", 0, offset) + 1
    return Position(offset, line, offset - start + 1)


def relocate(position: Position | None, statement: Statement | None, source: str) -> Position | None:
    """An engine position (in the statement's text) -> the same place in the script."""
    if position is None or statement is None:
        return position
    return locate(statement.offset + position.offset, source)


def message(e: RelateError) -> str:
    """The error's message without the `Error: ` that usage errors carry for stderr."""
    text = e.message
    return text[len("Error: "):] if isinstance(e, UsageError) and text.startswith("Error: ") else text


def error_object(e: RelateError, position: Position | None = None, statement: int | None = None) -> dict:
    """The typed error printed on stdout in the JSON and TOON modes."""
    pos = position if position is not None else e.position
    body: dict = {
        "code": f"Relate.{e.tck_type}.{e.kind}",
        "kind": e.kind,
        "message": message(e),
        "phase": e.phase,
        "position": None if pos is None else {"column": pos.column, "line": pos.line, "offset": pos.offset},
        "retryable": e.retryable,
    }
    if statement is not None:
        body["statement"] = statement
    return {"error": body}


def error_text(obj: dict, mode: str) -> str:
    """The error object as `mode` prints it on stdout ("" for the table mode)."""
    if mode in ("envelope", "jsonl"):
        return dumps(obj) + "\n"
    if mode == "toon":
        from ..output.toon import encode_field  # only a failure in TOON mode needs the encoder
        return "\n".join(encode_field("error", obj["error"])) + "\n"
    return ""


def excerpt(source: str, position: Position) -> list[str]:
    """The source line holding `position`, and a caret under the character it points at."""
    lines = source.split("\n")
    if not 1 <= position.line <= len(lines):
        return []
    text = lines[position.line - 1].replace("\t", " ")
    if not text.strip():
        return []
    lead = text[:position.column - 1]
    from ..output.table import width  # display width, as the table mode measures it
    return ["  " + text.rstrip(), "  " + " " * width(lead) + "^"]
