"""LOAD CSV -> `exec/load_csv.LoadCsv`: the source compiled once, the row variable and the clause's
two hidden slots (what `linenumber()` and `file()` read) added to the scope.  The plan keeps the
first clause's offset (`loads_csv`), so that `Database.run` asks the policy for an import folder before it runs."""
from __future__ import annotations

from ..errors import E
from ..exec.load_csv import LoadCsv, hidden_names
from ..syntax import ast as A


def plan_load_csv(planner, c: A.LoadCsv, op, scope):
    fn = planner.compiler.compile(c.source, scope)
    if scope.has(c.variable):
        raise E.Internal.Internal(f"planner: LOAD CSV rebinds `{c.variable}`")
    scope, _ = scope.extended(c.variable)
    for name in hidden_names(c.pos):
        scope, _ = scope.extended(name)
    if planner.loads_csv is None:
        planner.loads_csv = c.pos
    delim = c.terminator.value if isinstance(c.terminator, A.Literal) else ","
    return LoadCsv(op, fn, c.variable, c.headers, delim), scope
