"""The graph's cached label columns (`Graph.column`) must never answer with stale values.

Scans with an equality test and per-property counts read those columns from a label's second
read on, and the columns are kept through writes (`storage/label_columns.py`).  After every kind
of write (create, set, remove, delete, label changes, rolled-back statements and transactions)
the answers must equal the generic row-by-row path (`WITH n WHERE ...`, which never uses the
columns).
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

import relate
from relate.errors import RelateError

VALUES = st.one_of(st.none(), st.sampled_from(["a", "b", ""]), st.integers(0, 2), st.booleans(),
                   st.sampled_from([1.0, 2.5]))


def _check(db, probes=("a", 1, True, 2.5)):
    for _ in range(3):  # the first read after a write does not build the column; later ones do
        for c in probes:
            fast = sorted(r[0] for r in db.execute("MATCH (n:V) WHERE n.v = $c RETURN n.k", {"c": c}).rows)
            slow = sorted(r[0] for r in db.execute("MATCH (n:V) WITH n WHERE n.v = $c RETURN n.k",
                                                   {"c": c}).rows)
            assert fast == slow, (c, fast, slow)
        fast = db.execute("MATCH (n:V) RETURN n.v AS v, count(*) AS c").rows
        slow = db.execute("MATCH (n:V) WITH n RETURN n.v AS v, count(*) AS c").rows
        assert repr(fast) == repr(slow)


ops = st.one_of(
    st.tuples(st.just("create"), VALUES),
    st.tuples(st.just("set"), st.integers(0, 9), VALUES),
    st.tuples(st.just("delete"), st.integers(0, 9)),
    st.tuples(st.just("label"), st.integers(0, 9)),
    st.tuples(st.just("unlabel"), st.integers(0, 9)),
    st.tuples(st.just("failing set"), st.integers(0, 9), VALUES),
    st.tuples(st.just("rolled back"), st.integers(0, 9), VALUES),
    st.tuples(st.just("rolled back set"), st.integers(0, 9), VALUES),
)


def _apply(db, op):
    kind = op[0]
    if kind == "create":
        db.execute("MATCH (m) WITH count(m) AS k CREATE (:V {k: k, v: $v})", {"v": op[1]})
    elif kind == "set":
        db.execute("MATCH (n {k: $k}) SET n.v = $v", {"k": op[1], "v": op[2]})
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
    elif kind in ("rolled back", "rolled back set"):
        with pytest.raises(ZeroDivisionError):
            with db.transaction():
                db.execute("MATCH (n {k: $k}) SET n.v = $v", {"k": op[1], "v": op[2]})
                if kind == "rolled back":
                    db.execute("CREATE (:V {k: 99, v: 'a'})")
                _check(db)  # inside the transaction the new values are seen
                raise ZeroDivisionError


@settings(max_examples=40, deadline=None)
@given(st.lists(VALUES, min_size=1, max_size=10), st.lists(ops, max_size=12))
def test_columns_follow_every_write(initial, operations):
    db = relate.connect(":memory:")
    db.execute("UNWIND range(0, size($vs) - 1) AS i CREATE (:V {k: i, v: $vs[i]})", {"vs": initial})
    db.execute("CREATE (:W {k: 50, v: 'a'})")
    _check(db)
    for op in operations:
        _apply(db, op)
        _check(db)


def test_a_live_reader_sees_the_writer_after_its_columns_were_built(tmp_path):
    path = str(tmp_path / "g")
    writer = relate.connect(path)
    writer.execute("UNWIND range(0, 9) AS i CREATE (:V {k: i, v: 'a'})")
    reader = relate.connect(path, read_only=True, live=True)
    query = "MATCH (n:V) WHERE n.v = 'a' RETURN count(*) AS c"
    for _ in range(3):
        assert reader.execute(query).rows == [(10,)]
    writer.execute("MATCH (n:V {k: 3}) SET n.v = 'b'")
    writer.execute("CREATE (:V {k: 10, v: 'a'})")
    assert reader.execute(query).rows == [(10,)]  # a live reader takes in commits as it reads
    assert reader.execute("MATCH (n:V) RETURN n.v AS v, count(*) AS c ORDER BY v").rows == [("a", 10), ("b", 1)]
