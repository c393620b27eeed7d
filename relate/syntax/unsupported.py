"""A statement the grammar refused -> the Neo4j construct it is, when that is one relate does not
serve (`UnsupportedClause`, at the construct's first word), else None.

Administration commands (databases, aliases, servers, users, roles, privileges), the SHOW
listings relate has no data for, `TERMINATE TRANSACTIONS` and `USE <graph>` are valid Neo4j 5
Cypher that relate does not run; a command of Neo4j Browser or cypher-shell (`:param`, `:use`)
is not Cypher at all.  They are told apart by their leading words, and only once parsing has
failed, so the grammar carries none of them and a statement relate runs pays nothing.
"""
from __future__ import annotations

import re

from ..errors import CypherSyntaxError
from .position import syntax_error

_WORD = re.compile(r"(?:\s+|//[^\n]*|/\*.*?(?:\*/|\Z))*(`(?:[^`]|``)*`|[^\W\d]\w*|\S)", re.S)
_LEAD = 8  # words read from the start: enough for `SHOW USER DEFINED FUNCTIONS EXECUTABLE BY`

_ONE_GRAPH = "relate serves one graph per store (choose the store with --database, or relate.connect(path))"
_NO_USERS = ("relate has no users, roles or privileges (limit what a connection may do with --read-only "
             "or --safe, and guard `relate serve` over HTTP with --auth)")
_WHY = {
    "DATABASE": _ONE_GRAPH, "ALIAS": _ONE_GRAPH, "SERVER": _ONE_GRAPH,
    "USER": _NO_USERS, "ROLE": _NO_USERS, "PRIVILEGE": _NO_USERS,
    "PROCEDURE": "relate has no procedure listing (db.labels(), db.relationshipTypes() and db.propertyKeys() "
                 "are its procedures)",
    "FUNCTION": "relate has no function listing (the Cypher reference lists its functions)",
    "TRANSACTION": "relate runs one statement at a time per connection and keeps no list of transactions",
    "SETTING": "relate has no server settings (its options are command-line flags: relate --help)",
    "USE": "relate serves one graph per store, so there is no graph to choose (drop the USE clause; the "
           "store is chosen with --database or relate.connect(path))",
}
# the object words of administration commands, singular -> the family in `_WHY`
_OBJECTS = {
    "DATABASE": "DATABASE", "DATABASES": "DATABASE", "ALIAS": "ALIAS", "ALIASES": "ALIAS",
    "SERVER": "SERVER", "SERVERS": "SERVER", "USER": "USER", "USERS": "USER", "ROLE": "ROLE",
    "ROLES": "ROLE", "PRIVILEGE": "PRIVILEGE", "PRIVILEGES": "PRIVILEGE", "PROCEDURE": "PROCEDURE",
    "PROCEDURES": "PROCEDURE", "FUNCTION": "FUNCTION", "FUNCTIONS": "FUNCTION",
    "TRANSACTION": "TRANSACTION", "TRANSACTIONS": "TRANSACTION", "SETTING": "SETTING", "SETTINGS": "SETTING",
}
_PLURAL = {"DATABASE": "DATABASES", "ALIAS": "ALIASES", "SERVER": "SERVERS", "USER": "USERS", "ROLE": "ROLES",
           "PRIVILEGE": "PRIVILEGES", "PROCEDURE": "PROCEDURES", "FUNCTION": "FUNCTIONS",
           "TRANSACTION": "TRANSACTIONS", "SETTING": "SETTINGS"}
# verbs of the administration commands, with the objects each takes
_ADMIN = {
    "CREATE": {"DATABASE", "ALIAS", "USER", "ROLE"},
    "DROP": {"DATABASE", "ALIAS", "USER", "ROLE", "SERVER"},
    "ALTER": {"DATABASE", "ALIAS", "USER", "SERVER"},
    "RENAME": {"USER", "ROLE", "SERVER"},
    "START": {"DATABASE"}, "STOP": {"DATABASE"}, "ENABLE": {"SERVER"},
    "DEALLOCATE": {"DATABASE"}, "REALLOCATE": {"DATABASE"},
}
_FILLERS = {"OR", "REPLACE", "COMPOSITE", "CURRENT", "IF", "NOT", "EXISTS"}
_CLIENT = {
    "param": "set parameters with --param NAME=VALUE or --params JSON on the command line (relate's "
             "interactive shell takes :param NAME=VALUE), or pass a parameters map (the Python API, MCP's "
             "parameters argument)",
    "use": _ONE_GRAPH,
}
_CLIENT["params"] = _CLIENT["param"]


