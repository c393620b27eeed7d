"""Who searches and at what time -> the graph a search reads and the access hook it applies.

Every search door passes through here: the MCP tools (`protocols/mcp_search.py`), the
procedures (`procedures.py`, from the statement's `ExecContext.search`) and the Python API
(`Database.fulltext_search` / `vector_search`).  A `Scope` is made by the database for one call
under one policy (`Database.search_scope`); a policy plugs in its field read rules by having a
`search_visible(label, property)` method answering a `visible(node) -> bool` hook, or None when
nothing is hidden (relate's policies have no such rules yet, so the hook is None today).

`at(graph, at_valid, at_recorded)` turns the two time options into the graph to search: the
current one when neither is given, else the history's view of (valid t, recorded tt)
(`storage/as_of.py`; t defaults to now, tt to "as recorded now").  The view is a graph of its
own, cached per time by the history, so the search state (field indexes, vector columns) it gets
on first search is kept with it.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import E
from ..storage.as_of import view
from ..temporal.instant import parse_ns

DEFAULT_HISTORY_LIMIT = 1_000_000   # `Policy.temporal_read_limit`'s default


@dataclass(frozen=True, slots=True)
class Scope:
    """One search call's access hook source and clock."""

    policy: object = None                       # the caller's policy (duck-typed: `search_visible`)
    history_limit: int = DEFAULT_HISTORY_LIMIT  # versions a search at a past time may look at
    now: Callable[[], int] = time.time_ns       # the database's clock (`Database.now`)
    current: object = None                      # the database's current graph (None: unknown)

    def visible(self, label: str, prop: str):
        """The hook hiding nodes whose `prop` the caller may not read (None: none hidden)."""
        rules = getattr(self.policy, "search_visible", None)
        return None if rules is None else rules(label, prop)

    def at(self, graph, at_valid, at_recorded):
        """The graph searched for these time options (both None: `graph` itself)."""
        if at_valid is None and at_recorded is None:
            return graph
        if getattr(graph, "is_view", False) or (self.current is not None and graph is not self.current):
            raise E.Argument.FulltextOptionInvalid(
                detail="at_valid and at_recorded cannot be used in a statement that already reads at a past "
                       "time (AS OF)")
        t = _instant("at_valid", at_valid) if at_valid is not None else self.now()
        tt = _instant("at_recorded", at_recorded) if at_recorded is not None else None
        out = view(graph, t, tt, self.history_limit)
        out.is_view = True
        return out


OPEN_SCOPE = Scope()  # no access rules, the wall clock, the default history limit


def _instant(name: str, text) -> int:
    ns = parse_ns(text) if isinstance(text, str) else None
    if ns is None:
        raise E.Argument.FulltextOptionInvalid(detail=f"{name} must be an ISO-8601 date or date time, got {text!r}")
    return ns


def of_context(ctx) -> Scope:
    """The scope a procedure call runs under: its statement's (database, policy) asked for one."""
    got = getattr(ctx, "search", None)
    if got is None:
        return OPEN_SCOPE
    db, policy = got
    return db.search_scope(policy)
