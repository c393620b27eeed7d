"""A schema command -> the one operator EXPLAIN shows for it (the database runs the command itself,
`storage/schema_commands.py`): CreateIndex, DropIndex, CreateConstraint or DropConstraint, with the
schema in its details."""
from __future__ import annotations

from ..exec import operators as O
from ..syntax import ast as A

_RULES = {"unique": "IS UNIQUE", "not_null": "IS NOT NULL", "key": "IS KEY", "type": "IS ::"}


def _schema(entity: str, labels, keys) -> str:
    inner = "{" + ", ".join(keys) + "}"
    names = "|".join(labels)
    return f"(:{names} {inner})" if entity == "NODE" else f"()-[:{names} {inner}]-()"


def _name(name) -> str:
    return "$" + name.name if isinstance(name, A.Parameter) else str(name)


def schema_operator(body) -> O.Operator:
    op = O.Operator()
    op.name = type(body).__name__
    if isinstance(body, A.CreateIndex):
        text = _schema(body.entity, (body.label,) + body.more_labels, body.properties)
        op.details = text if body.kind == "RANGE" else f"{body.kind} {text}"
    elif isinstance(body, A.CreateConstraint):
        rule = _RULES[body.kind] + (f" {body.property_type}" if body.property_type else "")
        if body.kind == "key":
            rule = "IS NODE KEY" if body.entity == "NODE" else "IS RELATIONSHIP KEY"
        op.details = f"{_schema(body.entity, (body.label,), body.properties)} {rule}"
    else:
        op.details = _name(body.name)
    return op