def refused(text: str, at: int) -> CypherSyntaxError | None:
    """The `UnsupportedClause` for `text`, which did not parse (`at`: where reading stopped)."""
    words = [(m.group(1), m.start(1)) for _, m in zip(range(_LEAD), _WORD.finditer(text))]
    while words and words[0][0].upper() in ("EXPLAIN", "PROFILE"):
        words.pop(0)
    if not words:
        return None
    first, pos = words[0][0].upper(), words[0][1]
    up = [w.upper() for w, _ in words]
    if first == ":" and len(words) > 1 and words[1][1] == pos + 1 and words[1][0].isidentifier():
        name = words[1][0]
        advice = _CLIENT.get(name.lower(), "run Cypher statements only")
        return _error(text, f":{name} is a command of Neo4j Browser and cypher-shell, not Cypher: {advice}", pos)
    if first in ("GRANT", "DENY", "REVOKE") and len(words) > 1:
        return _unsupported(text, first, "PRIVILEGE", pos)
    if first == "TERMINATE" and len(up) > 1 and _OBJECTS.get(up[1]) == "TRANSACTION":
        return _unsupported(text, "TERMINATE TRANSACTIONS", "TRANSACTION", pos)
    if first == "SHOW":
        return _show(text, up, pos)
    if first in _ADMIN:
        i = 1
        while i < len(up) and up[i] in _FILLERS:
            i += 1
        family = _OBJECTS.get(up[i]) if i < len(up) else None
        # `CREATE user = (a)` names a path: an object word followed by `=` or `(` is a variable
        if family in _ADMIN[first] and (i + 1 >= len(up) or up[i + 1] not in ("=", "(")):
            kept = "".join(f" {w}" for w in up[1:i] if w in ("COMPOSITE", "CURRENT"))
            return _unsupported(text, f"{first}{kept} {family}", family, pos)
    use = _use_at(text, pos) if first == "USE" else None
    if use is None:
        use = _use_at(text, at)
    if use is not None:
        return _unsupported(text, "USE", "USE", use)
    return None


# when several object words follow SHOW, the listing is named by the one that says what it lists
# (`SHOW USER alice PRIVILEGES`, `SHOW USER DEFINED FUNCTIONS`)
_SHOW_FIRST = ("PRIVILEGE", "FUNCTION", "PROCEDURE", "TRANSACTION", "SETTING")


def _show(text: str, up: list[str], pos: int) -> CypherSyntaxError | None:
    found: list[str] = []
    for i, w in enumerate(up[1:7], 1):
        if w in ("INDEX", "INDEXES", "CONSTRAINT", "CONSTRAINTS"):
            return None  # relate's own SHOW: the syntax error stands
        family = _OBJECTS.get(w)
        if family is not None:
            found.append("CURRENT USER" if family == "USER" and up[i - 1] == "CURRENT" else family)
    if not found:
        return None
    family = next((f for f in _SHOW_FIRST if f in found), found[0])
    if family == "CURRENT USER":
        return _unsupported(text, "SHOW CURRENT USER", "USER", pos)
    return _unsupported(text, f"SHOW {_PLURAL[family]}", family, pos)


def _use_at(text: str, at: int) -> int | None:
    """`at` when the word there is `USE` followed by a graph name (`CALL { USE g ... }`)."""
    m = _WORD.match(text, at)
    if m is None or m.group(1).upper() != "USE":
        return None
    nxt = _WORD.match(text, m.end())
    return m.start(1) if nxt is not None and (nxt.group(1)[0].isalpha() or nxt.group(1)[0] == "`") else None


def _unsupported(text: str, construct: str, family: str, pos: int) -> CypherSyntaxError:
    return _error(text, f"{construct} is not supported by relate: {_WHY[family]}", pos)


def _error(text: str, detail: str, pos: int) -> CypherSyntaxError:
    return syntax_error(text, detail, pos, "UnsupportedClause")
