"""The official `mcp` SDK client calls the `search` group's tools (`--tools search`) over stdio and
over streamable HTTP with Basic auth: hits come back as the tool's JSON text, refusals as
`MCPError` with -32602 and the 1.4 line's data.subcode."""
from __future__ import annotations

import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests.net.server import start
from tests.net.test_sdk_client import http_client, run_async, stdio
from tests.net.test_sdk_graph_tools import refused, text

DOCS = ("CREATE (:Doc {text: 'the quick brown fox', v: [1.0, 0.0]}), (:Doc {text: 'a lazy brown dog', v: [0.0, 1.0]}),"
        " (:Doc {text: 'quick quick fox', v: [0.8, 0.2]})")


async def exercise(client: Client) -> None:
    tools = {t.name: t for t in (await client.list_tools()).tools}
    assert list(tools) == ["cypher_query", "get_node_by_str", "get_relationship_by_str", "get_graph_summary",
                           "list_indexes", "list_graphs", "whoami", "fulltext_search", "vector_search"]
    assert tools["vector_search"].annotations.read_only_hint is True
    assert "anyOf" not in tools["vector_search"].input_schema
    await text(client, "cypher_query", query=DOCS)

    out = await text(client, "fulltext_search", label="Doc", property="text", query="quick fox", k=2)
    assert [h["node_id"] for h in out["hits"]] == [2, 0] and out["warnings"] == []
    e = await refused(client, "fulltext_search", label="Doc", property="text", query="fox", syntax="lucene")
    assert e.error.code == -32602 and e.error.data == {"subcode": "FULLTEXT_INDEX_NOT_FOUND"}
    await text(client, "cypher_query", query="CALL db.createFulltextIndex('Doc', 'text')")
    out = await text(client, "fulltext_search", label="Doc", property="text", query="brown", syntax="lucene")
    assert out["index"] == "declared" and out["total"] == 2
    assert [(h["node_id"], h["str_id"]) for h in out["hits"]] == [(0, "n0"), (1, "n1")]
    e = await refused(client, "fulltext_search", label="Doc", property="text", query="fox", order="random")
    assert e.error.code == -32602 and e.error.data == {"subcode": "FULLTEXT_OPTION_INVALID"}

    out = await text(client, "vector_search", label="Doc", property="v", vector=[1, 0], k=2)
    assert [h["node_id"] for h in out["hits"]] == [0, 2] and out["hits"][0]["score"] == 1.0
    e = await refused(client, "vector_search", label="Doc", property="v", vector=[1, 0], queryText="fox")
    assert e.error.code == -32602 and e.error.data == {"subcode": "VECTOR_ARGUMENT_INVALID"}
    e = await refused(client, "vector_search", label="Doc", property="v")
    assert e.error.code == -32602


def test_stdio_calls_both_search_tools():
    async def body():
        async with Client(stdio("--database", ":memory:", "--tools", "graph,search"), mode="legacy") as client:
            await exercise(client)
    run_async(body)


@pytest.fixture
def http_server(tmp_path):
    s = start(["--mcp", "0", "--database", ":memory:", "--auth", "agent:pw", "--tools", "graph,search"], tmp_path)
    yield f"http://127.0.0.1:{s.port}/mcp"
    assert s.stop() == 0


def test_streamable_http_calls_both_search_tools(http_server):
    async def body():
        async with http_client() as http:
            async with Client(streamable_http_client(http_server, http_client=http), mode="auto") as client:
                await exercise(client)
    run_async(body)
