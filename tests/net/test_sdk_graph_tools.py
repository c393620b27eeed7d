"""The official `mcp` SDK client calls every tool of the `graph` group (`--tools all`) over stdio
and over streamable HTTP with Basic auth; refusals reach it as `MCPError` with the 1.4 line's
codes.  The default tool list is checked in test_sdk_client.py."""
from __future__ import annotations

import json

import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from tests.net.server import start
from tests.net.test_sdk_client import http_client, run_async, stdio

GRAPH = ["cypher_query", "get_node_by_str", "get_relationship_by_str", "get_graph_summary", "list_indexes",
         "list_graphs", "whoami"]


async def text(client: Client, tool: str, **arguments):
    r = await client.call_tool(tool, arguments)
    assert r.is_error is False, r
    return json.loads(r.content[0].text)


async def refused(client: Client, tool: str, **arguments) -> MCPError:
    with pytest.raises(MCPError) as info:
        await client.call_tool(tool, arguments)
    return info.value


async def exercise(client: Client, subject: str) -> None:
    tools = {t.name: t for t in (await client.list_tools()).tools}
    assert list(tools) == ["write_cypher", "read_cypher", "get_schema", *GRAPH, "fulltext_search", "vector_search"]
    assert tools["cypher_query"].input_schema["required"] == ["query"]
    assert tools["get_node_by_str"].annotations.read_only_hint is True

    made = await text(client, "cypher_query", query="CREATE (a:Person {name: $n})-[k:KNOWS {since: 2021}]->"
                      "(b:Person {name: 'Grace'}) RETURN elementId(a) AS a, elementId(k) AS k",
                      parameters={"n": "Ada"}, idempotencyKey="team-1")
    assert made["replayed"] is False and made["stats"]["nodes_created"] == 2
    node_id, rel_id = made["rows"][0]
    again = await text(client, "cypher_query", query="CREATE (a:Person {name: $n})-[k:KNOWS {since: 2021}]->"
                       "(b:Person {name: 'Grace'}) RETURN elementId(a) AS a, elementId(k) AS k",
                       parameters={"n": "Ada"}, idempotencyKey="team-1")
    assert again == {**made, "replayed": True}
    e = await refused(client, "cypher_query", query="CREATE (:Person)", idempotencyKey="team-1")
    assert e.error.code == -32602 and e.error.data == {"subcode": "IDEMPOTENCY_KEY_REUSED"}

    rows = await text(client, "cypher_query", query="MATCH (p:Person) RETURN p.name AS name, 0.0/0 AS x "
                      "ORDER BY name", format="tagged")
    assert rows["columns"] == ["name", "x"]
    assert rows["rows"] == [[{"type": "STRING", "value": "Ada"}, {"type": "FLOAT", "value": "NaN"}],
                            [{"type": "STRING", "value": "Grace"}, {"type": "FLOAT", "value": "NaN"}]]
    e = await refused(client, "cypher_query", query="MATCH (n RETURN n")
    assert e.error.code == -32602 and e.error.data == {"kind": "ParseError"}

    node = await text(client, "get_node_by_str", str_id=node_id)
    assert (node["id"], node["labels"], node["properties"]) == (node_id, ["Person"], {"name": "Ada"})
    assert node["span"]["valid_to"] is None and isinstance(node["span"]["valid_from"], int)
    assert node["span"]["validFrom"].endswith("Z")
    rel = await text(client, "get_relationship_by_str", str_id=rel_id)
    assert (rel["id"], rel["edge_type"], rel["source"], rel["target"], rel["properties"]) == \
        (rel_id, "KNOWS", 0, 1, {"since": 2021})
    r = await client.call_tool("get_node_by_str", {"str_id": "n999"})
    assert r.is_error is False and r.content[0].text == "null"
    e = await refused(client, "get_relationship_by_str")
    assert e.error.code == -32602 and e.error.message == 'Invalid params: missing string "str_id"'

    summary = await text(client, "get_graph_summary")
    assert summary["labels"] == [{"count": 2, "label": "Person"}]
    assert summary["relationship_types"] == [{"count": 1, "source_labels": ["Person"],
                                              "target_labels": ["Person"], "type": "KNOWS"}]
    await text(client, "cypher_query", query="CREATE INDEX person_name FOR (p:Person) ON (p.name)")
    assert (await text(client, "list_indexes"))["indexes"] == [
        {"entity": "NODE", "label": "Person", "name": "person_name", "property": "name", "state": "ONLINE"}]
    assert (await text(client, "list_graphs")) == {"graphs": [{"current": True, "name": "memory",
                                                               "read_only": False}]}
    me = await text(client, "whoami")
    assert (me["subject"], me["roles"], me["tenant"], me["graph"]) == (subject, ["admin"], None, "memory")
    assert me["current_snapshot_seq"] >= 2


def test_stdio_calls_every_graph_tool():
    async def body():
        async with Client(stdio("--database", ":memory:", "--tools", "all"), mode="legacy") as client:
            await exercise(client, "local")
    run_async(body)


@pytest.fixture
def http_server(tmp_path):
    s = start(["--mcp", "0", "--database", ":memory:", "--auth", "agent:pw", "--tools", "all"], tmp_path)
    yield f"http://127.0.0.1:{s.port}/mcp"
    assert s.stop() == 0


def test_streamable_http_calls_every_graph_tool(http_server):
    async def body():
        async with http_client() as http:
            async with Client(streamable_http_client(http_server, http_client=http), mode="auto") as client:
                await exercise(client, "agent")
    run_async(body)
