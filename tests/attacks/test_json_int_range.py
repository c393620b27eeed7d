"""JSON integers outside 64 bits, as a hostile client sends them, at every door: refused with a
typed error that names where they were, never stored, never turned into something else, and the
server keeps serving.  -2^63 and 2^63-1 are accepted; 2^63 and -2^63-1 are refused; a float
stays a float, including an integral one written with an exponent (`1e19`, `1e30`).

(Issue 14.  Before: 2^63..2^64-1 were taken as parameters and stored, 2^70 or -2^63-1 turned into
floats, over MCP and through the Python API; the CLI's `--param` alone refused them.)
"""
from __future__ import annotations

import json
import subprocess

import pytest

import relate
from relate.errors import UsageError
from tests.net.server import RELATE, post, rpc, start, tool_call

JSON = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
MAX, MIN = 2 ** 63 - 1, -(2 ** 63)
REFUSED = [2 ** 63, MIN - 1, 2 ** 64 - 1, 2 ** 64, 2 ** 70, -(2 ** 70), int("9" * 400)]  # the last: not on MCP
RANGE = "a number is out of range (integers must fit in 64 bits)"


def _text(reply: dict) -> tuple[bool, str]:
    result = reply["result"]
    return result["isError"], result["content"][0]["text"]


def _rows(reply: dict) -> list:
    error, text = _text(reply)
    assert not error, text
    return json.loads(text)["rows"]


def _requests() -> tuple[list[bytes], list]:
    """(request lines, what each reply must be): refusals, the bounds, floats, an id past 64 bits."""
    lines, expected = [], []

    def add(line: bytes, check) -> None:
        lines.append(line)
        expected.append(check)

    n = 0
    for value in REFUSED[:-1]:
        n += 1
        add(tool_call(n, "read_cypher", statement="RETURN $x AS x", parameters={"x": value}),
            ("error", f"Error: parameter $x: {RANGE}"))
    n += 1
    add(tool_call(n, "read_cypher", statement="RETURN $x AS x", parameters={"x": [1, {"a": [2 ** 63]}]}),
        ("error", f"Error: parameter $x[1].a[0]: {RANGE}"))
    n += 1
    add(tool_call(n, "write_cypher", statement="UNWIND $rows AS r CREATE (:N {v: r.v})",
                  parameters={"rows": [{"v": 1}, {"v": 2 ** 63}]}),
        ("error", f"Error: parameter $rows[1].v: {RANGE}"))
    n += 1
    add(tool_call(n, "write_cypher", statement="CREATE (:N {v: $v})", parameters={"v": 2 ** 64 - 1}),
        ("error", f"Error: parameter $v: {RANGE}"))
    for value, shown in ((MAX, MAX), (MIN, MIN), (1e30, 1e30), (1e19, 1e19), (-0.0, -0.0)):
        n += 1
        add(tool_call(n, "read_cypher", statement="RETURN $x AS x", parameters={"x": value}),
            ("rows", [{"x": shown}]))
    n += 1
    # integral exponent forms are JSON floats, as before
    add(b'{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"read_cypher","arguments":'
        b'{"statement":"RETURN $x AS x, $y AS y","parameters":{"x":1e19,"y":1E2}}}}' % n,
        ("rows", [{"x": 1e19, "y": 100.0}]))
    n += 1
    add(tool_call(n, "write_cypher", statement="CREATE (:N {hi: $hi, lo: $lo})", parameters={"hi": MAX, "lo": MIN}),
        ("ok", None))
    n += 1
    add(tool_call(n, "read_cypher", statement="MATCH (n:N) RETURN n.hi AS hi, n.lo AS lo, n.v AS v"),
        ("rows", [{"hi": MAX, "lo": MIN, "v": None}]))
    # the envelope: an id past 64 bits is refused with a positioned parse error, null id
    add(b'{"jsonrpc":"2.0","id":1180591620717411303424,"method":"ping"}',
        ("envelope", "malformed JSON-RPC message: id: a number is out of range (integers must fit "
                     "in 64 bits) at line 1 column 44"))
    add(b'{"jsonrpc":"2.0","id":9223372036854775808,"method":"ping"}',
        ("envelope", "malformed JSON-RPC message: id: a number is out of range (integers must fit "
                     "in 64 bits) at line 1 column 41"))
    add(b'["2.0",-9223372036854775809,"ping"]',
        ("envelope", "malformed JSON-RPC message: id: a number is out of range (integers must fit "
                     "in 64 bits) at line 1 column 27"))
    add(b'{"jsonrpc":"2.0","id":9223372036854775807,"method":"ping"}', ("id", MAX))
    add(b'{"jsonrpc":"2.0","id":-9223372036854775808,"method":"ping"}', ("id", MIN))
    add(b'{"jsonrpc":"2.0","id":1e19,"method":"ping"}', ("id", 1e19))
    n += 1
    add(tool_call(n, "get_schema", sample_size=2 ** 70),
        ("error", f"invalid params: sample_size: {RANGE}"))
    # a literal too large even for a float stays serde's refusal of the whole message, as before
    add(b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"read_cypher","arguments":'
        b'{"statement":"RETURN $x AS x","parameters":{"x":%s}}}}' % (b"9" * 400),
        ("envelope", "malformed JSON-RPC message: number out of range at line 1 column 537"))
    add(rpc(999, "ping"), ("id", 999))
    return lines, expected


