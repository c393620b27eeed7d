"""Where `CALL { } IN TRANSACTIONS` may stand (Neo4j 5's restrictions): in the statement's own
query only, never inside another subquery (a CALL, EXISTS, COUNT or COLLECT), never in a UNION,
and never after a clause that writes, unless that write is itself inside a CALL { } IN
TRANSACTIONS (the inner transactions commit on their own: what the outer query wrote before them
would have to be in them, or in none)."""
from __future__ import annotations

from ...syntax import ast as A

_UPDATING = (A.Create, A.Merge, A.SetClause, A.Remove, A.Delete, A.Foreach)


def placement(q: A.Query, fail) -> None:
    """`fail(kind, detail, pos)` raises."""
    for part in q.parts:
        wrote = False
        for c in part.clauses:
            if isinstance(c, A.SubqueryCall):
                if c.transactions is not None:
                    if len(q.parts) > 1:
                        fail("InvalidClauseComposition",
                             "CALL { ... } IN TRANSACTIONS in a UNION is not supported", c.pos)
                    if wrote:
                        fail("InvalidClauseComposition",
                             "CALL { ... } IN TRANSACTIONS after a write clause is not supported", c.pos)
                _nested(c.query, fail)
                if c.transactions is None and writes(c.query):
                    wrote = True
                continue
            _nested(c, fail)
            if isinstance(c, _UPDATING):
                wrote = True


def _nested(node, fail) -> None:
    """An IN TRANSACTIONS anywhere inside `node` (a clause's expressions or a subquery's body)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, A.SubqueryCall) and n.transactions is not None:
            fail("InvalidClauseComposition",
                 "CALL { ... } IN TRANSACTIONS nested in a regular CALL or a subquery expression is not "
                 "supported", n.pos)
        if isinstance(n, tuple):
            stack.extend(n)
        elif isinstance(n, A.Node):
            stack.extend(getattr(n, s) for s in n.__slots__)


def writes(node) -> bool:
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, _UPDATING):
            return True
        if isinstance(n, tuple):
            stack.extend(n)
        elif isinstance(n, A.Node):
            stack.extend(getattr(n, s) for s in n.__slots__)
    return False
