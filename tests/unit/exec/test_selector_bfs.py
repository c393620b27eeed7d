"""`SHORTEST 1` and `ALL SHORTEST` over one quantified relationship run as a breadth-first search
(`exec/selector_bfs.py`): on random graphs (self-loops, parallel and opposite relationships, two
types) they give what the enumerating matcher gives -- the same partitions with the same least
lengths, and for ALL SHORTEST the same paths -- and they stay fast where enumerating every trail
does not."""
from __future__ import annotations

from collections import Counter

from hypothesis import given, settings, strategies as st

import relate

EDGES = st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5), st.sampled_from(["R", "S"])), max_size=14)
SHAPES = st.tuples(st.sampled_from(["-[:R]->", "<-[:R]-", "-[:R]-", "-[:R|S]->", "-[]-"]),
                   st.sampled_from(["+", "*", "{1,2}", "{0,3}", "{1,}", "{,2}"]),
                   st.sampled_from(["(b)", "(b:N {i: 3})", "(b:M)"]))


def _graph(edges):
    db = relate.connect()
    db.execute("UNWIND range(0, 5) AS i CREATE (n:N {i: i}) WITH n WHERE n.i % 2 = 0 SET n:M")
    db.execute("UNWIND $e AS e MATCH (a:N {i: e[0]}), (b:N {i: e[1]}) "
               "CALL (a, b, e) { WITH * WHERE e[2] = 'R' CREATE (a)-[:R]->(b) UNION "
               "WITH * WHERE e[2] = 'S' CREATE (a)-[:S]->(b) }",
               {"e": [list(x) for x in edges]})
    return db


def _answers(db, selector, rel, quant, end, enumerate_):
    pattern = f"(a:N {{i: 0}}){rel}{quant}{end}"
    if enumerate_:  # a WHERE inside the selected pattern keeps the enumerating matcher
        match = f"{selector} (p = {pattern} WHERE true)"
    else:
        match = f"p = {selector} {pattern}"
    q = f"MATCH {match} RETURN b.i AS b, [x IN nodes(p) | x.i] AS ns, [r IN relationships(p) | id(r)] AS rs"
    return db.execute(q).rows


@settings(max_examples=50, deadline=None)
@given(EDGES, SHAPES)
def test_the_search_agrees_with_enumeration(edges, shape):
    db = _graph(edges)
    rel, quant, end = shape
    fast = _answers(db, "ALL SHORTEST", rel, quant, end, False)
    slow = _answers(db, "ALL SHORTEST", rel, quant, end, True)
    assert Counter((b, tuple(ns), tuple(rs)) for b, ns, rs in fast) == \
        Counter((b, tuple(ns), tuple(rs)) for b, ns, rs in slow)
    one = _answers(db, "SHORTEST 1", rel, quant, end, False)
    ref = {b: len(rs) for b, _, rs in _answers(db, "SHORTEST 1", rel, quant, end, True)}
    assert {b: len(rs) for b, _, rs in one} == ref and len(one) == len(ref)
    for b, ns, rs in one:  # each is a trail ending where it says
        assert len(set(rs)) == len(rs) and ns[0] == 0 and ns[-1] == b


def test_a_dense_graph_is_searched_not_enumerated():
    db = relate.connect()
    # a complete directed graph on 9 nodes: far more trails than any enumeration could visit
    db.execute("UNWIND range(0, 8) AS i CREATE (:K {i: i})")
    db.execute("MATCH (a:K), (b:K) WHERE a <> b CREATE (a)-[:R]->(b)")
    q = "MATCH p = SHORTEST 1 (a:K {i: 0})-[:R]->+(b:K) RETURN b.i, length(p) ORDER BY b.i"
    rows = db.execute(q, timeout=10).rows
    assert rows == [(0, 2)] + [(i, 1) for i in range(1, 9)]
    q = "MATCH p = ALL SHORTEST (a:K {i: 0})-[:R]->+(b:K {i: 0}) RETURN count(p)"
    assert db.execute(q, timeout=10).rows == [(8,)]
