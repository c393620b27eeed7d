"""Text the parser refused at an offset -> a specific syntax error, when the refusal sits in a
malformed relationship length or number literal; None otherwise (the generic parse error stands).

The grammar reads `[:R*1..2]` and `0x1F` token by token, so a stray `..`, a minus sign in a bound
or letters glued to digits surface as "unexpected token" somewhere after the real mistake.  This
pass looks at the text around the offset and names the mistake the way openCypher's TCK does:
`InvalidRelationshipPattern` at the bad token, `InvalidNumberLiteral` at the literal's start.
"""
from __future__ import annotations

import re

from ..errors import CypherSyntaxError
from .position import syntax_error

# the variable and types that may open a relationship's brackets: `r:KNOWS|LIKES`
_REL_HEAD = re.compile(r"\s*(?:[^\W\d]\w*|`[^`]*`)?\s*(?::\s*[\w`|:!&\s]*?)?\s*(?=[*.\d-]|$)")
_LENGTH = re.compile(r"[*\d.\s-]*")
_NUMBER_RUN = re.compile(r"\d[\w.]*")


def diagnose(text: str, at: int) -> CypherSyntaxError | None:
    return _relationship(text, at) or _number(text, at)


def _relationship(text: str, at: int) -> CypherSyntaxError | None:
    if at >= len(text) or text[at] not in "*.-0123456789":
        return None
    open_ = text.rfind("[", 0, at)
    if open_ < 1 or "]" in text[open_:at] or text[:open_].rstrip()[-1:] != "-":
        return None
    head = _REL_HEAD.match(text, open_ + 1)
    if head is None:
        return None
    length = text[head.end():at]
    if _LENGTH.fullmatch(length) is None or ("*" not in length and text[at:at + 2] != ".."):
        return None
    if "*" not in length:
        detail = "a variable length relationship needs `*` before its bounds (`[:R*1..3]`)"
    elif text[at] == "-":
        detail = "a relationship length bound cannot be negative"
    elif length.count("..") or text[at:at + 2] == ".." and length.strip().rstrip("*").strip():
        detail = "a variable length relationship takes at most one `..` between two bounds"
    else:
        detail = "a relationship length is `*`, `*n`, `*n..`, `*..m` or `*n..m`"
    return syntax_error(text, f"invalid relationship pattern: {detail}", at,
                        "InvalidRelationshipPattern")


def _number(text: str, at: int) -> CypherSyntaxError | None:
    """A number glued to the word or dot that stopped the parser: `1e`, `9223372h54775808`,
    `1_000` (openCypher has no digit separators), `1.` with no fraction digits."""
    start = at
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "._"):
        start -= 1
    m = _NUMBER_RUN.match(text, start)
    if m is None or start == at or m.end() < at or (start > 0 and text[start - 1].isalnum()):
        return None
    run = m.group().rstrip(".") if m.group().endswith("..") else m.group()
    if ".." in run or m.end() == at and not run.endswith("."):
        return None
    return syntax_error(text, f"invalid number literal {run}", start, "InvalidNumberLiteral")
