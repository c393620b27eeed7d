"""`--max-traversal-depth`: a typed statement -> nothing, or a `TraversalDepthExceeded` error.

The check is static: every variable-length relationship pattern with an explicit hop bound
(`*..600`, `*600`, `*600..`) is compared with the limit before anything runs, wherever the pattern
sits (MATCH, MERGE, CREATE, pattern predicates and comprehensions, subqueries).  An unbounded `*`
names no bound and is not refused here.  The walk uses an explicit stack, never recursion.
"""
from __future__ import annotations

from ..errors import E
from ..syntax import ast as A
from ..syntax.parser import position

KIND = "TraversalDepthExceeded"
DEFAULT_MAX_DEPTH = 500
MIN_LIMIT, MAX_LIMIT = 1, 2000


def check_traversal_depth(statement: A.Statement, limit: int) -> None:
    """Raise `CypherSemanticError(TraversalDepthExceeded)` for an explicit hop bound over `limit`."""
    stack: list = [statement.body]
    while stack:
        n = stack.pop()
        if isinstance(n, A.RelPattern):
            if n.length is not None:
                worst = max((b for b in n.length if b is not None), default=None)
                if worst is not None and worst > limit:
                    pos = position(statement.text, n.pos) if statement.text else None
                    raise E.Semantic.TraversalDepthExceeded(worst=worst, limit=limit, position=pos)
            continue
        if isinstance(n, (list, tuple)):
            stack.extend(n)
        elif isinstance(n, A.Node):
            stack.extend(getattr(n, f) for f in n.__dataclass_fields__)
