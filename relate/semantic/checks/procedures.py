"""CALL against the procedure registry: the procedure exists, arguments are passed the way the
call may pass them, their count and static types fit the signature, and YIELD names outputs it
has.  Every error points at the CALL clause."""
from __future__ import annotations

from ...errors import E
from ...syntax import ast as A
from .. import types as T

KINDS = {"INTEGER": T.Kind.INTEGER, "FLOAT": T.Kind.FLOAT | T.Kind.INTEGER,
         "NUMBER": T.Kind.INTEGER | T.Kind.FLOAT, "STRING": T.Kind.STRING,
         "BOOLEAN": T.Kind.BOOLEAN, "MAP": T.Kind.MAP, "LIST": T.Kind.LIST, "NODE": T.Kind.NODE,
         "RELATIONSHIP": T.Kind.RELATIONSHIP, "PATH": T.Kind.PATH}
# the static type of an output column, by its declared type (others: ANY)
OUT_TYPES = {"INTEGER": T.INTEGER, "FLOAT": T.FLOAT, "STRING": T.STRING, "BOOLEAN": T.BOOLEAN,
             "MAP": T.MAP}


def known(proc, c: A.Call, pos) -> None:
    if proc is None:
        raise E.Procedure.ProcedureNotFound(name=c.procedure, position=pos)


def implicit_arguments(standalone: bool, pos) -> None:
    if not standalone:
        raise E.Syntax.InvalidArgumentPassingMode(position=pos)


def argument_count(args, sig, pos) -> None:
    if not sig.required <= len(args) <= len(sig.inputs):
        expected = str(len(sig.inputs)) if sig.required == len(sig.inputs) else f"{sig.required} to {len(sig.inputs)}"
        raise E.Semantic.InvalidNumberOfArguments(
            f"Procedure call does not provide the required number of arguments: got {len(args)} "
            f"argument(s), expected {expected} for {sig.name}", position=pos)


def argument_types(sig, args, typer: T.Typer, pos) -> None:
    for f, a in zip(sig.inputs, args):
        t = typer.of(a)
        want = KINDS.get(f.type)
        if want is not None and not T.admits(t, want):
            raise E.Syntax.InvalidArgumentType(expected=f.type.title(), got=T.describe(t.kinds), position=pos)


def yield_star(c: A.Call, standalone: bool, pos) -> None:
    if c.yield_star and not standalone:
        raise E.Syntax.UnexpectedSyntax(position=pos)


def output(name: str, names: list[str], pos) -> None:
    if name not in names:
        raise E.Semantic.UndefinedVariable(f"Unknown procedure output: `{name}`", position=pos)
