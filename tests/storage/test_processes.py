"""Stores shared between processes: the writer lease, live readers, read-only opens beside a writer."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import relate
from relate.errors import LockedStoreError

RELATE = str(Path(sys.executable).with_name("relate"))
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}


class McpChild:
    """`relate serve --mcp stdio` in a child process, spoken to one request at a time."""

    def __init__(self, *argv: str) -> None:
        self.proc = subprocess.Popen([RELATE, "serve", "--mcp", "stdio", *argv], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.next_id = 1
        self.request(INIT)
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
        self.proc.stdin.flush()

    def request(self, msg: dict) -> dict:
        self.proc.stdin.write(json.dumps(msg) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        assert line, self.proc.stderr.read()
        return json.loads(line)

    def read(self, statement: str) -> list:
        self.next_id += 1
        reply = self.request({"jsonrpc": "2.0", "id": self.next_id, "method": "tools/call",
                              "params": {"name": "read_cypher", "arguments": {"statement": statement}}})
        result = reply["result"]
        assert not result["isError"], result
        return json.loads(result["content"][0]["text"])["rows"]

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            f.close()

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=10)
        self.proc.stdout.close()
        self.proc.stderr.close()


def cli(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([RELATE, *argv], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("name", ["store", "store.rl"])
def test_second_writer_is_locked_out_until_the_first_dies(tmp_path, name):
    path = str(tmp_path / name)
    assert cli("--database", path, "CREATE (:Seed)").returncode == 0
    first = McpChild("--database", path)  # a writable server holds the lease while it runs
    try:
        denied = cli("--database", path, "CREATE (:Second)")
        assert denied.returncode == 5
        assert denied.stderr.startswith("Error: Failed to open Relate: storage error: database is locked")
        assert path in denied.stderr
        with pytest.raises(LockedStoreError) as e:
            relate.connect(path)
        assert e.value.retryable and e.value.exit_code == 5
        # readers need no lease
        ok = cli("--database", path, "--read-only", "MATCH (n) RETURN count(n) AS c")
        assert ok.returncode == 0 and '"c":1' in ok.stdout
    finally:
        first.kill()
    after = cli("--database", path, "CREATE (:Second)")
    assert after.returncode == 0, after.stderr
    db = relate.connect(path, read_only=True)
    assert db.execute("MATCH (n) RETURN labels(n)[0] AS l ORDER BY l").rows == [("Second",), ("Seed",)]


def test_a_dead_writers_lease_and_torn_tail_are_recovered(tmp_path):
    path = str(tmp_path / "store")
    child = subprocess.Popen([sys.executable, "-c", (
        "import relate, sys\n"
        "db = relate.connect(sys.argv[1])\n"
        "db.execute('CREATE (:Before)')\n"
        "print('ready', flush=True)\n"
        "sys.stdin.read()\n"), path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "ready\n"
        with pytest.raises(LockedStoreError):
            relate.connect(path)
        # the killed writer was halfway through an append
        segment = next((tmp_path / "store" / "wal").iterdir())
        with open(segment, "ab") as f:
            f.write(b"T\x03\x00\x00\x01\x00half")
    finally:
        child.kill()
        child.wait()
        child.stdin.close()
        child.stdout.close()
    db = relate.connect(path)
    db.execute("CREATE (:After)")
    db.close()
    again = relate.connect(path, read_only=True)
    assert again.execute("MATCH (n) RETURN labels(n)[0] AS l ORDER BY l").rows == [("After",), ("Before",)]


def test_live_reader_in_another_process_sees_commits_within_a_second(tmp_path):
    path = str(tmp_path / "live")
    writer = relate.connect(path)
    writer.execute("CREATE (:Fresh {n: 0})")
    reader = McpChild("--database", path, "--read-only=live")
    try:
        assert reader.read("MATCH (f:Fresh) RETURN max(f.n) AS n") == [{"n": 0}]
        for n in range(1, 4):
            writer.execute("CREATE (:Fresh {n: $n})", {"n": n})
            t0 = time.monotonic()
            while reader.read("MATCH (f:Fresh) RETURN max(f.n) AS n") != [{"n": n}]:
                assert time.monotonic() - t0 < 1.0, f"commit {n} not seen within a second"
                time.sleep(0.01)
        # a checkpoint retires the WAL the reader follows; it carries on from the new snapshot
        writer.store.checkpoint()
        writer.execute("CREATE INDEX FOR (f:Fresh) ON (f.n)")
        writer.execute("CREATE (:Fresh {n: 4})")
        t0 = time.monotonic()
        while reader.read("MATCH (f:Fresh) RETURN max(f.n) AS n") != [{"n": 4}]:
            assert time.monotonic() - t0 < 1.0, "a commit after a checkpoint was not seen within a second"
            time.sleep(0.01)
        assert reader.read("MATCH (f:Fresh {n: 2}) RETURN f.n AS n") == [{"n": 2}]
    finally:
        reader.close()
        writer.close()


@pytest.mark.parametrize("path", ["g.rl", ":memory:"])
def test_live_read_only_is_refused_without_a_directory_store(tmp_path, path):
    target = path if path == ":memory:" else str(tmp_path / path)
    if path != ":memory:":
        assert cli("--database", target, "CREATE ()").returncode == 0
    proc = subprocess.run([RELATE, "serve", "--mcp", "stdio", "--database", target, "--read-only=live"],
                          input="", capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert proc.stderr.startswith("Error: Failed to open Relate: storage error: live read-only follows")


def test_read_only_open_beside_a_writer_sees_its_commits_so_far(tmp_path):
    path = str(tmp_path / "side")
    writer = relate.connect(path)
    writer.execute("UNWIND range(1, 5) AS i CREATE (:N {i: i})")
    writer.store.checkpoint()
    writer.execute("CREATE (:N {i: 6})")
    proc = cli("--database", path, "--read-only", "MATCH (n:N) RETURN count(n) AS c")
    assert proc.returncode == 0 and '"c":6' in proc.stdout
    writer.close()
