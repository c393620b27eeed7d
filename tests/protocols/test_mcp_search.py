"""The `search` tool group (`--tools search`) through the MCP core, request line in and reply line
out: fulltext_search and vector_search answers in `content[0].text`, refusals as JSON-RPC errors
(-32602 with data.subcode)."""
from __future__ import annotations

import json

import pytest

import relate
from relate.policy import Policy
from relate.protocols.mcp import McpServer
from relate.protocols.tool_groups import parse_tools
from relate.search.embedder import get
from tests.protocols.test_mcp_graph import error, result

DOCS = ("CREATE (:Doc {title: 'a', text: 'the quick brown fox jumps', v: [1.0, 0.0, 0.0]}),"
        " (:Doc {title: 'b', text: 'a lazy brown dog sleeps', v: [0.0, 1.0, 0.0]}),"
        " (:Doc {title: 'c', text: 'quick quick fox', v: [0.9, 0.1, 0.0]}),"
        " (:Doc {title: 'd', text: 'nothing to see'})")


def listed_names(server) -> list[dict]:
    return json.loads(server.handle_line('{"jsonrpc":"2.0","id":1,"method":"tools/list"}'))["result"]["tools"]


@pytest.fixture
def db():
    conn = relate.connect()
    conn.execute(DOCS)
    return conn


@pytest.fixture
def server(db):
    return McpServer(db, tools=parse_tools("search"))


def test_the_group_lists_both_tools_with_read_only_hints(server):
    tools = {t["name"]: t for t in listed_names(server)}
    assert list(tools) == ["fulltext_search", "vector_search"]
    assert tools["fulltext_search"]["inputSchema"]["required"] == ["label", "property", "query"]
    assert tools["vector_search"]["inputSchema"]["required"] == ["label", "property"]
    assert {"vector", "queryText"} <= set(tools["vector_search"]["inputSchema"]["properties"])
    for t in tools.values():
        assert t["annotations"]["readOnlyHint"] is True and t["title"] == t["annotations"]["title"]


def test_fulltext_without_an_index_answers_node_ids_and_scores(server):
    out = result(server, "fulltext_search", label="Doc", property="text", query="quick fox", k=5)
    assert list(out) == ["hits", "warnings"]
    assert [h["node_id"] for h in out["hits"]] == [2, 0]
    assert all(set(h) == {"node_id", "score"} for h in out["hits"])
    assert out["hits"][0]["score"] > out["hits"][1]["score"] > 0


def test_fulltext_warns_when_the_default_analyzer_cannot_read_the_query(server):
    out = result(server, "fulltext_search", label="Doc", property="text", query="café")
    assert [w["code"] for w in out["warnings"]] == ["FULLTEXT_TOKENIZER_LIMITED"]


def test_a_declared_index_answers_with_str_id_and_paging(server, db):
    db.execute("CALL db.createFulltextIndex('Doc', 'text')")
    out = result(server, "fulltext_search", label="Doc", property="text", query="quick OR brown", k=2,
                 syntax="lucene")
    assert out["index"] == "declared" and out["total"] == 3 and out["complete"] is False
    first = out["hits"]
    assert [h["str_id"] for h in first] == [f"n{h['node_id']}" for h in first]
    # the str_id names the node that elementId() names
    rows = db.execute("MATCH (d:Doc) WHERE elementId(d) = $s RETURN id(d) AS id", {"s": first[0]["str_id"]}).rows
    assert rows == [(first[0]["node_id"],)]
    more = result(server, "fulltext_search", label="Doc", property="text", query="quick OR brown", k=2,
                  syntax="lucene", cursor=out["cursor"])
    assert more["complete"] is True and more["cursor"] is None and len(more["hits"]) == 1
    assert more["hits"][0]["node_id"] not in {h["node_id"] for h in first}
    plain = result(server, "fulltext_search", label="Doc", property="text", query="quick", index="adhoc")
    assert list(plain) == ["hits", "warnings"] and "str_id" not in plain["hits"][0]


def test_a_declared_option_without_an_index_is_refused_with_the_subcode(server):
    e = error(server, "fulltext_search", label="Doc", property="text", query="fox", syntax="lucene")
    assert e["code"] == -32602 and e["data"] == {"subcode": "FULLTEXT_INDEX_NOT_FOUND"}
    assert "FULLTEXT_INDEX_NOT_FOUND" in e["message"] and ":Doc(text)" in e["message"]


@pytest.mark.parametrize("arguments", [
    {"order": "random"},
    {"k": 0},
    {"nonsense": 1},
    {"at_valid": "2024-13-01"},
    {"at_recorded": 20240101},
])
def test_an_option_value_it_does_not_take_is_refused(server, db, arguments):
    db.execute("CALL db.createFulltextIndex('Doc', 'text')")
    e = error(server, "fulltext_search", label="Doc", property="text", query="fox", **arguments)
    assert e["code"] == -32602 and e["data"] == {"subcode": "FULLTEXT_OPTION_INVALID"}
    assert e["message"].startswith("FULLTEXT_OPTION_INVALID: ")


def test_unreadable_query_text_is_refused(server, db):
    db.execute("CALL db.createFulltextIndex('Doc', 'text')")
    e = error(server, "fulltext_search", label="Doc", property="text", query="(fox", syntax="lucene")
    assert e["code"] == -32602 and e["data"] == {"subcode": "FULLTEXT_QUERY_INVALID"}


def test_vector_search_ranks_by_cosine(server):
    out = result(server, "vector_search", label="Doc", property="v", vector=[1, 0, 0], k=2)
    assert [h["node_id"] for h in out["hits"]] == [0, 2]
    assert out["hits"][0]["score"] == 1.0 and 0.99 < out["hits"][1]["score"] < 1.0
    assert out["warnings"] == []


