"""Label columns survive writes (`storage/label_columns.py`) and still answer as a fresh scan does.

Writes between cached reads: a database whose scans read the label columns gets random writes
(creates of the scanned label and of another, property sets and removals, deletes, label changes,
failing statements, rolled-back transactions) with reads in between, and after each write its
answers must equal those of a reference database given the same writes whose planner never reads
the columns (the `label_columns` rule off: every scan walks the nodes).
"""
from __future__ import annotations

import os
from contextlib import contextmanager

import pytest
from hypothesis import given, settings, strategies as st

import relate
from relate.errors import RelateError
from relate.plan import rules

VALUES = st.one_of(st.none(), st.sampled_from(["a", "b"]), st.integers(0, 2), st.booleans(), st.just(2.5))
KEYS = st.integers(0, 12)

READS = (
    ("MATCH (n:V) WHERE n.v = $c RETURN n.k AS k", "a"),
    ("MATCH (n:V) WHERE n.v = $c RETURN n.k AS k", 1),
    ("MATCH (n:V {w: $c}) RETURN n.k AS k", "b"),
    ("MATCH (n:V) WHERE n.v = $c AND n.w >= 0 RETURN n.k AS k", 2),
    ("MATCH (n:V) RETURN n.v AS v, count(*) AS c", None),
    ("MATCH (n:V) RETURN n.v AS v, n.w AS w, count(*) AS c", None),
    ("MATCH (n:W) WHERE n.v = $c RETURN n.k AS k", "a"),
)


@contextmanager
def _columns_off():
    """Plans made inside never read the label columns."""
    saved = os.environ.get(rules.ENVIRONMENT_VARIABLE)
    os.environ[rules.ENVIRONMENT_VARIABLE] = "label_columns"
    try:
        yield
    finally:
        if saved is None:
            del os.environ[rules.ENVIRONMENT_VARIABLE]
        else:
            os.environ[rules.ENVIRONMENT_VARIABLE] = saved


def _answers(db) -> list:
    out = []
    for text, c in READS:
        rows = db.execute(text, {"c": c}).rows
        out.append(sorted(map(repr, rows)))
    return out


def _compare(cached, fresh) -> None:
    for _ in range(2):  # a label's second read builds its columns; later ones read them
        got = _answers(cached)
    with _columns_off():
        want = _answers(fresh)
    assert got == want


ops = st.one_of(
    st.tuples(st.just("create V"), VALUES, VALUES),
    st.tuples(st.just("create W"), VALUES),
    st.tuples(st.just("set v"), KEYS, VALUES),
    st.tuples(st.just("set w"), KEYS, VALUES),
    st.tuples(st.just("remove v"), KEYS),
    st.tuples(st.just("delete"), KEYS),
    st.tuples(st.just("label"), KEYS),
    st.tuples(st.just("unlabel"), KEYS),
    st.tuples(st.just("failing set"), KEYS, VALUES),
    st.tuples(st.just("rolled back"), KEYS, VALUES),
    st.tuples(st.just("block"), KEYS, VALUES),
)


def _write(db, op, inside=None) -> None:
    kind = op[0]
    if kind == "create V":
        db.execute("MATCH (m) WITH count(m) AS k CREATE (:V {k: k, v: $v, w: $w})", {"v": op[1], "w": op[2]})
    elif kind == "create W":
        db.execute("MATCH (m) WITH count(m) AS k CREATE (:W {k: k, v: $v})", {"v": op[1]})
    elif kind in ("set v", "set w"):
        db.execute(f"MATCH (n {{k: $k}}) SET n.{kind[-1]} = $v", {"k": op[1], "v": op[2]})
    elif kind == "remove v":
        db.execute("MATCH (n {k: $k}) REMOVE n.v", {"k": op[1]})
    elif kind == "delete":
        db.execute("MATCH (n {k: $k}) DETACH DELETE n", {"k": op[1]})
    elif kind == "label":
        db.execute("MATCH (n {k: $k}) SET n:V", {"k": op[1]})
    elif kind == "unlabel":
        db.execute("MATCH (n {k: $k}) REMOVE n:V", {"k": op[1]})
    elif kind == "failing set":
        with pytest.raises(RelateError):
            db.execute("MATCH (n {k: $k}) SET n.v = $v WITH count(*) AS c RETURN 1 / 0 AS boom",
                       {"k": op[1], "v": op[2]})
    elif kind == "rolled back":
        with pytest.raises(ZeroDivisionError):
            with db.transaction():
                db.execute("MATCH (n {k: $k}) SET n.v = $v, n.w = $v", {"k": op[1], "v": op[2]})
                db.execute("CREATE (:V {k: 99, v: 'a', w: 'b'})")
                if inside is not None:
                    inside()
                raise ZeroDivisionError
    elif kind == "block":
        with db.transaction():
            db.execute("MATCH (n {k: $k}) SET n.v = $v", {"k": op[1], "v": op[2]})
            db.execute("MATCH (n {k: $k}) REMOVE n:V", {"k": op[1] + 1})
            db.execute("CREATE (:V {k: 98, v: $v})", {"v": op[2]})


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(VALUES, VALUES), min_size=1, max_size=10), st.lists(ops, max_size=14))
def test_cached_reads_after_any_write_answer_as_a_fresh_scan(initial, operations):
    cached, fresh = relate.connect(), relate.connect()
    for db in (cached, fresh):
        db.execute("UNWIND range(0, size($vs) - 1) AS i CREATE (:V {k: i, v: $vs[i][0], w: $vs[i][1]})",
                   {"vs": [list(p) for p in initial]})
        db.execute("MATCH (m) WITH count(m) AS k CREATE (:W {k: k, v: 'a'})")
    _compare(cached, fresh)
    for op in operations:
        # inside a transaction about to roll back, the cached side reads its own writes too
        _write(cached, op, inside=lambda: _answers(cached) and _answers(cached))
        _write(fresh, op)
        _compare(cached, fresh)


def test_a_column_outlives_writes_of_other_labels_and_property_updates():
    db = relate.connect()
    db.execute("UNWIND range(0, 99) AS i CREATE (:Person {id: i, city: toString(i % 7)})")
    graph = db.graph
    query = "MATCH (p:Person) WHERE p.city = '3' RETURN count(*) AS n"
    for _ in range(2):
        assert db.execute(query).rows == [(14,)]
    built = graph.column("Person", "city")
    assert built is not None
    db.execute("CREATE (:Post {id: 1})")
    db.execute("MATCH (p:Person {id: 3}) SET p.city = 'x'")
    db.execute("CREATE (:Person {id: 100, city: '3'})")
    kept = graph.column("Person", "city")  # not dropped by the writes, and caught up with them
    assert kept is not None and kept[0] is built[0]
    assert kept[1] == [p.props.get("city") for p in graph.nodes_with_label("Person")]
    assert db.execute(query).rows == [(14,)]
