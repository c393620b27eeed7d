"""Running a schema command (`ast.CreateIndex`, `DropIndex`, `CreateConstraint`, `DropConstraint`)
against a graph, with Neo4j 5's refusals, in this order:

- a name already taken: by an equivalent object (same name, kind and schema) ->
  EquivalentSchemaRuleAlreadyExists; by another index -> IndexWithNameAlreadyExists; by another
  constraint -> ConstraintWithNameAlreadyExists;
- the schema already covered: an index of the same type on the same schema -> IndexAlreadyExists;
  a constraint of the same kind (uniqueness and key count as one, so do two property types) ->
  ConstraintAlreadyExists; a uniqueness or key constraint where a plain range index holds the
  schema (its index would collide) -> IndexAlreadyExists;
- data already there that breaks a new constraint -> ConstraintCreationFailed.
`IF NOT EXISTS` turns every one of these but the last into a no-op.  Drops: a missing index ->
IndexNotFound, the index a constraint owns -> IndexDropFailed, a missing constraint ->
ConstraintDropFailed; `IF EXISTS` turns a missing one into a no-op.  A name may be a parameter.
"""
from __future__ import annotations

from ..errors import E
from ..syntax import ast as A
from ..values import type_name
from . import constraint_check
from .schema_defs import NODE, ConstraintDef, ConstraintKind, IndexDef


def _name(name, params) -> str | None:
    if isinstance(name, A.Parameter):
        value = params.get(name.name)
        if not isinstance(value, str):
            raise E.Semantic.InvalidSchemaName(type=type_name(value))
        return value
    return name


def _default_index_name(body: A.CreateIndex) -> str:
    prefix = "relate_" + ("" if body.kind == "RANGE" else body.kind.lower() + "_")
    prefix += "" if body.entity == NODE else "rel_"
    return prefix + "_".join((body.label,) + body.more_labels) + "__" + "_".join(body.properties)


def _default_constraint_name(body: A.CreateConstraint) -> str:
    rel = "" if body.entity == NODE else "rel_"
    return f"relate_{rel}{body.label}__{'_'.join(body.properties)}_{body.kind}"


def _schema_text(entity: str, label: str, keys) -> str:
    inner = "{" + ", ".join(keys) + "}"
    return f"(:{label} {inner})" if entity == NODE else f"()-[:{label} {inner}]-()"


def run(graph, body, params: dict, stats) -> None:
    if isinstance(body, A.CreateIndex):
        _create_index(graph, body, params, stats)
    elif isinstance(body, A.CreateConstraint):
        _create_constraint(graph, body, params, stats)
    elif isinstance(body, A.DropIndex):
        _drop_index(graph, body, params, stats)
    else:
        _drop_constraint(graph, body, params, stats)


def _name_taken(graph, name: str, equivalent: bool, if_not_exists: bool, what: str) -> bool:
    """True (a no-op) or raise when `name` is taken; False when it is free."""
    taken_by_constraint = name in graph.constraints
    if not taken_by_constraint and name not in graph.indexes:
        return False
    if if_not_exists:
        return True
    if equivalent:
        raise E.Semantic.EquivalentSchemaRuleAlreadyExists(what=what, name=name)
    if taken_by_constraint:
        raise E.Semantic.ConstraintWithNameAlreadyExists(name=name)
    raise E.Semantic.IndexWithNameAlreadyExists(name=name)


def _create_index(graph, body: A.CreateIndex, params, stats) -> None:
    name = _name(body.name, params) or _default_index_name(body)
    d = IndexDef(name, body.label, body.properties[0], body.kind, body.entity, tuple(body.properties[1:]),
                 tuple(body.more_labels))
    old = graph.indexes.get(name)
    if _name_taken(graph, name, old is not None and old.owner is None and old.same_schema(d),
                   body.if_not_exists, "index"):
        return
    for other in graph.indexes.values():
        if other.same_schema(d):
            if body.if_not_exists:
                return
            if other.owner is not None:
                raise E.Semantic.IndexAlreadyExists(
                    f"the constraint `{other.owner}` already has an index on "
                    f"{_schema_text(d.entity, d.label, d.keys)}")
            raise E.Semantic.IndexAlreadyExists(label=d.label, key=", ".join(d.keys))
    graph.create_index(d)
    stats.indexes_added += 1


def _conflicts(a: ConstraintDef, b: ConstraintDef) -> bool:
    if (a.entity, a.label, a.keys) != (b.entity, b.label, b.keys):
        return False
    if a.owns_index and b.owns_index:
        return True
    return a.kind is b.kind


def _create_constraint(graph, body: A.CreateConstraint, params, stats) -> None:
    name = _name(body.name, params) or _default_constraint_name(body)
    d = ConstraintDef(name, ConstraintKind(body.kind), body.label, tuple(body.properties), body.entity,
                      body.property_type)
    old = graph.constraints.get(name)
    if _name_taken(graph, name, old == d, body.if_not_exists, "constraint"):
        return
    for other in graph.constraints.values():
        if _conflicts(d, other):
            if body.if_not_exists:
                return
            raise E.Semantic.ConstraintAlreadyExists(
                f"a {other.type_name} constraint `{other.name}` already holds "
                f"{_schema_text(d.entity, d.label, d.keys)}")
    if d.owns_index:
        owned = d.owned_index()
        for other in graph.indexes.values():
            if other.same_schema(owned):
                if body.if_not_exists:
                    return
                raise E.Semantic.IndexAlreadyExists(
                    f"the index `{other.name}` already covers {_schema_text(d.entity, d.label, d.keys)}; a "
                    "constraint cannot be created until the index has been dropped")
    constraint_check.check_existing(graph, d)
    graph.create_constraint(d)
    stats.constraints_added += 1


def _drop_index(graph, body: A.DropIndex, params, stats) -> None:
    name = _name(body.name, params)
    d = graph.indexes.get(name)
    if d is None:
        if body.if_exists:
            return
        raise E.Semantic.IndexNotFound(name=name)
    if d.owner is not None:
        raise E.Semantic.IndexDropFailed(name=name)
    graph.drop_index(name)
    stats.indexes_removed += 1


def _drop_constraint(graph, body: A.DropConstraint, params, stats) -> None:
    name = _name(body.name, params)
    if name not in graph.constraints:
        if body.if_exists:
            return
        raise E.Semantic.ConstraintDropFailed(name=name)
    graph.drop_constraint(name)
    stats.constraints_removed += 1
