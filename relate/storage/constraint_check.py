"""Constraints against data: the nodes and relationships one statement wrote (`check_written`, run
by the engine when the statement's last row is made, before the commit) and the data already
there when a constraint is created (`check_existing`).  A violation raises a ConstraintError
(tck type ConstraintValidationFailed) naming the entity, the schema and the constraint; the
engine then undoes the whole statement.

Rules (Neo4j 5): UNIQUE holds among the entities that have every key (values equal in Cypher's
sense: 1 and 1.0 clash); NOT NULL needs the key; KEY needs every key and is UNIQUE; TYPE needs a
present value to have one of the constraint's types (`schema_types.py`).  Checking at the end of
the statement lets a statement create a node and set its required property later on.
"""
from __future__ import annotations

from ..errors import E
from ..values import Node
from ..values.compare import equals, hashable
from ..values.text import to_text
from .schema_defs import NODE, ConstraintDef, ConstraintKind
from .schema_types import conforms, value_type


def _what(entity, c: ConstraintDef) -> str:
    kind = "Node" if isinstance(entity, Node) else "Relationship"
    return f"{kind}({entity.id}) with {'label' if c.entity == NODE else 'type'} `{c.label}`"


def _missing(entity, c: ConstraintDef, creating: bool):
    if len(c.keys) == 1:
        need = f"the property `{c.keys[0]}`"
    else:
        need = "the properties (" + ", ".join(f"`{k}`" for k in c.keys) + ")"
    text = f"{_what(entity, c)} must have {need} (constraint `{c.name}`)"
    if creating:
        return E.Semantic.ConstraintCreationFailed(f"cannot create constraint `{c.name}`: {text}")
    return E.Constraint.ExistenceConstraintViolation(text)


def _duplicate(entity, other, c: ConstraintDef, creating: bool):
    kind = "Node" if isinstance(entity, Node) else "Relationship"
    where = "label" if c.entity == NODE else "type"
    props = ", ".join(f"`{k}` = {to_text(entity.props[k])}" for k in c.keys)
    noun = "property" if len(c.keys) == 1 else "properties"
    if creating:
        return E.Semantic.ConstraintCreationFailed(
            f"cannot create constraint `{c.name}`: {kind}({other.id}) and {kind}({entity.id}) both have the "
            f"{where} `{c.label}` and {noun} {props}")
    return E.Constraint.UniquenessConstraintViolation(
        f"{kind}({other.id}) already exists with {where} `{c.label}` and {noun} {props} (constraint `{c.name}`)")


def _mistyped(entity, c: ConstraintDef, creating: bool):
    key = c.keys[0]
    got = value_type(entity.props[key]) or "LIST"
    text = (f"{_what(entity, c)} required the property `{key}` to be of type `{c.property_type}`, but was of "
            f"type `{got}` (constraint `{c.name}`)")
    if creating:
        return E.Semantic.ConstraintCreationFailed(f"cannot create constraint `{c.name}`: {text}")
    return E.Constraint.TypeConstraintViolation(text)


def _entities(graph, c: ConstraintDef):
    if c.entity == NODE:
        return list(graph.by_label.get(c.label, {}).values())
    return [r for r in graph.rels.values() if r.type == c.label]


def _present(entity, c: ConstraintDef) -> bool:
    props = entity.props
    return all(k in props for k in c.keys)


def check_existing(graph, c: ConstraintDef) -> None:
    """Raise ConstraintCreationFailed when data already there breaks `c`."""
    seen: dict = {}
    for e in _entities(graph, c):
        if c.kind in (ConstraintKind.NOT_NULL, ConstraintKind.KEY) and not _present(e, c):
            raise _missing(e, c, True)
        if c.kind is ConstraintKind.TYPE:
            key = c.keys[0]
            if key in e.props and not conforms(e.props[key], c.property_type or ""):
                raise _mistyped(e, c, True)
        if c.kind in (ConstraintKind.UNIQUE, ConstraintKind.KEY) and _present(e, c):
            k = tuple(hashable(e.props[key]) for key in c.keys)
            other = seen.get(k)
            if other is not None and all(equals(other.props[key], e.props[key]) is True for key in c.keys):
                raise _duplicate(e, other, c, True)
            seen.setdefault(k, e)


def check_written(graph, touched: dict) -> None:
    """Raise the first violation among the entities a statement wrote (`Graph.touched`)."""
    node_rules: dict[str, list[ConstraintDef]] = {}
    rel_rules: dict[str, list[ConstraintDef]] = {}
    for c in graph.constraints.values():
        (node_rules if c.entity == NODE else rel_rules).setdefault(c.label, []).append(c)
    groups: dict[str, dict] = {}  # composite uniqueness: constraint name -> key values -> entities
    for e in touched.values():
        if e.deleted:
            continue
        if isinstance(e, Node):
            if e.id not in graph.nodes:
                continue
            rules = [c for lb in e.labels for c in node_rules.get(lb, ())]
        else:
            if e.id not in graph.rels:
                continue
            rules = rel_rules.get(e.type, [])
        for c in rules:
            _check_one(graph, e, c, groups)


def _check_one(graph, e, c: ConstraintDef, groups: dict) -> None:
    kind = c.kind
    if kind is ConstraintKind.TYPE:
        key = c.keys[0]
        if key in e.props and not conforms(e.props[key], c.property_type or ""):
            raise _mistyped(e, c, False)
        return
    present = _present(e, c)
    if kind in (ConstraintKind.NOT_NULL, ConstraintKind.KEY) and not present:
        raise _missing(e, c, False)
    if kind is ConstraintKind.NOT_NULL or not present:
        return
    if len(c.keys) == 1:
        key = c.keys[0]
        value = e.props[key]
        if c.entity == NODE:
            found = graph.index_lookup(c.label, key, value) if (c.label, key) in graph.index_data else [
                n for n in graph.by_label.get(c.label, {}).values() if equals(n.props.get(key), value) is True]
        else:
            found = graph.rel_index_lookup(c.label, key, value) if (c.label, key) in graph.rel_index_data else [
                r for r in _entities(graph, c) if equals(r.props.get(key), value) is True]
        other = next((x for x in found if x is not e), None)
        if other is not None:
            raise _duplicate(e, other, c, False)
        return
    table = groups.get(c.name)
    if table is None:
        table = groups[c.name] = {}
        for x in _entities(graph, c):
            if _present(x, c):
                table.setdefault(tuple(hashable(x.props[k]) for k in c.keys), []).append(x)
    for other in table.get(tuple(hashable(e.props[k]) for k in c.keys), ()):
        if other is not e and all(equals(other.props[k], e.props[k]) is True for k in c.keys):
            raise _duplicate(e, other, c, False)
