"""`relate --at-time ISO`: every statement reads the store as of that valid time (AS OF)."""
from __future__ import annotations

import json

import relate
from tests.cli.test_cli import cli


def _store(tmp_path) -> str:
    path = str(tmp_path / "g.rl")
    db = relate.connect(path)
    db.execute("AT VALID '2020-01-01' CREATE (:P {x: 1})")
    db.execute("AT VALID '2022-01-01' MATCH (p:P) SET p.x = 2")
    db.close()
    return path


def test_at_time_reads_the_past(tmp_path):
    path = _store(tmp_path)
    out, err, code = cli("--database", path, "--mode", "jsonl", "--at-time", "2021-06-01",
                         "MATCH (p:P) RETURN p.x AS x")
    assert (code, err, json.loads(out.splitlines()[0])) == (0, "", {"x": 1})
    out, _, _ = cli("--database", path, "--mode", "jsonl", "MATCH (p:P) RETURN p.x AS x")
    assert json.loads(out.splitlines()[0]) == {"x": 2}


def test_at_time_refuses_a_write_and_says_to_use_at_valid(tmp_path):
    path = _store(tmp_path)
    out, err, code = cli("--database", path, "--mode", "jsonl", "--at-time", "2021-06-01", "CREATE (:Q)")
    assert code != 0 and "AtTimeWrite" in out and "AT VALID" in out
    out, _, code = cli("--database", path, "--mode", "jsonl", "--at-time", "2021-06-01", "RETURN 1")
    assert code != 0 and "AtTimeNeedsMatch" in out
