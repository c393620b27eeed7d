"""Graph -> the schema map `get_schema` answers with.

Per label: `type` "node", `count` (exact), `properties` (key -> inferred type, from the first
`sample_size` nodes in id order; the first type seen wins) and, when any were sampled,
`relationships`: the first `sample_size` outgoing relationships of those nodes in id order, by
type, with the labels at the far end and the relationship's own property types.

A property a constraint covers also says so, as `apoc.meta.schema` does: `"unique": true` under a
uniqueness or key constraint on that one property, `"existence": true` under an existence or key
constraint.  A graph without constraints gets exactly the shape above.
"""
from __future__ import annotations

from .values import type_name

_TYPE_NAMES = {"STRING": "String", "INTEGER": "Integer", "FLOAT": "Float", "BOOLEAN": "Boolean",
               "LIST": "List", "MAP": "Map"}


def _type(value: object) -> str:
    t = type_name(value)
    return _TYPE_NAMES.get(t, t.title())


def _flags(graph) -> dict:
    """(entity, label or type, key) -> the flags its constraints add."""
    flags: dict = {}
    for c in graph.constraints.values():
        kind = c.kind.value
        if kind in ("unique", "key") and len(c.keys) == 1:
            flags.setdefault((c.entity, c.label, c.keys[0]), {})["unique"] = True
        if kind in ("not_null", "key"):
            for k in c.keys:
                flags.setdefault((c.entity, c.label, k), {})["existence"] = True
    return flags


def infer_schema(graph, sample_size: int = 1000) -> dict:
    out: dict = {}
    flags = _flags(graph) if graph.constraints else {}
    for label in sorted(graph.by_label):
        members = graph.by_label[label]
        if not members:
            continue
        nodes = sorted(members.values(), key=lambda n: n.id)
        if sample_size >= 0:
            nodes = nodes[:sample_size]
        props: dict = {}
        for n in nodes:
            for k, v in n.props.items():
                if k not in props:
                    props[k] = {"type": _type(v), **flags.get(("NODE", label, k), {})}
        rels = []
        for n in nodes:
            rels.extend(graph.out_rels(n))
        rels.sort(key=lambda r: r.id)
        if sample_size >= 0:
            rels = rels[:sample_size]
        entry: dict = {"count": len(members), "properties": props, "type": "node"}
        if rels:
            rel_map: dict = {}
            for r in rels:
                info = rel_map.setdefault(r.type, {"direction": "out", "labels": []})
                for lb in sorted(r.end.labels):
                    if lb not in info["labels"]:
                        info["labels"].append(lb)
                for k, v in r.props.items():
                    rprops = info.setdefault("properties", {})
                    if k not in rprops:
                        rprops[k] = {"type": _type(v), **flags.get(("RELATIONSHIP", r.type, k), {})}
            for info in rel_map.values():
                info["labels"].sort()
            entry["relationships"] = rel_map
        out[label] = entry
    return out