def test_vector_search_embeds_query_text(server, db):
    embed = get(None).embed
    for node_id, text in db.execute("MATCH (d:Doc) RETURN id(d), d.text").rows:
        db.execute("MATCH (d) WHERE id(d) = $i SET d.e = $e", {"i": node_id, "e": list(embed([text])[0])})
    out = result(server, "vector_search", label="Doc", property="e", queryText="a lazy brown dog sleeps", k=1)
    assert out["hits"][0]["node_id"] == 1 and out["embedder"] == "hashing"


@pytest.mark.parametrize("arguments", [{}, {"vector": [1, 0, 0], "queryText": "fox"}])
def test_vector_search_needs_exactly_one_of_vector_and_query_text(server, arguments):
    e = error(server, "vector_search", label="Doc", property="v", **arguments)
    assert e["code"] == -32602 and e["data"] == {"subcode": "VECTOR_ARGUMENT_INVALID"}
    assert "exactly one of vector and queryText" in e["message"]


def test_a_vector_of_the_wrong_length_is_refused(server):
    e = error(server, "vector_search", label="Doc", property="v", vector=[1, 0])
    assert e["code"] == -32602 and "3" in e["message"]


def test_searches_see_writes_made_after_the_first_search(server, db):
    assert result(server, "fulltext_search", label="Doc", property="text", query="zebra")["hits"] == []
    db.execute("CREATE (:Doc {text: 'a zebra'})")
    assert [h["node_id"] for h in result(server, "fulltext_search", label="Doc", property="text",
                                         query="zebra")["hits"]] == [4]


def test_search_tools_are_not_offered_without_the_group(db):
    server = McpServer(db, tools=parse_tools("graph"))
    r = json.loads(server.handle_line(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "fulltext_search", "arguments": {"label": "Doc", "property": "text", "query": "fox"}}})))
    assert r["result"]["isError"] is True


def test_a_read_only_server_searches(db):
    server = McpServer(db, read_only=True, tools=parse_tools("search"))
    assert result(server, "fulltext_search", label="Doc", property="text", query="fox")["hits"]


# the inputs the 1.4 line names for each tool (fulltext_search's declared-index options included)
SPEC_INPUTS = {
    "fulltext_search": {"label", "property", "query", "k", "analyzer", "index", "syntax", "default_operator", "order",
                        "cursor", "max_expansions", "snippets", "total", "at_valid", "at_recorded", "fields",
                        "filter", "node_ids", "filter_statistics", "matched_terms", "excerpt", "group_by"},
    "vector_search": {"label", "property", "vector", "queryText", "k", "method", "embedder"},
}


def test_every_input_the_spec_names_is_listed_and_none_other(server):
    for t in listed_names(server):
        assert set(t["inputSchema"]["properties"]) == SPEC_INPUTS[t["name"]]
        assert not {"anyOf", "oneOf", "allOf"} & set(t["inputSchema"])
        assert "not available" not in json.dumps(t)


def test_fulltext_at_a_past_time_through_the_tool():
    times = iter(range(10**18, 10**18 + 10**12, 10**9))
    db = relate.connect(clock=lambda: next(times))
    db.execute("CREATE (:Doc {text: 'first draft words'})")
    mid = db.execute("RETURN 1").rows and db.now()
    db.execute("MATCH (d:Doc) SET d.text = 'final version'")
    db.execute("CALL db.createFulltextIndex('Doc', 'text')")
    server = McpServer(db, tools=parse_tools("search"))
    from relate.temporal.instant import render_ns
    then = render_ns(mid)
    out = result(server, "fulltext_search", label="Doc", property="text", query="draft", at_valid=then)
    assert [h["node_id"] for h in out["hits"]] == [0] and out["index"] == "declared" and out["total"] == 1
    assert result(server, "fulltext_search", label="Doc", property="text", query="draft")["hits"] == []
    out = result(server, "fulltext_search", label="Doc", property="text", query="final", at_recorded=then)
    assert out["hits"] == [] and out["warnings"] == []


class HidingPolicy(Policy):
    """A policy with a field read rule (relate's own have none yet): :Doc text holding 'lazy' is
    hidden from the caller.  Every search door asks the policy through one hook."""

    def search_visible(self, label, prop):
        return lambda node: "lazy" not in str(node.props.get("text"))


def test_a_policy_rule_hides_hits_before_ranking_in_every_door():
    db = relate.connect(policy=HidingPolicy())
    db.execute(DOCS)
    server = McpServer(db, HidingPolicy(), tools=parse_tools("search,graph"))
    out = result(server, "fulltext_search", label="Doc", property="text", query="brown", k=5)
    assert [h["node_id"] for h in out["hits"]] == [0]
    out = result(server, "vector_search", label="Doc", property="v", vector=[0.0, 1.0, 0.0], k=1)
    assert [h["node_id"] for h in out["hits"]] == [2]
    rows = db.execute("CALL db.fulltextSearch('Doc', 'text', 'brown', 5) YIELD nodeId RETURN nodeId").rows
    assert rows == [(0,)]
    assert [h["node_id"] for h in db.fulltext_search("Doc", "text", "brown", 5)["hits"]] == [0]
    open_db = relate.connect()
    open_db.execute(DOCS)
    assert sorted(r[0] for r in open_db.execute(
        "CALL db.fulltextSearch('Doc', 'text', 'brown', 5) YIELD nodeId RETURN nodeId").rows) == [0, 1]
