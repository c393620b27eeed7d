"""The compact in-memory layout of `Graph`: adjacency on the nodes (tuples, dicts for busy
nodes), interned label sets, single-node index entries, the shared empty property map and the
`RelTable`, checked against a plain model through random writes and rollbacks."""
from __future__ import annotations

import random
import time

import pytest

from relate.storage import graph as G
from relate.storage.graph import Graph, IndexDef
from relate.storage.reltable import RelTable
from relate.storage.snapshot import dump_payload, load_payload


def _model_adjacency(g: Graph):
    """node id -> (out rel ids, in rel ids) from the relationships themselves, by id."""
    out: dict[int, tuple[list, list]] = {n: ([], []) for n in g.nodes}
    for r in g.rels.values():
        out[r.start.id][0].append(r.id)
        out[r.end.id][1].append(r.id)
    return out


def _check(g: Graph) -> None:
    model = _model_adjacency(g)
    for n in g.nodes.values():
        outs, ins = model[n.id]
        assert sorted(r.id for r in n.out_rels) == outs
        assert sorted(r.id for r in n.in_rels) == ins
        assert g.degree(n) == len(outs) + len(ins)
        assert n.labels is g._labels(n.labels)  # interned
        for (label, key), data in g.index_data.items():
            if label in n.labels and key in n.props:
                assert n in g.index_lookup(label, key, n.props[key])
        # expansions: every type, out / in / both, against the model
        for types in ((), ("R",), ("S",), ("R", "S"), ("S", "R"), ("X",)):
            want_out = [i for i in outs if not types or g.rels[i].type in types]
            want_in = [i for i in ins if not types or g.rels[i].type in types]
            got = g.expand(n, types, True, False)
            assert sorted(r.id for r, _ in got) == want_out
            assert all(o is r.end for r, o in got)
            got = g.expand(n, types, False, True)
            assert sorted(r.id for r, _ in got) == want_in
            assert all(o is r.start for r, o in got)
            got = g.expand(n, types, True, True)
            loops = {i for i in want_in if g.rels[i].start is n}
            assert sorted(r.id for r, _ in got) == sorted(want_out + [i for i in want_in if i not in loops])
    for (label, key), data in g.index_data.items():
        for value, held in data.items():
            nodes = list(held.values()) if isinstance(held, dict) else [held]
            assert len(nodes) == 1 or isinstance(held, dict) and len(held) >= 2
            for n in nodes:
                assert label in n.labels and n.id in g.nodes
    assert len(g.rels) == len(list(g.rels.values())) == len(set(g.rels))


def _state(g: Graph):
    # a rolled back delete comes back last in its nodes' adjacency (as it always did): sorted here
    return ({n.id: (sorted(n.labels), dict(n.props), sorted(r.id for r in n.out_rels),
                    sorted(r.id for r in n.in_rels))
             for n in g.nodes.values()},
            {r.id: (r.type, r.start.id, r.end.id, dict(r.props)) for r in g.rels.values()},
            {k: {v: (sorted(h) if isinstance(h, dict) else h.id) for v, h in d.items()}
             for k, d in g.index_data.items()})


@pytest.mark.parametrize("seed", range(12))
def test_random_writes_and_rollbacks_keep_the_layout_consistent(seed):
    rng = random.Random(seed)
    g = Graph()
    g.create_index(IndexDef("ix", "A", "k"))
    for step in range(60):
        before = _state(g)
        g.begin()
        for _ in range(rng.randint(1, 40)):
            nodes = list(g.nodes.values())
            op = rng.random()
            if op < 0.2 or len(nodes) < 3:
                g.create_node(rng.sample(["A", "B"], rng.randint(0, 2)),
                              rng.choice([{}, {"k": rng.randint(0, 5)}]))
            elif op < 0.6:
                hub = nodes[0] if rng.random() < 0.6 else rng.choice(nodes)
                other = rng.choice(nodes)
                a, b = (hub, other) if rng.random() < 0.5 else (other, hub)
                g.create_rel(rng.choice("RS"), a, b, rng.choice([{}, {"w": 1}]))
            elif op < 0.8 and g.rels:
                g.delete_rel(rng.choice(list(g.rels.values())))
            elif op < 0.87:
                ent = rng.choice(nodes + list(g.rels.values()))
                g.set_prop(ent, rng.choice("kw"), rng.choice([None, rng.randint(0, 5)]))
            elif op < 0.94:
                n = rng.choice(nodes)
                if rng.random() < 0.5:
                    g.add_label(n, rng.choice("AB"))
                else:
                    g.remove_label(n, rng.choice("AB"))
            else:
                n = rng.choice(nodes[1:])
                for r in g.node_rels(n):
                    g.delete_rel(r)
                g.delete_node(n)
        _check(g)
        if rng.random() < 0.4:
            g.txn.rollback()
            g.end()
            assert _state(g) == before
            _check(g)
        else:
            g.end()
    # the hub outgrew a tuple at some point
    assert len(list(g.nodes.values())[0].out_rels) + len(list(g.nodes.values())[0].in_rels) > 0


def test_snapshot_round_trip_keeps_adjacency_order():
    g = Graph()
    a, b = g.create_node(["P"], {"id": 1}), g.create_node(["P"], {})
    for i in range(G._SMALL * 2):
        g.create_rel("R" if i % 3 else "S", a if i % 2 else b, b if i % 4 else a, {"i": i} if i % 5 else {})
    g.delete_rel(g.rels[3])
    g2, _ = load_payload(dump_payload(g, 0), "test")
    for n in g.nodes.values():
        m = g2.nodes[n.id]
        assert [r.id for r in m.out_rels] == [r.id for r in n.out_rels]
        assert [r.id for r in m.in_rels] == [r.id for r in n.in_rels]
        assert m.labels is g2._labels(["P"])
    assert sorted(g2.rels) == sorted(g.rels)


