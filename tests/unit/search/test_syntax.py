"""The four query syntaxes of a declared index: what each matches and the `parsed` text."""
from __future__ import annotations

import pytest

import relate

TEXTS = [
    "the contract was breached and damages followed",      # 0
    "damages for breach of the contract were paid",        # 1
    "a tort claim without any contract",                   # 2
    "contractor breached nothing",                          # 3
    "breach of contract in tort law",                       # 4
]


@pytest.fixture(scope="module")
def db():
    conn = relate.connect(":memory:")
    conn.execute("UNWIND range(0, size($t) - 1) AS i CREATE (:Doc {i: i, text: $t[i]})", {"t": TEXTS})
    conn.create_fulltext_index("Doc", "text")
    yield conn
    conn.close()


def found(db, query: str, **opts) -> tuple[list[int], str]:
    out = db.fulltext_search("Doc", "text", query, 10, **opts)
    return sorted(h["node_id"] for h in out["hits"]), out["parsed"]


def test_words_default_or_and_and(db):
    assert found(db, "contract damages") == ([0, 1, 2, 4], "contract OR damages")
    assert found(db, "contract damages", default_operator="AND") == ([0, 1], "contract AND damages")


def test_fts5(db):
    assert found(db, "contract damages", syntax="fts5") == ([0, 1], "contract AND damages")
    assert found(db, '"breach of contract"', syntax="fts5") == ([4], '"breach of contract"')
    assert found(db, "contract NOT tort", syntax="fts5") == ([0, 1], "contract NOT tort")
    assert found(db, "contract* AND breach*", syntax="fts5")[0] == [0, 1, 3, 4]
    assert found(db, "NEAR(breach contract, 2)", syntax="fts5")[0] == [1, 4]
    assert found(db, "tort OR (damages AND paid)", syntax="fts5") == ([1, 2, 4], "tort OR (damages AND paid)")


def test_lucene(db):
    assert found(db, "+contract -tort damages", syntax="lucene") == ([0, 1], "(+contract damages) NOT tort")
    assert found(db, '"contract damages"~2', syntax="lucene")[0] == []
    assert found(db, '"contract damages"~3', syntax="lucene")[0] == [0]
    assert found(db, '"breach contract"~1', syntax="lucene")[0] == [4]
    assert found(db, '"breach contract"~2', syntax="lucene")[0] == [1, 4]
    assert found(db, "contract AND tort", syntax="lucene")[0] == [2, 4]
    out = db.fulltext_search("Doc", "text", "tort^3 contract", syntax="lucene")
    assert out["parsed"] == "tort^3 OR contract"
    assert {out["hits"][0]["node_id"], out["hits"][1]["node_id"]} == {2, 4}


def test_legal(db):
    assert found(db, "breach /3 contract", syntax="legal")[0] == [1, 4]
    assert found(db, "contract & damag!", syntax="legal")[0] == [0, 1]
    assert found(db, "contract % tort", syntax="legal")[0] == [0, 1]
    assert found(db, "breach! w/5 contract", syntax="legal")[0] == [0, 1, 4]


def test_unreadable_query_is_refused(db):
    from relate.errors import RelateError
    for q, syntax in (("(contract", "fts5"), ("contract AND", "fts5"), ("-tort", "lucene"), ("!!", "words")):
        with pytest.raises(RelateError) as e:
            db.fulltext_search("Doc", "text", q, syntax=syntax)
        assert e.value.kind == "FulltextQueryInvalid"
