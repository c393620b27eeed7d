"""The terminals lark would have accepted where reading stopped -> a short list a reader can act on.

lark names its terminals (`RPAR`, `__ANON_2`, the prescan's private marks); a syntax error shows
what they stand for instead (`")"`, `"<="`, `"("`), quoted as Neo4j quotes them.  Where the set
is large it is folded into what it means: every way an expression can start is "an expression",
the binary operators with the postfix forms (`.`, `[`, `:`, a call's `(`) are "an operator", the
clause keywords are "a clause", the end of input with `;` is "the end of the statement".  The
list keeps at most `MAX_SHOWN` entries.
"""
from __future__ import annotations

from collections.abc import Collection

MAX_SHOWN = 8

# what a terminal reads as when lark's name is not its text
_TEXT = {
    "LABEL_BAR": "|", "TYPE_BAR": "|",
    "LIST_OPEN": "LIST<", "ANY_OPEN": "ANY<", "WITH_TIME_ZONE": "WITH TIME ZONE", "INF": "INFINITY",
    "SHORTESTPATH": "shortestPath", "ALLSHORTESTPATHS": "allShortestPaths",
}
_NAMES = frozenset({"NAME", "ESCAPED_NAME"})
_LITERALS = frozenset({"INTEGER", "FLOAT", "STRING"})
# every terminal an expression can start with (a literal among them marks an expression slot)
_EXPR_START = _LITERALS | _NAMES | frozenset({
    "TRUE", "FALSE", "NULL", "INF", "NAN", "DOLLAR", "LPAR", "NODE_OPEN", "LSQB", "LBRACE", "CASE",
    "COUNT", "EXISTS", "ALL", "ANY", "NONE", "SINGLE", "REDUCE", "TRIM", "NOT", "PLUS", "DASH",
    "SHORTESTPATH", "ALLSHORTESTPATHS", "SUBQ_OPEN", "PATH_OPEN"})
# keywords a name may also be where a name can stand (`RETURN 1 AS count`)
_NAME_WORDS = frozenset({"COUNT", "ALL", "ANY", "NONE", "SINGLE", "EXISTS", "REDUCE", "TRIM"})
_BINARY = frozenset({
    "AND", "OR", "XOR", "PLUS", "DASH", "STAR", "SLASH", "PERCENT", "CIRCUMFLEX", "EQUAL", "LESSTHAN",
    "MORETHAN", "__ANON_1", "__ANON_2", "__ANON_3", "__ANON_4", "DOUBLE_BAR", "CONTAINS", "STARTS", "ENDS",
    "IN", "IS"})
# what may follow an expression besides an operator: a property, an index, a label test, a cast,
# and after a bare name a call, a map projection, a namespaced name
_POSTFIX = frozenset({"DOT", "NS_DOT", "LSQB", "COLON", "COLONCOLON", "LPAR", "LBRACE", "SUBQ_OPEN", "RANGE_DOTS"})
_CLAUSES = frozenset({
    "MATCH", "OPTIONAL", "UNWIND", "WITH", "RETURN", "CREATE", "INSERT", "MERGE", "SET", "REMOVE",
    "DELETE", "DETACH", "FOREACH", "CALL", "FINISH", "LOAD", "UNION", "ORDER", "SKIP", "OFFSET", "LIMIT"})
_END = frozenset({"$END", "SEMICOLON"})
_CLOSERS = (")", "]", "}", ",")


def expected_text(accepts: Collection[str], terminals: dict[str, str], token: str | None = None) -> str:
    """`expected ...` for the terminal names in `accepts` ("" for none).  `terminals` maps a
    terminal's name to its literal text (for keywords and punctuation, the prescan's marks as
    the characters they stand for); `token`, the offending
    word, adds a "did you mean" when it is a near miss of a keyword that fits."""
    names = set(accepts)
    if not names:
        return ""
    phrases: list[str] = []
    if _LITERALS & names:
        names -= _EXPR_START
        phrases.append("an expression")
    elif _NAMES & names:
        names -= _NAMES | _NAME_WORDS
        phrases.append("a name")
    if len(_BINARY & names) >= 3:
        names -= _BINARY | _POSTFIX
        phrases.append("an operator")
    if len(_CLAUSES & names) >= 3:
        names -= _CLAUSES
        phrases.append("a clause")
    end = bool(_END & names)
    names -= _END
    shown = sorted({_shown(n, terminals) for n in names}, key=_order)
    tail = phrases + (["the end of the statement"] if end else [])
    entries = [f'"{s}"' for s in shown]
    if len(entries) + len(tail) > MAX_SHOWN:  # the categories stay; the single tokens are cut
        keep = MAX_SHOWN - 1 - len(tail)
        entries = entries[:keep] + [f"{len(entries) - keep} other tokens"]
    entries += tail
    text = "expected " + (entries[0] if len(entries) == 1 else ", ".join(entries[:-1]) + " or " + entries[-1])
    hint = _near_miss(token, (_shown(n, terminals) for n in accepts if n.isalpha()))
    return text + (f' (did you mean "{hint}"?)' if hint else "")


def _shown(name: str, terminals: dict[str, str]) -> str:
    if name in _TEXT:
        return _TEXT[name]
    text = terminals.get(name)
    return (text.upper() if text.isalpha() else text) if text else name


def _order(text: str) -> tuple[int, str]:
    """Closing brackets and `,` first (what most often ends what was being written), then other
    punctuation, then keywords."""
    if text in _CLOSERS:
        return (0, str(_CLOSERS.index(text)))
    return (2 if text[:1].isalpha() else 1, text)


def _near_miss(token: str | None, words) -> str | None:
    if not token or not token.isalpha() or len(token) < 3:
        return None
    import difflib  # on the error path only
    candidates = sorted({w for w in words if w.isalpha() and w.upper() != token.upper()})
    found = difflib.get_close_matches(token.upper(), [w.upper() for w in candidates], n=1, cutoff=0.75)
    return found[0] if found else None
