"""The official SDK (mcp 2.3.0) on both of its paths against one relate server, over stdio and
HTTP: `mode="legacy"` initializes (2025-11-25), `mode="auto"` probes `server/discover` and stays on
2026-07-28.  With the budgets and structured content on, both see the cut result, the budgets in
the tool descriptions, and `structured_content` (no `outputSchema` is declared, so the SDK has
nothing to validate it against and takes it as it is)."""
from __future__ import annotations

import json

import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests.net.server import start
from tests.net.test_sdk_client import http_client, run_async, stdio

FLAGS = ("--result-budget-bytes", "20", "--structured-content", "--call-timeout-secs", "30")
VERSION = {"legacy": "2025-11-25", "auto": "2026-07-28"}
ROWS = "UNWIND range(1, 5) AS i RETURN i"


async def exercise(client: Client, mode: str) -> None:
    assert client.protocol_version == VERSION[mode]
    assert client.server_info is not None and client.server_info.name == "relate-mcp"
    tools = {t.name: t for t in (await client.list_tools()).tools}
    assert "at most 30 seconds" in tools["read_cypher"].description
    assert "20 bytes of JSON" in tools["read_cypher"].description
    assert "bytes of JSON" not in tools["write_cypher"].description
    assert all(t.output_schema is None for t in tools.values())
    r = await client.call_tool("read_cypher", {"statement": ROWS})
    assert r.is_error is False
    text = json.loads(r.content[0].text)
    assert text["rows"] == [{"i": 1}, {"i": 2}] and text["rowCap"] == {"kept": 2, "total": 5}
    assert r.structured_content == text
    r = await client.call_tool("read_cypher", {"statement": "RETURN 1 AS one"})
    assert r.structured_content["truncated"] is False and r.structured_content["rows"] == [{"one": 1}]


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_stdio_both_paths(mode):
    async def body():
        async with Client(stdio("--database", ":memory:", *FLAGS), mode=mode) as client:
            await exercise(client, mode)
    run_async(body)


@pytest.fixture
def http_server(tmp_path):
    s = start(["--mcp", "0", "--database", ":memory:", "--auth", "agent:pw", *FLAGS], tmp_path)
    yield f"http://127.0.0.1:{s.port}/mcp"
    assert s.stop() == 0


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_http_both_paths(http_server, mode):
    async def body():
        async with http_client() as http:
            async with Client(streamable_http_client(http_server, http_client=http), mode=mode) as client:
                await exercise(client, mode)
    run_async(body)
