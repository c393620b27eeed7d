"""`SHORTEST k`, `SHORTEST k GROUPS` and `ANY k` with k > 1, and any selector over a quantifier
whose minimum is above 1, over one quantified relationship, run as a breadth-first search over
trails (`exec/selector_trails.py`): on random graphs (self-loops, parallel and opposite
relationships, two types) they give what the enumerating matcher gives -- the same partitions,
for GROUPS the same paths, for SHORTEST k the same lengths, for ANY k as many trails -- and they
stay fast where enumerating every trail does not."""
from __future__ import annotations

from collections import Counter, defaultdict

from hypothesis import given, settings, strategies as st

from tests.unit.exec.test_selector_bfs import EDGES, _answers, _graph

SHAPES = st.tuples(st.sampled_from(["-[:R]->", "<-[:R]-", "-[:R]-", "-[:R|S]->"]),
                   st.sampled_from(["+", "*", "{2,3}", "{0,3}", "{2,}", "{,2}", "{3}"]),
                   st.sampled_from(["(b)", "(b:N {i: 3})", "(b:M)"]))


def _lengths(rows):
    out = defaultdict(list)
    for b, _, rs in rows:
        out[b].append(len(rs))
    return {b: sorted(v) for b, v in out.items()}


@settings(max_examples=60, deadline=None)
@given(EDGES, SHAPES, st.integers(2, 3))
def test_the_trail_search_agrees_with_enumeration(edges, shape, k):
    db = _graph(edges)
    rel, quant, end = shape
    fast = _answers(db, f"SHORTEST {k} GROUPS", rel, quant, end, False)
    slow = _answers(db, f"SHORTEST {k} GROUPS", rel, quant, end, True)
    assert Counter((b, tuple(ns), tuple(rs)) for b, ns, rs in fast) == \
        Counter((b, tuple(ns), tuple(rs)) for b, ns, rs in slow)
    for selector in (f"SHORTEST {k}", "SHORTEST 1", "ALL SHORTEST"):
        fast = _answers(db, selector, rel, quant, end, False)
        assert _lengths(fast) == _lengths(_answers(db, selector, rel, quant, end, True)), selector
    fast = _answers(db, f"ANY {k}", rel, quant, end, False)
    slow = _answers(db, f"ANY {k}", rel, quant, end, True)
    assert Counter(b for b, _, _ in fast) == Counter(b for b, _, _ in slow)
    every = {(b, tuple(rs)) for b, _, rs in _answers(db, "ALL", rel, quant, end, True)}
    for b, ns, rs in fast:  # each is a distinct trail of the pattern, ending where it says
        assert (b, tuple(rs)) in every and ns[0] == 0 and ns[-1] == b
    assert len({(b, tuple(rs)) for b, _, rs in fast}) == len(fast)


def test_a_dense_graph_is_searched_not_enumerated():
    import relate
    db = relate.connect()
    # a complete directed graph on 9 nodes: far more trails than any enumeration could visit
    db.execute("UNWIND range(0, 8) AS i CREATE (:K {i: i})")
    db.execute("MATCH (a:K), (b:K) WHERE a <> b CREATE (a)-[:R]->(b)")
    q = "MATCH p = SHORTEST 3 (a:K {i: 0})-[:R]->+(b:K {i: 1}) RETURN length(p) AS n ORDER BY n"
    assert db.execute(q, timeout=10).rows == [(1,), (2,), (2,)]
    q = "MATCH p = SHORTEST 2 GROUPS (a:K {i: 0})-[:R]->+(b:K) RETURN count(p)"
    assert db.execute(q, timeout=10).rows == [(8 + 56 + 8 * (1 + 7),)]
    q = "MATCH p = ANY 2 (a:K {i: 0})-[:R]->{3,}(b:K) RETURN b.i, min(length(p)) ORDER BY b.i"
    assert db.execute(q, timeout=10).rows == [(i, 3) for i in range(9)]