def _check(replies: list[dict], expected: list) -> None:
    assert len(replies) == len(expected)
    for reply, (what, want) in zip(replies, expected):
        if what == "error":
            assert _text(reply) == (True, want), reply
        elif what == "rows":
            assert _rows(reply) == want, reply
        elif what == "ok":
            assert _text(reply)[0] is False, reply
        elif what == "envelope":
            assert reply == {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": want}}
        else:
            assert reply == {"jsonrpc": "2.0", "id": want, "result": {}}


def test_stdio_refuses_them_and_keeps_serving(tmp_path):
    store = tmp_path / "s.rl"
    lines, expected = _requests()
    proc = subprocess.run([RELATE, "serve", "--mcp", "stdio", "--database", str(store)],
                          input=b"\n".join(lines) + b"\n", capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")
    _check([json.loads(x) for x in proc.stdout.decode("utf-8").splitlines()], expected)
    with relate.connect(str(store)) as db:  # nothing past 64 bits was stored
        assert db.execute("MATCH (n:N) RETURN n.hi, n.lo, n.v").rows == [(MAX, MIN, None)]


def test_http_refuses_them_and_keeps_serving(tmp_path):
    server = start(["--mcp", "0", "--database", str(tmp_path / "h.rl"), "--auth", "none"], tmp_path)
    try:
        lines, expected = _requests()
        replies = []
        for line, (what, _) in zip(lines, expected):
            r = post(server.port, line, JSON)
            assert r.status == (400 if what == "envelope" else 200), r.body
            replies.append(r.json())
        _check(replies, expected)
    finally:
        assert server.stop() == 0


def _cli(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([RELATE, "--mode", "jsonl", *args], capture_output=True, text=True, timeout=60,
                          cwd=cwd)


@pytest.mark.parametrize("value", [str(v) for v in REFUSED] + ["9" * 5000, "-" + "9" * 5000],
                         ids=lambda v: f"{v[:24]}({len(v)})")
def test_the_cli_refuses_them_in_param_and_params(value, tmp_path):
    for args, where in ((["--param", f"x={value}"], "--param x"),
                        (["--params", '{"x": %s}' % value], "--params"),
                        (["--params", '{"x": [1, {"a": %s}]}' % value], "--params")):
        proc = _cli(*args, "RETURN $x AS x")
        assert proc.returncode == 2, (args, proc.stdout)
        error = json.loads(proc.stdout)["error"]
        assert (error["kind"], error["message"]) == (
            "Usage", f"{where}: a number is out of range (integers must fit in 64 bits, floats must be finite)")
    (tmp_path / "p.json").write_text('{"x": %s}' % value)
    proc = _cli("--params", "@p.json", "RETURN $x AS x", cwd=tmp_path)
    assert proc.returncode == 2 and "out of range" in json.loads(proc.stdout)["error"]["message"]


def test_the_cli_takes_the_bounds_and_floats():
    proc = _cli("--param", f"a={MAX}", "--param", f"b={MIN}", "--params", '{"c": 1e19, "d": 1e30}',
                "RETURN $a AS a, $b AS b, $c AS c, $d AS d")
    assert proc.returncode == 0, proc.stdout
    assert json.loads(proc.stdout.splitlines()[0]) == {"a": MAX, "b": MIN, "c": 1e19, "d": 1e30}


@pytest.mark.parametrize("value", REFUSED, ids=lambda v: f"{str(v)[:24]}({len(str(v))})")
def test_the_python_api_refuses_them(value):
    db = relate.connect()
    for params, where in (({"x": value}, "$x"), ({"x": [value]}, "$x[0]"), ({"x": {"k": value}}, "$x.k")):
        with pytest.raises(UsageError) as caught:
            db.execute("CREATE (:N {v: $x})", params)
        assert caught.value.kind == "Usage"
        assert caught.value.message == f"parameter {where}: {RANGE}"
    assert db.execute("MATCH (n) RETURN count(n)").rows == [(0,)]
    assert db.execute("RETURN $a AS a, $b AS b, $c AS c", {"a": MAX, "b": MIN, "c": True}).rows == [(MAX, MIN, True)]


def test_the_browser_entry_refuses_them():
    from relate import browser

    def cell(parameters_json: str) -> dict:
        request = '{"op": "cell", "statement": "RETURN $x AS x", "parameters": %s}' % parameters_json
        return json.loads(browser.call(request))

    want = {"error": f"parameter $x: {RANGE}", "kind": "Usage"}
    assert cell('{"x": %d}' % 2 ** 70) == want
    assert cell('{"x": [%d]}' % 2 ** 63) == {"error": f"parameter $x[0]: {RANGE}", "kind": "Usage"}
    # a literal too long for Python's own int conversion gets the same answer, not a ValueError
    assert cell('{"x": %s}' % ("9" * 5000)) == want
    assert cell('{"x": %d}' % MAX)["values"] == [[MAX]]
    line = tool_call(1, "read_cypher", statement="RETURN $x AS x", parameters={"x": MIN - 1}).decode()
    reply = json.loads(json.loads(browser.call(json.dumps({"op": "mcp", "line": line})))["reply"])
    assert _text(reply) == (True, f"Error: parameter $x: {RANGE}")
