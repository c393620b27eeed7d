"""Read-only opens change nothing: every file of a store hashes the same before and after each use."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
from pathlib import Path

import pytest

import relate
from relate.errors import ReadOnlyError, StorageError

from .test_processes import RELATE, McpChild, cli

TEAM = ("CREATE (a:Person {name: 'Ada'})-[:KNOWS {since: 2020}]->(b:Person {name: 'Grace'}), "
        "(a)-[:WORKS_ON]->(:Project {name: 'relate'})")


def tree_digest(root: Path) -> dict[str, str]:
    """Every file and folder under `root` -> a hash of its bytes (folders: a marker)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for d in dirnames:
            out[os.path.relpath(os.path.join(dirpath, d), root)] = "<dir>"
        for f in filenames:
            p = os.path.join(dirpath, f)
            out[os.path.relpath(p, root)] = hashlib.sha256(Path(p).read_bytes()).hexdigest()
    return out


def legacy_rl(graph_nodes: list) -> bytes:
    """A store in the first `.rl` layout (format 1)."""
    body = json.dumps({"indexes": [], "next_node": len(graph_nodes), "next_rel": 0,
                       "nodes": [[i, ["Old"], {"n": n}] for i, n in enumerate(graph_nodes)], "rels": []},
                      separators=(",", ":")).encode()
    return b"RELATE-SNAPSHOT 1\n" + hashlib.sha256(body).hexdigest().encode() + b"\n" + body


@pytest.fixture
def stores(tmp_path) -> dict[str, str]:
    """One store of every on-disk shape a reader may meet."""
    d = str(tmp_path / "dir")
    db = relate.connect(d)
    db.execute(TEAM)
    db.execute("CREATE INDEX FOR (p:Person) ON (p.name)")
    db.store.checkpoint()
    db.execute("MATCH (p:Person {name: 'Ada'}) SET p.age = 36")
    db.close()
    seg = next((tmp_path / "dir" / "wal").iterdir())
    with open(seg, "ab") as f:
        f.write(b"T\x03\x00\x00\x00\x40torn")  # an interrupted append a writer would cut off
    (tmp_path / "dir" / ".snapshot-00000000000000000009.rl.tmp-1").write_bytes(b"half a snapshot")
    rl = str(tmp_path / "file.rl")
    db = relate.connect(rl)
    db.execute(TEAM)
    db.execute("MATCH (p:Person) SET p.seen = true")
    db.close()
    with open(rl, "ab") as f:
        f.write(b"T\x03\x00\x00")
    legacy_dir = tmp_path / "legacy"
    legacy_dir.mkdir()
    (legacy_dir / "snapshot.rl").write_bytes(legacy_rl([1, 2]))
    legacy_file = tmp_path / "legacy.rl"
    legacy_file.write_bytes(legacy_rl([3]))
    return {"dir": d, "file": rl, "legacy_dir": str(legacy_dir), "legacy_file": str(legacy_file)}


def read_only_uses(path: str, kind: str, scratch: Path):
    """Each kind of read-only use of the store at `path`; yields its name after running it."""
    out = cli("--database", path, "--read-only", "MATCH (n) RETURN count(n) AS c")
    assert out.returncode == 0, out.stderr
    yield "cli --read-only"
    out = cli("--database", path, "--read-only", "CREATE (:X)")
    assert out.returncode != 0
    yield "cli --read-only refusing a write"
    server = McpChild("--database", path, "--read-only")
    try:
        assert server.read("MATCH (n) RETURN count(n) AS c")[0]["c"] >= 1
        reply = server.request({"jsonrpc": "2.0", "id": 50, "method": "tools/call",
                                "params": {"name": "get_schema", "arguments": {}}})
        assert not reply["result"]["isError"]
        reply = server.request({"jsonrpc": "2.0", "id": 51, "method": "tools/call",
                                "params": {"name": "write_cypher", "arguments": {"statement": "CREATE (:X)"}}})
        assert reply["result"]["isError"]
    finally:
        server.close()
    yield "serve --mcp stdio --read-only"
    if kind in ("dir", "legacy_dir"):
        server = McpChild("--database", path, "--read-only=live")
        try:
            assert server.read("MATCH (n) RETURN count(n) AS c")[0]["c"] >= 1
        finally:
            server.close()
        yield "serve --read-only=live"
    db = relate.connect(path, read_only=True)
    assert db.execute("MATCH (n) RETURN count(n) AS c").rows[0][0] >= 1
    with pytest.raises(ReadOnlyError):
        db.execute("CREATE (:X)")
    db.close()
    yield "relate.connect(read_only=True)"
    for dst in ("copy.rl", "copy-dir"):
        target = scratch / f"{kind}-{dst}"
        out = cli("clone", path, str(target))
        assert out.returncode == 0, out.stderr
    yield "relate clone"


@pytest.mark.parametrize("kind", ["dir", "file", "legacy_dir", "legacy_file"])
def test_read_only_uses_change_no_byte(stores, kind, tmp_path_factory):
    path = stores[kind]
    root = Path(path).parent
    scratch = tmp_path_factory.mktemp("scratch")
    before = tree_digest(root)
    for use in read_only_uses(path, kind, scratch):
        assert tree_digest(root) == before, f"{use} changed the store"


def test_read_only_open_of_a_missing_store_creates_nothing(tmp_path):
    for name in ("nothing", "nested/deeper", "missing.rl"):
        with pytest.raises(StorageError) as e:
            relate.connect(str(tmp_path / name), read_only=True)
        assert e.value.message == f"storage error: database not found: {tmp_path / name}"
    empty = tmp_path / "empty"
    empty.mkdir()
    out = subprocess.run([RELATE, "--database", str(empty), "--read-only", "RETURN 1"],
                         capture_output=True, text=True)
    assert (out.returncode, out.stderr) == (1, f"Error: Failed to open Relate: storage error: database not found: "
                                               f"{empty}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty"] and not list(empty.iterdir())
