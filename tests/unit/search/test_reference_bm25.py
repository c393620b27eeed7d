"""Ranking against a reference BM25 (bm25s, Lucene's variant, k1 1.2, b 0.75) on a generated
corpus: the same top 10, the same scores (bm25s leaves out Lucene's constant (k1 + 1) factor),
ad hoc and through a declared index, with and without edits after the index was built."""
from __future__ import annotations

import bm25s
import pytest

import relate
from relate.search.bm25 import K1

from .corpus import documents, queries, vocabulary

VOCAB = vocabulary(1500)
DOCS = documents(3000, VOCAB)
QUERIES = queries(VOCAB)


def reference(docs: list[str]):
    r = bm25s.BM25(method="lucene", k1=1.2, b=0.75)
    r.index([d.split() for d in docs], show_progress=False)
    return r


def ref_top(r, query: str, k: int = 10) -> list[tuple[int, float]]:
    ids, scores = r.retrieve([query.split()], k=k, show_progress=False)
    return [(int(i), float(s) * (K1 + 1)) for i, s in zip(ids[0], scores[0]) if s > 0]


def same_ranking(got: list[tuple[int, float]], r, query: str) -> None:
    """`got` is the reference's top 10, its equal scores ordered by id (relate's tie rule; the
    reference orders ties its own way, so it is asked for more and sorted)."""
    wide = ref_top(r, query, 60)
    want = sorted(wide, key=lambda p: (-round(p[1], 4), p[0]))[:10]
    assert [i for i, _ in got] == [i for i, _ in want]
    for (_, gs), (_, ws) in zip(got, want):
        assert gs == pytest.approx(ws, rel=1e-5)


@pytest.fixture(scope="module")
def loaded():
    db = relate.connect(":memory:")
    db.execute("UNWIND range(0, size($docs) - 1) AS i CREATE (:Doc {i: i, text: $docs[i]})", {"docs": DOCS})
    ids = {row[0]: row[1] for row in db.execute("MATCH (d:Doc) RETURN d.i, id(d)").rows}
    yield db, ids
    db.close()


def test_adhoc_top10_matches_reference(loaded):
    db, ids = loaded
    r = reference(DOCS)
    back = {v: k for k, v in ids.items()}
    for q in QUERIES:
        got = [(back[h["node_id"]], h["score"]) for h in db.fulltext_search("Doc", "text", q, 10)["hits"]]
        same_ranking(got, r, q)


def test_declared_top10_matches_reference_after_edits(loaded):
    db, ids = loaded
    db.create_fulltext_index("Doc", "text")
    docs = list(DOCS)
    # edits after the index exists: the index follows them incrementally
    for i in range(0, 3000, 97):
        docs[i] = " ".join(reversed(docs[i + 1].split()))[:200].rsplit(" ", 1)[0]
        db.execute("MATCH (d:Doc {i: $i}) SET d.text = $t", {"i": i, "t": docs[i]})
    r = reference(docs)
    back = {v: k for k, v in ids.items()}
    for q in QUERIES:
        out = db.fulltext_search("Doc", "text", q, 10)
        assert out["index"] == "declared"
        got = [(back[h["node_id"]], h["score"]) for h in out["hits"]]
        same_ranking(got, r, q)
        matching = sum(1 for d in docs if set(q.split()) & set(d.split()))
        assert out["total"] == matching
