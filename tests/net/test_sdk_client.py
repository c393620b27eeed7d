"""The official `mcp` Python SDK client against relate, over stdio and over streamable HTTP with
Basic auth: `mode="legacy"` initializes; `mode="auto"` (the SDK's default) probes `server/discover`
and, since relate answers it, stays on the 2026-07-28 revision.  Either way: list tools, call each
tool, and see refusals as `is_error` results."""
from __future__ import annotations

import json
import sys
import threading
from pathlib import Path

import anyio
import httpx2
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from tests.net.server import start

RELATE = str(Path(sys.executable).with_name("relate"))


def run_async(fn, *args) -> None:
    """Run `fn(*args)` to completion on a fresh event loop in its own thread: the browser tests'
    Playwright session keeps a loop running on the main thread, where a second one cannot start."""
    failure: list[BaseException] = []

    def main() -> None:
        try:
            anyio.run(fn, *args)
        except BaseException as e:  # re-raised on the test's thread
            failure.append(e)

    t = threading.Thread(target=main)
    t.start()
    t.join(300)
    assert not t.is_alive(), "the client did not finish"
    if failure:
        raise failure[0]


def stdio(*extra: str) -> StdioServerParameters:
    return StdioServerParameters(command=RELATE, args=["serve", "--mcp", "stdio", *extra])


VERSION = {"legacy": "2025-11-25", "auto": "2026-07-28"}  # what each SDK mode ends up speaking


async def exercise_writable(client: Client, version: str = "2025-11-25") -> None:
    assert client.server_info.name == "relate-mcp"
    assert client.protocol_version == version
    tools = {t.name: t for t in (await client.list_tools()).tools}
    assert list(tools) == ["write_cypher", "read_cypher", "get_schema"]
    assert tools["read_cypher"].annotations.read_only_hint is True
    assert tools["write_cypher"].annotations.destructive_hint is True
    assert tools["read_cypher"].input_schema["required"] == ["statement"]

    r = await client.call_tool("write_cypher", {"statement": "CREATE (:Person {name: $n, born: 1815})",
                                                "parameters": {"n": "Ada"}})
    assert r.is_error is False
    assert json.loads(r.content[0].text)["stats"]["nodes_created"] == 1
    r = await client.call_tool("read_cypher", {"statement": "MATCH (p:Person) RETURN p.name AS name"})
    assert r.is_error is False and json.loads(r.content[0].text)["rows"] == [{"name": "Ada"}]
    r = await client.call_tool("get_schema", {})
    schema = json.loads(r.content[0].text)
    assert schema["Person"]["count"] == 1
    assert schema["Person"]["properties"] == {"born": {"type": "Integer"}, "name": {"type": "String"}}

    r = await client.call_tool("read_cypher", {"statement": "CREATE (:X)"})
    assert r.is_error is True and r.content[0].text == "Only MATCH queries are allowed for read-query"
    r = await client.call_tool("read_cypher", {"query": "RETURN 1"})
    assert r.is_error is True and r.content[0].text == 'invalid params: missing string "statement"'
    r = await client.call_tool("read_cypher", {"statement": "RETURN $missing AS m"})
    assert r.is_error is True
    assert r.content[0].text == "Error: semantic error: ParameterMissing: Expected parameter(s): missing"


@pytest.mark.parametrize("mode", ["legacy", "auto"])  # auto probes server/discover and keeps the new era
def test_stdio(mode):
    async def body():
        async with Client(stdio("--database", ":memory:"), mode=mode) as client:
            await exercise_writable(client, VERSION[mode])
    run_async(body)


def test_stdio_read_only(tmp_path):
    run_async(stdio_read_only, str(tmp_path / "g.rl"))


async def stdio_read_only(store: str) -> None:
    async with Client(stdio("--database", store), mode="legacy") as client:
        await client.call_tool("write_cypher", {"statement": "CREATE (:T {v: 1})"})
    async with Client(stdio("--database", store, "--read-only"), mode="legacy") as client:
        assert [t.name for t in (await client.list_tools()).tools] == ["read_cypher", "get_schema"]
        r = await client.call_tool("write_cypher", {"statement": "CREATE (:T)"})
        assert r.is_error is True and r.content[0].text == "unknown tool 'write_cypher'"
        r = await client.call_tool("read_cypher", {"statement": "MATCH (t:T) RETURN t.v AS v"})
        assert json.loads(r.content[0].text)["rows"] == [{"v": 1}]


@pytest.fixture
def http_server(tmp_path):
    s = start(["--mcp", "0", "--database", ":memory:", "--auth", "agent:pw"], tmp_path)
    yield f"http://127.0.0.1:{s.port}/mcp"
    assert s.stop() == 0


def http_client(user: str = "agent", password: str = "pw") -> httpx2.AsyncClient:
    return httpx2.AsyncClient(auth=httpx2.BasicAuth(user, password), timeout=httpx2.Timeout(30.0, read=60.0))


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_streamable_http_with_basic_auth(http_server, mode):
    async def body():
        async with http_client() as http:
            async with Client(streamable_http_client(http_server, http_client=http), mode=mode) as client:
                await exercise_writable(client, VERSION[mode])
    run_async(body)


def test_streamable_http_wrong_credential_fails_the_connect(http_server):
    async def body():
        async with http_client(password="nope") as http:
            async with Client(streamable_http_client(http_server, http_client=http), mode="legacy"):
                pass

    with pytest.raises(BaseException) as info:  # an MCPError, possibly inside an ExceptionGroup
        run_async(body)
    errors = [info.value]
    while isinstance(errors[0], BaseExceptionGroup):
        errors = list(errors[0].exceptions)
    assert len(errors) == 1 and isinstance(errors[0], MCPError)
    assert errors[0].error.code == -32603  # the 401 body is not JSON-RPC, so the SDK maps it to -32603
