"""`CALL` clauses -> a `ProcedureCall` operator, with the checks only the registry can answer.

A call names a procedure of the database's registry (`ProcedureNotFound` otherwise).  Explicit
arguments must match the signature's count (`InvalidNumberOfArguments`); a standalone call
written without parentheses takes each argument from the parameter of the same name.  A
standalone call without YIELD returns every output column; inside a larger query only the
yielded names are bound, and `YIELD *` is refused there.
"""
from __future__ import annotations

from ..errors import CypherSemanticError, CypherSyntaxError, CypherTypeError, ProcedureError
from ..exec import operators as O
from ..semantic import types as T
from ..exec.compile import Scope
from ..procedures import coerce_argument
from ..syntax import ast as A
from ..syntax.parser import position

_KINDS = {"INTEGER": T.Kind.INTEGER, "FLOAT": T.Kind.FLOAT | T.Kind.INTEGER,
          "NUMBER": T.Kind.INTEGER | T.Kind.FLOAT, "STRING": T.Kind.STRING,
          "BOOLEAN": T.Kind.BOOLEAN, "MAP": T.Kind.MAP, "LIST": T.Kind.LIST, "NODE": T.Kind.NODE,
          "RELATIONSHIP": T.Kind.RELATIONSHIP, "PATH": T.Kind.PATH}
_OUT_TYPES = {"INTEGER": T.INTEGER, "FLOAT": T.FLOAT, "STRING": T.STRING, "BOOLEAN": T.BOOLEAN,
              "MAP": T.MAP}


class CallPlanner:
    """Mixed into the planner (needs `self.procedures`, `self.compiler`, `self.text`)."""

    def _call(self, c: A.Call, op, scope: Scope, standalone: bool):
        pos = position(self.compiler.text, c.pos) if self.compiler.text else None
        proc = self.procedures.get(c.procedure) if self.procedures is not None else None
        if proc is None:
            raise ProcedureError("ProcedureNotFound",
                                 f"There is no procedure with the name `{c.procedure}` registered for this "
                                 "database instance", position=pos)
        sig = proc.signature
        if c.args is None:
            if not standalone:
                raise CypherSyntaxError("InvalidArgumentPassingMode",
                                        "Procedure call inside a query does not support passing arguments "
                                        "implicitly (pass them explicitly in parentheses)", position=pos)
            args = tuple(A.Parameter(f.name, c.pos) for f in sig.inputs)
            self.implicit_parameters.extend(f.name for f in sig.inputs)
        else:
            args = c.args
            if len(args) != len(sig.inputs):
                raise CypherSemanticError(
                    "InvalidNumberOfArguments",
                    f"Procedure call does not provide the required number of arguments: got {len(args)} "
                    f"argument(s), expected {len(sig.inputs)} for {sig.name}", position=pos)
        for f, a in zip(sig.inputs, args):
            t = scope.typer.of(a)
            want = _KINDS.get(f.type)
            if want is not None and not T.admits(t, want):
                raise CypherSyntaxError("InvalidArgumentType",
                                        f"Type mismatch: expected {f.type.title()} but was {T.describe(t.kinds)}",
                                        position=pos)
        arg_fns = [self.compiler.compile(a, scope) for a in args]
        names = [f.name for f in sig.outputs]
        if c.yield_star and not standalone:
            raise CypherSyntaxError("UnexpectedSyntax",
                                    "YIELD * is only allowed in a standalone procedure call", position=pos)
        if c.yields:
            picks, aliases = [], []
            for y in c.yields:
                if y.name not in names:
                    raise CypherSemanticError("UndefinedVariable",
                                              f"Unknown procedure output: `{y.name}`", position=pos)
                picks.append(names.index(y.name))
                aliases.append(y.alias or y.name)
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
                    raise CypherTypeError("InvalidArgumentType",
                                          f"procedure argument `{f.name}` expects {f.type}") from None
            return tuple(out)
        op = O.ProcedureCall(op, proc, arg_fns, coerce, picks)
        for k, alias in zip(picks, aliases):
            scope, _ = scope.extended(alias, _OUT_TYPES.get(sig.outputs[k].type, T.ANY))
        if c.where is not None:
            op = O.Filter(op, self.compiler.compile(c.where, scope), "")
        columns = tuple(aliases) if standalone else None
        return op, scope, columns
