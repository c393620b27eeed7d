"""Vector search: the exact top k against a numpy brute force on 20,000 x 384 (numpy path and
pure-Python path), the pruned path agreeing, queryText through the hashing embedder, hidden
nodes left out before the ranking, and the argument rules."""
from __future__ import annotations

import random

import numpy as np
import pytest

import relate
import relate.search.vectors as V
from relate.errors import RelateError
from relate.search.embedder import HashingEmbedder
from relate.search.scope import Scope

N, DIM, CLUSTERS = 20_000, 384, 200


@pytest.fixture(scope="module")
def big():
    rnd = random.Random(5)
    centers = [[rnd.gauss(0, 1) for _ in range(DIM)] for _ in range(CLUSTERS)]
    vecs = [[c + rnd.gauss(0, 0.6) for c in rnd.choice(centers)] for _ in range(N)]
    db = relate.connect(":memory:")
    db.execute("UNWIND $vs AS v CREATE (:Item {emb: v})", {"vs": vecs})
    queries = [[c + rnd.gauss(0, 0.6) for c in rnd.choice(centers)] for _ in range(12)]
    m = np.array(vecs)
    m /= np.linalg.norm(m, axis=1, keepdims=True)
    yield db, m, queries
    db.close()


def brute(m, q, k=10) -> list[int]:
    qv = np.array(q) / np.linalg.norm(q)
    s = m @ qv
    return sorted(range(len(s)), key=lambda i: (-s[i], i))[:k]


def ids(out) -> list[int]:
    return [h["node_id"] for h in out["hits"]]


def test_exact_top_k_matches_brute_force(big, monkeypatch):
    db, m, queries = big
    for q in queries[:6]:
        want = brute(m, q)
        assert ids(db.vector_search("Item", "emb", q, k=10)) == want
    monkeypatch.setattr(V, "_numpy", lambda: None)
    for q in queries[:2]:
        assert ids(db.vector_search("Item", "emb", q, k=10)) == brute(m, q)


def test_pure_python_exact_path_equals_scoring_every_vector(monkeypatch):
    """The int8 bound only skips vectors that cannot reach the top k: on unclustered vectors (all
    cosines near 0, the bound's worst case), with exact duplicates tied at the k-th score and
    with hidden nodes, the hits and scores are those of scoring every vector in floats."""
    from operator import mul
    rnd = random.Random(11)
    vecs = [[rnd.gauss(0, 1) for _ in range(48)] for _ in range(3000)]
    vecs += [list(vecs[7]) for _ in range(6)] + [[2 * x for x in vecs[9]] for _ in range(6)]
    db = relate.connect(":memory:")
    db.execute("UNWIND $vs AS v CREATE (:P {e: v})", {"vs": vecs})
    col = V.column(db.graph, "P", "e")
    monkeypatch.setattr(V, "_numpy", lambda: None)
    for q, k, ok in [(vecs[7], 4, None), (vecs[9], 10, None), (vecs[3], 10, None), (vecs[7], 3, set(range(0, 3012, 2))),
                     ([rnd.gauss(0, 1) for _ in range(48)], 25, None)]:
        qv = V._unit(q)[0]
        pool = [d for d in col.vectors if ok is None or d in ok]
        every = sorted(((d, sum(map(mul, col.vectors[d], qv))) for d in pool), key=lambda it: (-it[1], it[0]))[:k]
        assert V._exact(col, qv, k, ok) == every


def test_pruned_path_returns_the_same_top_k(big):
    db, m, queries = big
    for q in queries:
        exact = db.vector_search("Item", "emb", q, k=10)
        pruned = db.vector_search("Item", "emb", q, k=10, method="pruned")
        assert pruned == exact


def test_scores_are_cosines_and_writes_are_followed():
    db = relate.connect(":memory:")
    db.execute("CREATE (:V {e: [1.0, 0.0]}), (:V {e: [0.0, 2.0]}), (:V {e: [1, 1]}), (:V {e: 'text'})")
    out = db.vector_search("V", "e", [2.0, 0.0], k=3)
    assert ids(out) == [0, 2, 1]
    assert [h["score"] for h in out["hits"]] == pytest.approx([1.0, 2 ** -0.5, 0.0])
    db.execute("MATCH (v:V) WHERE id(v) = 0 SET v.e = [-1.0, 0.0]")
    assert ids(db.vector_search("V", "e", [2.0, 0.0], k=1)) == [2]
    rows = db.execute("CALL db.vectorSearch('V', 'e', [0.0, 1.0], 1) YIELD nodeId, score RETURN nodeId, score").rows
    assert rows == [(1, pytest.approx(1.0))]


def test_query_text_is_embedded_deterministically():
    emb = HashingEmbedder()
    a = emb.embed(["the cat sat on the mat"])[0]
    assert a == HashingEmbedder().embed(["the cat sat on the mat"])[0] and len(a) == 384
    assert sum(x * x for x in a) == pytest.approx(1.0)
    db = relate.connect(":memory:")
    texts = ["graph databases store nodes", "cats sit on mats", "the stock market fell"]
    db.execute("UNWIND $t AS t CREATE (:Doc {text: t, emb: $e[t]})",
               {"t": texts, "e": {t: emb.embed([t])[0] for t in texts}})
    out = db.vector_search("Doc", "emb", query_text="a cat sat on a mat", k=1)
    assert ids(out) == [1] and out["embedder"] == "hashing"
    rows = db.execute("CALL db.vectorSearch('Doc', 'emb', 'graph database nodes', 1) YIELD nodeId RETURN nodeId").rows
    assert rows == [(0,)]


class Rules:
    def __init__(self, visible) -> None:
        self.visible = visible

    def search_visible(self, label, prop):
        return self.visible


def test_hidden_nodes_are_left_out_before_ranking():
    db = relate.connect(":memory:")
    db.execute("UNWIND range(0, 9) AS i CREATE (:V {e: [1.0, toFloat(i) / 10]})")
    out = V.vector_search(db.graph, "V", "e", vector=[1.0, 0.0], k=3,
                          scope=Scope(policy=Rules(lambda n: n.id % 2 == 1)))
    assert ids(out) == [1, 3, 5]


def test_argument_rules():
    db = relate.connect(":memory:")
    db.execute("CREATE (:V {e: [1.0, 0.0]})")
    for kwargs in ({}, {"vector": [1.0, 0.0], "query_text": "x"}):
        with pytest.raises(RelateError) as e:
            db.vector_search("V", "e", **kwargs)
        assert e.value.kind == "VectorArgumentInvalid" and "exactly one of vector and queryText" in e.value.detail
    with pytest.raises(RelateError) as e:
        db.vector_search("V", "e", [1.0, 0.0, 0.0])
    assert "3 dimensions" in e.value.detail
    with pytest.raises(RelateError):
        db.vector_search("V", "e", [1.0, 0.0], method="hnsw")
