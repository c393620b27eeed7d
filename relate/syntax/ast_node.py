"""The roots of the syntax tree's classes (`ast.py` and the families split from it): `Node`,
`Expr`, and the field marker for fields added after the golden parse trees were written.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Node:
    pass


# A field added after the golden parse trees were written: shown only when it differs from its default.
WHEN_SET = {"golden": "when set"}


def _opt(default=None):
    return field(default=default, metadata=WHEN_SET)


@dataclass(frozen=True, slots=True)
class Expr(Node):
    pass


@dataclass(frozen=True, slots=True)
class Parameter(Expr):
    name: str
    pos: int = 0
