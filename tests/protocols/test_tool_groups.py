"""`--tools LIST`: which groups a server offers, and what tools/list shows for each choice."""
from __future__ import annotations

import json

import pytest

import relate
from relate.protocols.mcp import McpServer
from relate.protocols.tool_groups import GROUPS, ToolsSpecError, parse_tools
from relate.protocols.tools import tool_list

GRAPH = ["cypher_query", "get_node_by_str", "get_relationship_by_str", "get_graph_summary", "list_indexes",
         "list_graphs", "whoami"]
SEARCH = ["fulltext_search", "vector_search"]


def listed(server) -> list[dict]:
    return json.loads(server.handle_line('{"jsonrpc":"2.0","id":1,"method":"tools/list"}'))["result"]["tools"]


def test_the_default_lists_exactly_the_reference_tools():
    db = relate.connect()
    assert listed(McpServer(db)) == tool_list(False)
    assert listed(McpServer(db, tools=parse_tools("cypher"))) == tool_list(False)
    assert [t["name"] for t in listed(McpServer(db, read_only=True))] == ["read_cypher", "get_schema"]


@pytest.mark.parametrize("text, names", [
    ("all", ["write_cypher", "read_cypher", "get_schema", *GRAPH, *SEARCH]),
    ("graph", GRAPH),
    ("search", SEARCH),
    ("search,graph", [*GRAPH, *SEARCH]),
    ("graph,cypher", ["write_cypher", "read_cypher", "get_schema", *GRAPH]),  # group order, not the flag's
    (" graph , graph ", GRAPH),
])
def test_groups_list_their_tools_in_group_order(text, names):
    assert [t["name"] for t in listed(McpServer(relate.connect(), tools=parse_tools(text)))] == names


def test_read_only_drops_write_cypher_but_keeps_cypher_query():
    names = [t["name"] for t in listed(McpServer(relate.connect(), read_only=True, tools=parse_tools("all")))]
    assert names == ["read_cypher", "get_schema", *GRAPH, *SEARCH]


@pytest.mark.parametrize("group", ["memory", "documents", "provenance", "governance"])
def test_a_group_that_has_not_landed_is_refused_by_name(group):
    with pytest.raises(ToolsSpecError) as info:
        parse_tools(f"cypher,{group}")
    assert str(info.value) == (f"Error: --tools: the group {group!r} is not available in this build yet (its "
                               "tools have not landed); this build serves cypher, graph, search")


@pytest.mark.parametrize("text, message", [
    ("nope", "Error: --tools: unknown group 'nope'; the groups are cypher, graph, search, memory, documents, "
             "provenance, governance, or all"),
    ("", "Error: --tools takes group names separated by commas, or 'all'; got ''"),
    ("cypher,", "Error: --tools takes group names separated by commas, or 'all'; got 'cypher,'"),
])
def test_malformed_lists_are_refused(text, message):
    with pytest.raises(ToolsSpecError) as info:
        parse_tools(text)
    assert str(info.value) == message


def test_every_issue_tool_name_is_in_a_group():
    names = [n for tools in GROUPS.values() for n in tools]
    assert len(names) == len(set(names)) == 31


def test_schemas_have_no_top_level_combinators_and_every_property_is_typed():
    for tool in listed(McpServer(relate.connect(), tools=parse_tools("all"))):
        schema = tool["inputSchema"]
        assert schema["type"] == "object" and "properties" in schema, tool["name"]
        assert not {"anyOf", "oneOf", "allOf"} & set(schema), tool["name"]
        for prop in schema["properties"].values():
            assert "type" in prop, tool["name"]
        assert set(tool["annotations"]) == {"destructiveHint", "idempotentHint", "openWorldHint", "readOnlyHint",
                                            "title"}
        assert len(tool["description"]) > 80, tool["name"]
        if tool["name"] not in ("write_cypher", "read_cypher", "get_schema"):
            assert tool["title"] == tool["annotations"]["title"]


def test_a_cypher_tool_is_unknown_when_only_graph_is_served():
    server = McpServer(relate.connect(), tools=parse_tools("graph"))
    line = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_cypher","arguments":{}}}'
    assert json.loads(server.handle_line(line))["result"] == {
        "content": [{"text": "unknown tool 'read_cypher'", "type": "text"}], "isError": True}
    line = '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"whoami","arguments":{}}}'
    default = McpServer(relate.connect())
    assert json.loads(default.handle_line(line))["result"]["content"][0]["text"] == "unknown tool 'whoami'"
