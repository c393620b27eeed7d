"""Where clauses may stand in a single query: RETURN and FINISH only last; a query ends with RETURN,
FINISH, an updating clause or CALL (a procedure or a subquery)."""
from __future__ import annotations

from ...errors import E
from ...syntax import ast as A

_MAY_END = (A.Return, A.Create, A.Merge, A.SetClause, A.Remove, A.Delete, A.Foreach, A.Call,
            A.SubqueryCall, A.Finish)


def return_last(c: A.Clause, last: bool) -> None:
    if isinstance(c, A.Return) and not last:
        raise E.Syntax.InvalidClauseComposition("RETURN can only be used at the end of the query")
    if isinstance(c, A.Finish) and not last:
        raise E.Syntax.InvalidClauseComposition("FINISH can only be used at the end of the query")


def conclusion(last: A.Clause) -> None:
    if not isinstance(last, _MAY_END):
        raise E.Syntax.InvalidClauseComposition(
            "Query cannot conclude with " + _WORDS.get(type(last), type(last).__name__.upper().replace("CLAUSE", "")))


_WORDS = {A.LoadCsv: "LOAD CSV"}


def unsupported(c: A.Clause) -> None:
    """A clause the planner has no rule for."""
    raise E.Syntax.UnsupportedClause(f"{type(c).__name__.upper()} is not supported yet")
