"""Declared full-text indexes on every store kind: made by the procedure (or CREATE FULLTEXT
INDEX), kept up to date by every write and undo, back after a restart, refused read-only."""
from __future__ import annotations

import pytest

from relate.errors import RelateError


def hits(db, q, **o) -> list[int]:
    return [h["node_id"] for h in db.fulltext_search("Doc", "text", q, **o)["hits"]]


def test_declared_index_follows_writes_and_survives_a_restart(db, reopen):
    db.execute("UNWIND ['alpha beta', 'beta gamma', 'Ωmega alpha'] AS t CREATE (:Doc {text: t})")
    rows = db.execute("CALL db.createFulltextIndex('Doc', 'text', {analyzer: 'unicode-v2'}) "
                      "YIELD name, analyzer RETURN name, analyzer").rows
    assert rows == [("fulltext_Doc_text", "unicode-v2")]
    assert sorted(hits(db, "alpha")) == [0, 2]
    db.execute("CREATE (:Doc {text: 'alpha again'})")
    db.execute("MATCH (d:Doc) WHERE d.text = 'beta gamma' SET d.text = 'delta'")
    db.execute("MATCH (d:Doc) WHERE d.text = 'alpha beta' REMOVE d:Doc")
    assert sorted(hits(db, "alpha")) == [2, 3] and hits(db, "beta") == [] and hits(db, "delta") == [1]
    db = reopen(db)
    out = db.fulltext_search("Doc", "text", "ωmega alpha", syntax="fts5")
    assert out["index"] == "declared" and [h["node_id"] for h in out["hits"]] == [2]
    db.execute("CREATE (:Doc {text: 'omega'})")
    assert hits(db, "ωmega") == [2]
    assert [r[1] for r in db.execute("SHOW FULLTEXT INDEXES YIELD name, type").rows] == ["FULLTEXT"]


def test_a_failed_statement_leaves_the_index_as_it_was(db):
    db.execute("CREATE (:Doc {text: 'kept words'})")
    db.create_fulltext_index("Doc", "text")
    with pytest.raises(RelateError):
        db.execute("MATCH (d:Doc) SET d.text = 'lost words' WITH d RETURN 1 / 0")
    assert hits(db, "kept") == [0] and hits(db, "lost") == []
    with pytest.raises(RuntimeError):
        with db.transaction():
            db.execute("CREATE (:Doc {text: 'rolled back'})")
            assert hits(db, "rolled") == [1]
            raise RuntimeError
    assert hits(db, "rolled") == []


def test_declaring_again_and_dropping(db, reopen):
    db.execute("CREATE (:Doc {text: 'words'})")
    assert db.create_fulltext_index("Doc", "text") == "fulltext_Doc_text"
    assert db.create_fulltext_index("Doc", "text") == "fulltext_Doc_text"
    with pytest.raises(RelateError) as e:
        db.create_fulltext_index("Doc", "text", analyzer="unicode-v2+stem")
    assert e.value.kind == "FulltextOptionInvalid"
    db.execute("DROP INDEX fulltext_Doc_text")
    db = reopen(db)
    out = db.fulltext_search("Doc", "text", "words")
    assert out == {"hits": [{"node_id": 0, "score": pytest.approx(0.2876820724517809)}], "warnings": []}


def test_cypher_fulltext_index_is_declared_for_search(db):
    db.execute("CREATE (:Doc {text: 'graph words', title: 'other'})")
    db.execute("CREATE FULLTEXT INDEX docs FOR (n:Doc) ON EACH [n.text, n.title]")
    assert db.fulltext_search("Doc", "title", "other")["index"] == "declared"
    out = db.fulltext_search("Doc", "text", "graph", fields=["text", "title"])
    assert out["hits"][0]["node_id"] == 0


def test_procedures_answer_nodes_and_hits(db):
    db.execute("UNWIND ['red fox', 'red red dog'] AS t CREATE (:Doc {text: t})")
    rows = db.execute("CALL db.fulltextSearch('Doc', 'text', 'red', 1) YIELD node, score RETURN node.text, score").rows
    assert rows[0][0] == "red red dog"
    db.create_fulltext_index("Doc", "text")
    rows = db.execute("CALL db.fulltextSearch('Doc', 'text', 'fox OR dog', 5, {syntax: 'fts5', snippets: true}) "
                      "YIELD nodeId, hit RETURN nodeId, hit.snippets").rows
    assert sorted(rows) == [(0, ["red [fox]"]), (1, ["red red [dog]"])]
    with pytest.raises(RelateError) as e:
        db.execute("CALL db.fulltextSearch('Doc', 'nope', 'x', 5, {syntax: 'fts5'})")
    assert e.value.kind == "FulltextIndexNotFound"


def test_read_only_connection_cannot_declare(store):
    db = store.connect()
    db.execute("CREATE (:Doc {text: 'x'})")
    ro = db if store.path == ":memory:" else None
    if ro is None:
        db.close()
        ro = store.connect(read_only=True)
        with pytest.raises(RelateError) as e:
            ro.execute("CALL db.createFulltextIndex('Doc', 'text')")
        assert e.value.kind == "ReadOnly" or "read" in e.value.kind.lower()
        assert ro.fulltext_search("Doc", "text", "x")["hits"][0]["node_id"] == 0


def test_optional_procedure_arguments(db):
    db.execute("CREATE (:Doc {text: 'one two'})")
    assert db.execute("CALL db.fulltextSearch('Doc', 'text', 'two') YIELD nodeId RETURN nodeId").rows == [(0,)]
    with pytest.raises(RelateError) as e:
        db.execute("CALL db.fulltextSearch('Doc', 'text')")
    assert e.value.kind == "InvalidNumberOfArguments" and "expected 3 to 5" in e.value.detail
    assert db.execute("EXPLAIN CALL db.createFulltextIndex('Doc', 'text')").query_type == "w"
