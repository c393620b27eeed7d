"""Function calls: a known name, a fitting number of arguments, argument types that can fit, no
aggregate where a value is computed per row, and `exists()` of a pattern (not of a property:
Neo4j 5 removed that form).

`arity(name)` answers for the function table of the engine (lower-cased name -> (min, max)
argument counts, None when unknown); the checking stage does not own that table."""
from __future__ import annotations

from ...errors import E
from ...syntax import ast as A
from .. import types as T
from ..astwalk import AGGREGATES
from ...syntax.position import position
from .operand_types import expect


def not_aggregate(e: A.FunctionCall | A.CountStar) -> None:
    """An aggregate the planner did not lift into an aggregation (one inside a comprehension body,
    in ORDER BY after a projection that does not produce it, ...)."""
    if isinstance(e, A.CountStar):
        raise E.Semantic.InvalidAggregation(what="count(*)")
    if e.name.lower() in AGGREGATES:
        raise E.Semantic.InvalidAggregation(what=f"aggregation function {e.name}()")


def exists_argument(e: A.FunctionCall, text: str = "") -> None:
    """`exists()` takes a pattern.  Neo4j 5 removed `exists(n.prop)` (write `n.prop IS NOT NULL`)."""
    arg = e.args[0]
    if isinstance(arg, A.Property):
        raise E.Semantic.RemovedPropertyExists(position=position(text, e.pos) if text else None)
    if not isinstance(arg, A.PatternPredicate):
        raise E.Semantic.InvalidArgumentExpression()


def known(e: A.FunctionCall, arity) -> None:
    bounds = arity(e.name.lower())
    if bounds is None:
        raise E.Semantic.UnknownFunction(name=e.name)
    lo, hi = bounds
    if not lo <= len(e.args) <= hi:
        raise E.Semantic.InvalidNumberOfArguments(
            f"{e.name}() takes {lo}..{hi} argument(s), got {len(e.args)}")


_AGGREGATE_ARITY = {"percentiledisc": (2, 2), "percentilecont": (2, 2)}  # every other aggregate takes one


def aggregate_known(e: A.FunctionCall | A.CountStar) -> None:
    """An aggregate given as many arguments as it takes (`percentileCont(x)` used to fail at run
    time as an internal error, `avg()` to answer a Python sentinel)."""
    if isinstance(e, A.CountStar):
        return
    lo, hi = _AGGREGATE_ARITY.get(e.name.lower(), (1, 1))
    if not lo <= len(e.args) <= hi:
        raise E.Semantic.InvalidNumberOfArguments(
            f"{e.name}() takes {lo}..{hi} argument(s), got {len(e.args)}")


def argument_types(e: A.FunctionCall, typer: T.Typer, text: str) -> None:
    sig = T.SIGNATURES.get(e.name.lower())
    if sig is not None:
        for k, a in enumerate(e.args):
            if k < len(sig[0]):
                expect(a, typer, sig[0][k], text)
