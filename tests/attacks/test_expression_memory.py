"""Values built mid-statement against `--expression-memory-limit`, as a hostile client would send
them to `relate serve --mcp stdio`: `range()` of a hundred million, string and list doubling,
`collect()` over a million rows, `reduce()`, list and pattern comprehensions, `replace()` and
`split()` that multiply a text.  Each is answered with the limit's tool error before the value is
built, the same call with a small value still answers, and the server's peak resident memory
(`VmHWM` in /proc/PID/status) stays far below what building the value would take.

(Issue 14.  Before, only a read's returned values were measured: these statements either answered
with a count, having built the value, or grew the process by gigabytes; the test caps the
process's address space so that the old behaviour fails with an error instead of taking the
machine's memory.)
"""
from __future__ import annotations

import json
import resource
import selectors
import subprocess
import sys

import pytest

from tests.net.server import RELATE, tool_call

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/PID/status")

ERROR = ("Error: runtime error: ExpressionMemoryLimit: a result value needs more than {} bytes "
         "(--expression-memory-limit)")
MiB = 1024 * 1024
ADDRESS_SPACE = 3 * 1024 * MiB  # the old behaviour hits this and fails, instead of taking the machine


class Stdio:
    """One `relate serve --mcp stdio` process, asked one line at a time."""

    def __init__(self, *flags: str) -> None:
        def cap() -> None:
            resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
        self.proc = subprocess.Popen([RELATE, "serve", "--mcp", "stdio", "--database", ":memory:", *flags],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     preexec_fn=cap)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.proc.stdout, selectors.EVENT_READ)
        self.ids = 0

    def call(self, tool: str, statement: str, timeout: float = 60.0) -> dict:
        self.ids += 1
        self.proc.stdin.write(tool_call(self.ids, tool, statement=statement) + b"\n")
        self.proc.stdin.flush()
        if not self.selector.select(timeout):
            raise AssertionError(f"no answer within {timeout} s to {statement!r}")
        line = self.proc.stdout.readline()
        assert line, f"the server closed stdout (exit {self.proc.poll()}) on {statement!r}"
        reply = json.loads(line)
        assert reply["id"] == self.ids and "result" in reply, reply  # (main: MemoryError, an internal error)
        return reply["result"]

    def text(self, statement: str) -> str:
        return self.call("read_cypher", statement)["content"][0]["text"]

    def peak_rss(self) -> int:
        """The process's peak resident memory in bytes."""
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
        raise AssertionError("no VmHWM line")

    def close(self) -> int:
        self.proc.stdin.close()
        try:
            return self.proc.wait(30)
        finally:
            self.proc.stdout.close()


@pytest.fixture(scope="module")
def small():
    server = Stdio("--expression-memory-limit", "1MiB")
    # 2,000 matches for the pattern comprehension
    assert server.call("write_cypher", "UNWIND range(1, 2000) AS i CREATE (:A {i: i})-[:R]->(:B)")["isError"] is False
    yield server
    assert server.close() == 0


# each attack, and the same construct with a value under the limit, which still answers
ATTACKS = {
    "range": ("RETURN size(range(1, 100000000)) AS n", "RETURN size(range(1, 1000)) AS n", 1000),
    "string doubling": ("RETURN size(reduce(s = 'x', i IN range(1, 40) | s + s)) AS n",
                        "RETURN size(reduce(s = 'x', i IN range(1, 15) | s + s)) AS n", 2 ** 15),
    "list doubling": ("RETURN size(reduce(l = [1], i IN range(1, 40) | l + l)) AS n",
                      "RETURN size(reduce(l = [1], i IN range(1, 12) | l + l)) AS n", 2 ** 12),
    "collect over many rows": (
        "UNWIND range(1, 1000) AS a UNWIND range(1, 1000) AS b RETURN size(collect(a)) AS n",
        "UNWIND range(1, 200) AS a UNWIND range(1, 100) AS b RETURN size(collect(a)) AS n", 20000),
    "reduce appending": ("RETURN size(reduce(a = [], i IN range(1, 20000) | a + [i, i, i, i])) AS n",
                         "RETURN size(reduce(a = [], i IN range(1, 3000) | a + [i, i, i, i])) AS n", 12000),
    "reduce nesting": ("RETURN size(reduce(a = [], i IN range(1, 2000) | [a, range(1, 2000)])) AS n",
                       "RETURN size(reduce(a = [], i IN range(1, 20) | [a, range(1, 2000)])) AS n", 2),
    "list comprehension": ("RETURN size([i IN range(1, 10000) | range(1, 100)]) AS n",
                           "RETURN size([i IN range(1, 500) | range(1, 100)]) AS n", 500),
    "pattern comprehension": ("RETURN size([(a:A)-->(b) | range(1, 100)]) AS n",
                              "RETURN size([(a:A)-->(b) | b]) AS n", 2000),
    "replace squaring": (
        "WITH reduce(s = 'x', i IN range(1, 13) | s + s) AS s RETURN size(replace(s, '', s)) AS n",
        "WITH reduce(s = 'x', i IN range(1, 8) | s + s) AS s RETURN size(replace(s, '', s)) AS n", 256 * 257 + 256),
    "split into characters": ("RETURN size(split(reduce(s = 'x', i IN range(1, 18) | s + s), '')) AS n",
                              "RETURN size(split(reduce(s = 'x', i IN range(1, 15) | s + s), '')) AS n", 2 ** 15),
}


@pytest.mark.parametrize("attack, under, n", ATTACKS.values(), ids=ATTACKS.keys())
def test_a_value_built_past_the_limit_is_a_tool_error_and_the_server_stays(small, attack, under, n):
    result = small.call("read_cypher", attack, timeout=60)
    assert result["isError"] is True, result
    assert result["content"][0]["text"] == ERROR.format(MiB)
    assert json.loads(small.text(under))["rows"] == [{"n": n}]
    assert small.peak_rss() < 512 * MiB


def test_a_write_building_past_the_limit_is_refused_and_leaves_nothing(small):
    result = small.call("write_cypher", "UNWIND range(1, 1000) AS a UNWIND range(1, 100) AS b "
                                        "WITH collect(a) AS xs CREATE (:Big {n: size(xs)})")
    assert result["isError"] is True, result
    assert result["content"][0]["text"] == ERROR.format(MiB)
    assert json.loads(small.text("MATCH (n:Big) RETURN count(n) AS n"))["rows"] == [{"n": 0}]
    assert small.peak_rss() < 512 * MiB


def test_the_default_limit_refuses_a_huge_range_before_building_it():
    server = Stdio()  # 256 MiB, the default of `relate serve`
    try:
        result = server.call("read_cypher", "RETURN size(range(1, 100000000)) AS n", timeout=60)
        assert result["isError"] is True, result
        assert result["content"][0]["text"] == ERROR.format(256 * MiB)
        assert json.loads(server.text("RETURN 1 AS one"))["rows"] == [{"one": 1}]
        assert server.peak_rss() < 1024 * MiB
    finally:
        assert server.close() == 0