def test_expansion_orders_by_requested_type_then_age():
    g = Graph()
    a, b = g.create_node([], {}), g.create_node([], {})
    r1 = g.create_rel("T", a, b, {})
    r2 = g.create_rel("S", a, b, {})
    r3 = g.create_rel("T", a, a, {})
    assert [r for r, _ in g.expand(a, ("S", "T"), True, False)] == [r2, r1, r3]
    assert [r for r, _ in g.expand(a, (), True, False)] == [r1, r3, r2]
    # a self-loop once when both directions are followed
    assert [r for r, _ in g.expand(a, (), True, True)] == [r1, r3, r2]
    assert [r for r, _ in g.expand(a, (), False, True)] == [r3]


def test_label_sets_are_shared_and_replaced_not_mutated():
    g = Graph()
    a, b = g.create_node(["X", "Y"], {}), g.create_node(["Y", "X"], {})
    assert a.labels is b.labels and isinstance(a.labels, frozenset)
    shared = a.labels
    g.begin()
    g.add_label(a, "Z")
    assert b.labels is shared and shared == {"X", "Y"} and a.labels == {"X", "Y", "Z"}
    g.remove_label(b, "X")
    g.txn.rollback()
    assert a.labels is shared and b.labels is shared


def test_records_without_properties_share_a_map_until_written():
    g = Graph()
    a = g.create_node([], {})
    r1, r2 = g.create_rel("R", a, a, {}), g.create_rel("R", a, a, {})
    assert r1.props is r2.props is a.props == {}
    g.begin()
    g.set_prop(r1, "w", 1)
    assert r1.props == {"w": 1} and r2.props == {} and a.props == {}
    g.txn.rollback()
    assert r1.props == {} and r2.props == {} and G._NO_PROPS == {}


def test_index_entries_hold_one_node_until_shared():
    g = Graph()
    g.create_index(IndexDef("ix", "P", "k"))
    a = g.create_node(["P"], {"k": 1})
    data = g.index_data[("P", "k")]
    assert data[1] is a
    b = g.create_node(["P"], {"k": 1})
    c = g.create_node(["P"], {"k": 1})
    assert g.index_lookup("P", "k", 1) == [a, b, c]
    g.set_prop(b, "k", 2)
    assert g.index_lookup("P", "k", 1) == [a, c] and data[2] is b
    g.remove_label(a, "P")
    assert data[1] is c
    g.add_label(a, "P")
    assert g.index_lookup("P", "k", 1) == [c, a]
    g.set_prop(c, "k", None)
    g.set_prop(a, "k", None)
    assert 1 not in data and g.index_lookup("P", "k", 1) == []
    assert g.index_lookup("P", "k", 1.0) == [] and g.index_lookup("P", "k", 2.0) == [b]


def test_rel_table_is_a_mapping_by_id():
    t = RelTable()
    g = Graph()
    a = g.create_node([], {})
    rels = [g.create_rel("R", a, a, {}) for _ in range(200)]
    for r in rels:
        t[r.id] = r
    assert len(t) == 200 and list(t) == list(range(200)) and t[130] is rels[130]
    assert 5 in t and 200 not in t and "5" not in t and -1 not in t and t.get(999) is None
    for r in rels[64:128]:
        assert t.pop(r.id) is r
    assert len(t._blocks) == 3 and 64 not in t and t.pop(64, None) is None
    with pytest.raises(KeyError):
        t[64]
    with pytest.raises(KeyError):
        t.pop(64)
    assert [r.id for r in t.values()] == list(range(64)) + list(range(128, 200))
    assert dict(t.items())[150] is rels[150]


def test_a_busy_node_loses_relationships_in_any_order_quickly():
    g = Graph()
    hub = g.create_node([], {})
    others = [g.create_node([], {}) for _ in range(50)]
    rels = [g.create_rel("R", hub, others[i % 50], {}) for i in range(20000)]
    random.Random(1).shuffle(rels)
    t = time.perf_counter()
    for r in rels:
        g.delete_rel(r)
    assert time.perf_counter() - t < 5
    assert hub.out_rels == () and all(n.in_rels == () for n in others)


def test_a_busy_node_shrinks_back_and_rolls_back():
    g = Graph()
    hub, other = g.create_node([], {}), g.create_node([], {})
    rels = [g.create_rel("R", hub, other, {}) for _ in range(G._SMALL + 8)]
    assert isinstance(hub.out_rels, dict) and list(hub.out_rels) == rels
    g.begin()
    doomed = random.Random(2).sample(rels, G._SMALL)
    for r in doomed:
        g.delete_rel(r)
    assert isinstance(hub.out_rels, tuple) and set(hub.out_rels) == set(rels) - set(doomed)
    assert [r for r, _ in g.expand(other, ("R",), False, True)] == [r for r in rels if r not in doomed]
    g.txn.rollback()
    g.end()
    assert sorted(r.id for r in hub.out_rels) == [r.id for r in rels] == sorted(g.rels)
    assert isinstance(hub.out_rels, dict) and not any(r.deleted for r in rels)
    _check(g)
