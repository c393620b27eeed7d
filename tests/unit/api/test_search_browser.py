"""The browser build's MCP door (`relate.browser.Page.mcp`, what the docs pages' worker calls)
serves the `search` group when the panel asks for it (`tools`), on the same database as the
page's cells, with the answers of the native server."""
from __future__ import annotations

import json

import relate
from relate import browser
from relate.protocols.mcp import McpServer
from relate.protocols.tool_groups import parse_tools

NOTES = ("CREATE (:Note {text: 'quick brown fox', v: [1.0, 0.0]}), (:Note {text: 'lazy dog', v: [0.3, 0.7]}), "
         "(:Note {text: 'a fox, a quick fox', v: [0.9, 0.2]})")


def call(tool: str, **arguments) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                       "params": {"name": tool, "arguments": arguments}})


def test_the_page_answers_search_tools_as_a_native_server_does():
    page = browser.Page()
    assert page.cell(NOTES)["error"] is None
    assert page.cell("CALL db.createFulltextIndex('Note', 'text')")["error"] is None
    native = relate.connect()
    native.execute(NOTES)
    native.create_fulltext_index("Note", "text")
    server = McpServer(native, tools=parse_tools("cypher,search"))
    lines = [call("fulltext_search", label="Note", property="text", query="quick fox", snippets=4),
             call("vector_search", label="Note", property="v", vector=[1, 0.1], k=3),
             call("vector_search", label="Note", property="v")]
    for line in lines:
        # the worker's request form, as JSON text
        browser._page = page
        try:
            answer = json.loads(browser.call(json.dumps({"op": "mcp", "line": line, "tools": "cypher,search"})))
        finally:
            browser._page = None
        assert answer["reply"] == server.handle_line(line)
    assert json.loads(answer["reply"])["error"]["data"] == {"subcode": "VECTOR_ARGUMENT_INVALID"}
    # the page's own database: its cells declared the index, so the hits carry str_id
    reply = json.loads(page.mcp(lines[0], tools="search"))
    hits = json.loads(reply["result"]["content"][0]["text"])["hits"]
    assert [(h["node_id"], h["str_id"]) for h in hits] == [(0, "n0"), (2, "n2")]


def test_the_page_without_the_group_does_not_serve_it():
    page = browser.Page()
    reply = json.loads(page.mcp(call("vector_search", label="Note", property="v", vector=[1.0])))
    assert reply["result"]["isError"] is True
