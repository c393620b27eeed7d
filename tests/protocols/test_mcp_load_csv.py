"""LOAD CSV over MCP (issue 15): refused unless the operator names an import folder
(`relate serve --import-dir DIR`; the MCP core's policy carries it); never on a read-only server;
the tool list is the same with and without the flag.  In process, then over stdio."""
from __future__ import annotations

import json
import subprocess
from dataclasses import replace

import pytest

import relate
from relate.policy import SERVED
from relate.protocols.mcp import McpServer
from tests.net.server import RELATE

LOAD = "LOAD CSV WITH HEADERS FROM 'file:///crew.csv' AS row RETURN row.name AS name"
WRITE = "LOAD CSV WITH HEADERS FROM 'file:///crew.csv' AS row CREATE (:Crew {name: row.name})"


@pytest.fixture
def folder(tmp_path):
    d = tmp_path / "import"
    d.mkdir()
    (d / "crew.csv").write_text("name\nNils\nOona\n")
    return d


def call(server, id_, tool, **arguments):
    line = json.dumps({"jsonrpc": "2.0", "id": id_, "method": "tools/call",
                       "params": {"name": tool, "arguments": arguments}})
    return json.loads(server.handle_line(line))["result"]


def tools(server):
    reply = json.loads(server.handle_line('{"jsonrpc":"2.0","id":1,"method":"tools/list"}'))
    return reply["result"]["tools"]


def test_the_core_refuses_without_a_folder_in_its_policy(folder):
    # the connection has a folder, the MCP core's own policy has none: the core's policy decides
    db = relate.connect(import_dir=str(folder))
    server = McpServer(db, SERVED)
    got = call(server, 1, "read_cypher", statement=LOAD)
    assert got["isError"] and "LoadCsvDisabled" in got["content"][0]["text"]


def test_the_core_runs_it_with_a_folder_and_keeps_the_tool_list(folder):
    db = relate.connect()
    allowed = McpServer(db, replace(SERVED, import_dir=str(folder)))
    assert tools(allowed) == tools(McpServer(db, SERVED))
    got = call(allowed, 1, "read_cypher", statement=LOAD)
    assert not got["isError"]
    assert json.loads(got["content"][0]["text"])["rows"] == [{"name": "Nils"}, {"name": "Oona"}]
    got = call(allowed, 2, "write_cypher", statement=WRITE)
    assert json.loads(got["content"][0]["text"])["stats"]["nodes_created"] == 2
    ro = McpServer(db, replace(SERVED, import_dir=str(folder)), read_only=True)
    got = call(ro, 3, "read_cypher", statement=LOAD)
    assert got["isError"] and "read-only" in got["content"][0]["text"]


def stdio(argv, cwd, *statements):
    lines = "".join(json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                                "params": {"name": tool, "arguments": {"statement": text}}}) + "\n"
                    for i, (tool, text) in enumerate(statements, 1))
    out = subprocess.run([RELATE, "serve", "--mcp", "stdio", *argv], cwd=cwd, input=lines, capture_output=True,
                         text=True, timeout=60)
    return out, [json.loads(line)["result"] for line in out.stdout.splitlines()]


def test_serve_stdio_without_and_with_the_flag(folder, tmp_path):
    out, replies = stdio([], tmp_path, ("read_cypher", LOAD))
    assert out.returncode == 0 and replies[0]["isError"]
    assert "LoadCsvDisabled" in replies[0]["content"][0]["text"] and "--import-dir" in replies[0]["content"][0]["text"]
    out, replies = stdio(["--import-dir", str(folder)], tmp_path, ("read_cypher", LOAD), ("write_cypher", WRITE),
                         ("read_cypher", "MATCH (c:Crew) RETURN count(c) AS n"),
                         ("read_cypher", "LOAD CSV FROM 'file:///../crew.csv' AS r RETURN r"))
    assert out.returncode == 0
    assert json.loads(replies[0]["content"][0]["text"])["rows"] == [{"name": "Nils"}, {"name": "Oona"}]
    assert json.loads(replies[2]["content"][0]["text"])["rows"] == [{"n": 2}]
    assert replies[3]["isError"] and "ExternalResourceFailed" in replies[3]["content"][0]["text"]
    assert str(folder) not in replies[3]["content"][0]["text"]


def test_serve_refuses_the_flag_on_a_read_only_server_or_a_missing_folder(folder, tmp_path):
    out = subprocess.run([RELATE, "serve", "--mcp", "stdio", "--read-only", "--import-dir", str(folder)],
                         cwd=tmp_path, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert out.returncode == 2 and "--import-dir cannot be combined with --read-only" in out.stderr
    out = subprocess.run([RELATE, "serve", "--mcp", "stdio", "--import-dir", str(tmp_path / "nope")],
                         cwd=tmp_path, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert out.returncode == 2 and "--import-dir" in out.stderr


def test_the_cli_flag(folder, tmp_path):
    run = [RELATE, "--mode", "jsonl"]
    out = subprocess.run([*run, "--import-dir", str(folder), LOAD], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and json.loads(out.stdout.splitlines()[0]) == {"name": "Nils"}
    out = subprocess.run([*run, LOAD], capture_output=True, text=True, timeout=60)
    assert out.returncode != 0 and json.loads(out.stdout)["error"]["kind"] == "LoadCsvDisabled"


def test_the_browser_page_has_no_import_folder():
    # the page's cells and both of its MCP cores refuse LOAD CSV with the same typed error
    from relate.browser import Page
    page = Page()
    assert page.cell(LOAD)["kind"] == "LoadCsvDisabled"
    for read_only in (False, True):
        line = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                           "params": {"name": "read_cypher", "arguments": {"statement": LOAD}}})
        text = json.loads(page.mcp(line, read_only))["result"]["content"][0]["text"]
        assert "LoadCsvDisabled" in text or "read-only" in text
