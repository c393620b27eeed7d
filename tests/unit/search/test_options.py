"""The options of a declared index: fields and weights, filter and node_ids before ranking,
snippets, excerpt, matched terms, group_by, order, max_expansions, and paging to the end with an
exact total and edits between pages (stale)."""
from __future__ import annotations

import pytest

import relate
from relate.errors import RelateError

from .corpus import documents, vocabulary


@pytest.fixture
def db():
    conn = relate.connect(":memory:")
    conn.execute("UNWIND range(0, 9) AS i CREATE (:Doc {i: i, kind: i % 3, title: 'title ' + toString(i), "
                 "text: CASE WHEN i < 5 THEN 'red apple pie' ELSE 'green apple tart with red cherries' END})")
    conn.execute("MATCH (d:Doc {i: 7}) SET d.title = 'red red red'")
    conn.create_fulltext_index("Doc", "text")
    conn.create_fulltext_index("Doc", "title")
    yield conn
    conn.close()


def search(db, q, k=10, **o):
    return db.fulltext_search("Doc", "text", q, k, **o)


def test_fields_with_weights_score_each_field(db):
    plain = search(db, "red")
    assert plain["hits"][0]["node_id"] in range(5)       # short 'red apple pie' texts first
    out = search(db, "red", fields={"text": 1, "title": 5})
    top = out["hits"][0]
    assert top["node_id"] == 7 and set(top["field_scores"]) == {"text", "title"}
    assert top["field_scores"]["title"] > top["field_scores"]["text"] > 0
    assert top["score"] == pytest.approx(sum(top["field_scores"].values()))
    with pytest.raises(RelateError) as e:
        search(db, "red", fields=["title"])
    assert "must include the searched property" in e.value.detail


def test_filter_and_node_ids_apply_before_ranking(db):
    out = search(db, "apple", 2, filter={"kind": 1})
    assert out["total"] == 3 and all(h["node_id"] % 3 == 1 for h in out["hits"])
    out = search(db, "apple", 10, node_ids=[8, 9, 100])
    assert sorted(h["node_id"] for h in out["hits"]) == [8, 9]
    # the statistics stay the whole index's unless filter_statistics asks otherwise
    full = search(db, "pie")["hits"][0]["score"]
    assert search(db, "pie", node_ids=[0, 1])["hits"][0]["score"] == full
    assert search(db, "pie", node_ids=[0, 1], filter_statistics=True)["hits"][0]["score"] != full


def test_snippets_excerpt_matched_terms(db):
    h = search(db, "cherries red", 1, snippets=True, matched_terms=True, excerpt=40)["hits"][0]
    assert h["snippets"] == ["green apple tart with [red] [cherries]"]
    assert h["matched_terms"] == ["cherries", "red"] and h["matched_words"] == ["red", "cherries"]
    assert h["excerpt"] == "green apple tart with red cherries"
    assert h["matches"] == 2
    long = search(db, "cherries", 1, snippets=3)["hits"][0]
    assert long["snippets"] == ["…with red [cherries]"]


def test_group_by_keeps_the_best_hit_of_each_group(db):
    out = search(db, "apple", 10, group_by="kind")
    assert out["total"] == 3
    assert sorted(h["group"] for h in out["hits"]) == [0, 1, 2]
    assert {h["group"]: h["group_hits"] for h in out["hits"]} == {0: 4, 1: 3, 2: 3}


def test_order_by_node_id_and_prefix_expansions(db):
    out = search(db, "apple", 3, order="node_id")
    assert [h["node_id"] for h in out["hits"]] == [0, 1, 2]
    assert search(db, "cher*", syntax="fts5")["total"] == 5
    assert search(db, "a*", syntax="fts5", max_expansions=1)["parsed"] == "a*"
    with pytest.raises(RelateError) as e:
        search(db, "a*", syntax="fts5", max_expansions=0)
    assert e.value.kind == "FulltextOptionInvalid"


def test_paging_to_the_end_with_an_exact_total():
    db = relate.connect(":memory:")
    vocab = vocabulary(50)
    docs = documents(500, vocab, lo=3, hi=12)
    db.execute("UNWIND $d AS t CREATE (:Doc {text: t})", {"d": docs})
    db.create_fulltext_index("Doc", "text")
    q = f"{vocab[3]} {vocab[10]}"
    want = sum(1 for d in docs if {vocab[3], vocab[10]} & set(d.split()))
    seen, cursor, pages = [], None, 0
    while True:
        out = db.fulltext_search("Doc", "text", q, 25, cursor=cursor)
        assert out["total"] == want and out["stale"] is False
        seen += [(h["score"], h["node_id"]) for h in out["hits"]]
        pages += 1
        if out["complete"]:
            assert out["cursor"] is None
            break
        cursor = out["cursor"]
    assert len(seen) == want == len(set(n for _, n in seen))
    assert seen == sorted(seen, key=lambda p: (-p[0], p[1]))
    assert pages == -(-want // 25)


def test_edits_between_pages_mark_the_page_stale(db):
    first = search(db, "apple", 4)
    assert first["stale"] is False and first["complete"] is False
    db.execute("MATCH (d:Doc {i: 9}) SET d.text = 'no fruit here'")
    second = search(db, "apple", 4, cursor=first["cursor"])
    assert second["stale"] is True and second["total"] == 9
    shown = {h["node_id"] for h in first["hits"]}
    assert not shown & {h["node_id"] for h in second["hits"]}


def test_a_cursor_of_another_query_is_refused(db):
    cur = search(db, "apple", 2)["cursor"]
    with pytest.raises(RelateError) as e:
        search(db, "pie", 2, cursor=cur)
    assert e.value.kind == "FulltextOptionInvalid"


def test_declared_options_without_a_declared_index(db):
    db.execute("CREATE (:Note {body: 'apple'})")
    with pytest.raises(RelateError) as e:
        db.fulltext_search("Note", "body", "apple", syntax="fts5")
    assert e.value.kind == "FulltextIndexNotFound" and "FULLTEXT_INDEX_NOT_FOUND" in e.value.detail
    with pytest.raises(RelateError) as e:
        db.fulltext_search("Note", "body", "apple", index="declared")
    assert e.value.kind == "FulltextIndexNotFound"
    out = db.fulltext_search("Note", "body", "apple")
    assert out == {"hits": [{"node_id": 10, "score": pytest.approx(0.2876820724517809)}], "warnings": []}
    adhoc = search(db, "apple", 1, index="adhoc")
    assert set(adhoc) == {"hits", "warnings"}
    with pytest.raises(RelateError) as e:
        search(db, "apple", syntax="regex")
    assert e.value.kind == "FulltextOptionInvalid"
    with pytest.raises(RelateError) as e:
        search(db, "apple", at_valid="last tuesday")
    assert e.value.kind == "FulltextOptionInvalid"


def test_total_false_leaves_the_count_out(db):
    out = search(db, "apple", 3, total=False)
    assert "total" not in out and out["complete"] is False and len(out["hits"]) == 3
    assert list(search(db, "apple", 3)) == ["hits", "index", "total", "complete", "cursor", "parsed", "stale",
                                             "warnings"]
