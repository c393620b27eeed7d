"""`CALL` clauses -> a `ProcedureCall` operator.

A call names a procedure of the database's registry; the checking stage has already refused
unknown procedures, wrong argument counts and types, implicit arguments inside a query, `YIELD *`
inside a query and unknown outputs (`semantic/checks/procedures.py`).  A standalone call written
without parentheses takes each argument from the parameter of the same name.  A standalone call
without YIELD returns every output column; inside a larger query only the yielded names are bound.
"""
from __future__ import annotations

from ..errors import E
from ..exec import operators as O
from ..exec.compile import Scope
from ..procedures import coerce_argument
from ..syntax import ast as A


# SHOW INDEXES / SHOW CONSTRAINTS call a listing procedure (storage/schema_show.py); EXPLAIN names
# the operator as Neo4j does
_SHOW_OPERATORS = {"SHOW INDEXES": "ShowIndexes", "SHOW CONSTRAINTS": "ShowConstraints"}


class CallPlanner:
    """Mixed into the planner (needs `self.procedures`, `self.compiler`)."""

    def _call(self, c: A.Call, op, scope: Scope, standalone: bool):
        proc = self.procedures.get(c.procedure) if self.procedures is not None else None
        if proc is None:
            raise E.Internal.Internal(f"planner: procedure `{c.procedure}` is not registered")
        if proc.writes:
            self.writes = True
        sig = proc.signature
        if c.args is None:
            args = tuple(A.Parameter(f.name, c.pos) for f in sig.inputs)
            self.implicit_parameters.extend(f.name for f in sig.inputs)
        else:
            args = c.args
        arg_fns = [self.compiler.compile(a, scope) for a in args]
        names = [f.name for f in sig.outputs]
        if c.yields:
            picks = [names.index(y.name) for y in c.yields]
            aliases = [y.alias or y.name for y in c.yields]
        elif standalone:
            picks, aliases = list(range(len(names))), list(names)
        else:
            picks, aliases = [], []

        inputs = sig.inputs

        def coerce(values):
            out = []
            for f, v in zip(inputs, values):
                try:
                    out.append(coerce_argument(f, v))
                except ValueError:
                    raise E.Type.InvalidArgumentType(
                        f"procedure argument `{f.name}` expects {f.type}") from None
            # optional inputs the call left out are null
            out.extend([None] * (len(inputs) - len(out)))
            return tuple(out)
        op = O.ProcedureCall(op, proc, arg_fns, coerce, picks)
        op.name = _SHOW_OPERATORS.get(proc.name, op.name)
        op.optional = c.optional
        for k, alias in zip(picks, aliases):
            scope, _ = scope.extended(alias)
        if c.where is not None:
            op = O.Filter(op, self.compiler.compile(c.where, scope), "")
        columns = tuple(aliases) if standalone else None
        return op, scope, columns
