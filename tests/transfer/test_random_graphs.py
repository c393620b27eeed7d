"""Random graphs with random property values go through both round trips unchanged (hypothesis).

Values are drawn from what both forms carry (the CSV form refuses empty and mixed lists and lone
surrogates; the script form byte arrays: those refusals have their own tests), with keys, labels
and types of awkward text."""
from __future__ import annotations

import tempfile

from hypothesis import HealthCheck, given, settings, strategies as st

import relate
from relate.temporal import Date, DateTime, Duration, LocalDateTime, LocalTime, Point, Time
from tests.transfer.graphs import signature, store_signature, via_csv, via_script

_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=8)
_name = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=6).filter(
    lambda s: s != "_relate_id" and s.strip() == s and ":" not in s)
_int = st.integers(-(1 << 63), (1 << 63) - 1)
_float = st.floats(allow_nan=True, allow_infinity=True)
_nanos = st.integers(0, 86_400 * 10**9 - 1)
_ordinal = st.integers(1, 3_652_059)
_temporal = st.one_of(
    _ordinal.map(Date), _nanos.map(LocalTime),
    st.builds(Time, _nanos, st.integers(-18 * 3600, 18 * 3600)),
    st.builds(LocalDateTime, _ordinal, _nanos),
    st.builds(DateTime, st.integers(2, 3_652_058), _nanos, st.integers(-18, 18).map(lambda h: h * 3600)),
    st.builds(Duration, st.integers(-10**6, 10**6), st.integers(-10**6, 10**6), st.integers(-10**15, 10**15)),
    st.builds(lambda x, y: Point(7203, (x, y)), st.floats(-1e9, 1e9), st.floats(-1e9, 1e9)),
)
_scalar = st.one_of(st.booleans(), _int, _float, _text, _temporal)


def _homogeneous(draw_from):
    return st.one_of(st.lists(st.booleans(), min_size=1, max_size=3), st.lists(_int, min_size=1, max_size=3),
                     st.lists(_float, min_size=1, max_size=3),
                     st.lists(_text, min_size=1, max_size=3).filter(lambda v: v != [""]))


_value = st.one_of(_scalar, _homogeneous(_scalar))
_props = st.dictionaries(_name, _value, max_size=4)


@st.composite
def graphs(draw):
    labels = st.frozensets(_name.filter(lambda s: not any(c in s for c in ";|^~\x1f")), max_size=2)
    nodes = draw(st.lists(st.tuples(labels, _props), min_size=1, max_size=6))
    n = len(nodes)
    rels = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), _name, _props), max_size=8))
    deleted = draw(st.sets(st.integers(0, n - 1), max_size=2))
    return nodes, rels, deleted


def _build(path, g):
    nodes, rels, deleted = g
    db = relate.connect(path)
    graph = db.graph
    with db.transaction():  # through the storage API: names no Cypher literal could spell are fine
        made = [graph.create_node(tuple(lbs), dict(props)) for lbs, props in nodes]
        for s, e, t, props in rels:
            graph.create_rel(t, made[s], made[e], dict(props))
        for i in deleted:
            for r in list(made[i].out_rels) + list(made[i].in_rels):
                if graph.rels.get(r.id) is not None:
                    graph.delete_rel(r)
            graph.delete_node(made[i])
    db.close()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graphs())
def test_random_graphs_survive_both_round_trips(g):
    with tempfile.TemporaryDirectory() as tmp:
        src = f"{tmp}/src"
        _build(src, g)
        before = store_signature(src)
        with tempfile.TemporaryDirectory() as a:
            assert store_signature(via_csv(src, a)) == before
        with tempfile.TemporaryDirectory() as b:
            assert store_signature(via_script(src, b), "_relate_id") == before


def test_signature_sees_a_changed_value():
    db = relate.connect(":memory:")
    db.execute("CREATE ({x: 0.0})")
    before = signature(db.graph)
    db.execute("MATCH (n) SET n.x = -0.0")
    assert signature(db.graph) != before
