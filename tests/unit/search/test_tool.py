"""The tool-shaped calls (`fulltext_search` / `vector_search` arguments as an MCP client sends
them) and their refusals: -32602 with data.subcode."""
from __future__ import annotations

import pytest

import relate
from relate.errors import RelateError
from relate.search.scope import Scope
from relate.search.tool import call_fulltext, call_vector, refusal


class Rules:
    """A policy with a field read rule: the one hook every search door asks (scope.py)."""

    def __init__(self, visible) -> None:
        self.visible = visible

    def search_visible(self, label, prop):
        return self.visible


@pytest.fixture
def db():
    conn = relate.connect(":memory:")
    conn.execute("CREATE (:Doc {text: 'hello world', emb: [1.0, 0.0]})")
    yield conn
    conn.close()


def refused(fn, *args) -> dict:
    with pytest.raises(RelateError) as e:
        fn(*args)
    return refusal(e.value)


def test_calls_answer_hits_and_warnings(db):
    out = call_fulltext(db.graph, {"label": "Doc", "property": "text", "query": "hello", "k": 5})
    assert list(out) == ["hits", "warnings"] and out["hits"][0]["node_id"] == 0
    out = call_vector(db.graph, {"label": "Doc", "property": "emb", "vector": [0.5, 0.0], "k": 1})
    assert out == {"hits": [{"node_id": 0, "score": 1.0}], "warnings": []}


def test_refusals_carry_the_subcode(db):
    r = refused(call_fulltext, db.graph, {"label": "Doc", "property": "text", "query": "x", "syntax": "lucene"})
    assert r["code"] == -32602 and r["data"] == {"subcode": "FULLTEXT_INDEX_NOT_FOUND"}
    assert "FULLTEXT_INDEX_NOT_FOUND" in r["message"]
    db.create_fulltext_index("Doc", "text")
    r = refused(call_fulltext, db.graph, {"label": "Doc", "property": "text", "query": "x", "order": "random"})
    assert r["data"] == {"subcode": "FULLTEXT_OPTION_INVALID"}
    r = refused(call_vector, db.graph, {"label": "Doc", "property": "emb", "vector": [1.0, 0.0], "queryText": "x"})
    assert r["code"] == -32602 and "exactly one of vector and queryText" in r["message"]


def test_hidden_nodes_change_no_other_score(db):
    db.execute("CREATE (:Doc {text: 'hello secret'}), (:Doc {text: 'other words'})")
    seen = call_fulltext(db.graph, {"label": "Doc", "property": "text", "query": "hello"},
                         Scope(policy=Rules(lambda n: "secret" not in n.props["text"])))
    alone = relate.connect(":memory:")
    alone.execute("CREATE (:Doc {text: 'hello world'}), (:Doc {text: 'other words'})")
    want = call_fulltext(alone.graph, {"label": "Doc", "property": "text", "query": "hello"})
    assert [h["node_id"] for h in seen["hits"]] == [0]
    assert seen["hits"][0]["score"] == want["hits"][0]["score"]
