"""A statement of hundreds of clauses, as the fuzz sent it (the TCK's own 759-clause setup of
"Hilly Fields Technical College", sent to `write_cypher`): the statement ran and committed, then
its reply failed with `-32603 internal error`, because the plan in the reply (a chain of one
operator per clause) was rendered and written by recursion past Python's stack.  A client was
told its write failed when it had been applied.  Now the plan renders without recursion and the
reply is the result.  (Issue 14, found by test_fuzz.py.)"""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

import relate
from tests.net.server import RELATE, rpc, tool_call

CLAUSES = 700
STATEMENT = "CREATE (a:A)\n" + "\n".join(f"CREATE (a)-[:R]->(:B {{i: {i}}})" for i in range(CLAUSES))


def _depth(plan: dict) -> int:
    depth, node = 0, plan["root"]
    while node["children"]:
        depth += 1
        node = node["children"][0]
    return depth


def _loads_deep(text: str):
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(20_000)  # the stdlib reader recurses per level; the reply is ~1,400 deep
    try:
        return json.loads(text)
    finally:
        sys.setrecursionlimit(limit)


def test_stdio_write_of_hundreds_of_clauses_gets_its_result(tmp_path):
    store = str(tmp_path / "long.rl")
    requests = [tool_call(1, "write_cypher", statement=STATEMENT), rpc(2, "ping"),
                tool_call(3, "read_cypher", statement="MATCH (b:B) RETURN count(b) AS n")]
    proc = subprocess.run([RELATE, "serve", "--mcp", "stdio", "--database", store],
                          input=b"\n".join(requests) + b"\n", capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")
    replies = [json.loads(line) for line in proc.stdout.decode("utf-8").splitlines()]
    assert [r["id"] for r in replies] == [1, 2, 3]
    assert "error" not in replies[0], replies[0]
    assert replies[0]["result"]["isError"] is False
    body = _loads_deep(replies[0]["result"]["content"][0]["text"])
    assert body["stats"]["nodes_created"] == CLAUSES + 1
    assert _depth(body["plan"]) >= CLAUSES
    assert json.loads(replies[2]["result"]["content"][0]["text"])["rows"] == [{"n": CLAUSES}]
    assert b"Traceback" not in proc.stderr


def test_the_api_renders_the_plan():
    with relate.connect() as db:
        result = db.execute(STATEMENT)
        assert _depth(result.plan_json()) >= CLAUSES
        assert db.execute("MATCH (b:B) RETURN count(b)").rows == [(CLAUSES,)]


def _pipelines():
    yield "WITH 1 AS x\n" + "".join(f"WITH x + {i} AS x\n" for i in range(1500)) + "RETURN x"
    yield "CREATE (a:A)\n" + "".join(f"CREATE (a)-[:R]->(:B {{i: {i}}})\n" for i in range(3000))


@pytest.mark.parametrize("statement", list(_pipelines()), ids=["with-chain", "create-chain"])
def test_a_chain_too_long_for_the_stack_is_a_typed_error_and_writes_nothing(statement):
    db = relate.connect(":memory:")
    with pytest.raises(relate.RelateError) as info:
        db.execute(statement)
    assert info.value.kind == "PipelineTooDeep"
    assert "nothing was written" in str(info.value)
    assert db.execute("MATCH (n) RETURN count(n) AS n").rows == [(0,)]
    assert db.execute("RETURN 1 AS one").rows == [(1,)]  # the connection goes on
