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


def _doc(out: str) -> dict:
    return json.loads(out.replace("<ms>", "0"))  # `cli` writes timings as <ms>


def test_every_output_mode_shows_the_valid_now_warning(tmp_path):
    path = _store(tmp_path)
    db = relate.connect(path)
    db.execute("AT VALID '2999-01-01' MATCH (p:P) SET p.x = 3")
    db.close()
    out, _, code = cli("--database", path, "--mode", "envelope", "MATCH (p:P) RETURN p.x AS x")
    doc = _doc(out)
    assert code == 0 and doc["rows"] == [{"x": 2}]
    assert [n["code"] for n in doc["notifications"]] == ["CURRENT_READ_VALID_NOW"]
    out, _, _ = cli("--database", path, "--mode", "jsonl", "MATCH (p:P) RETURN p.x AS x")
    assert _doc(out.splitlines()[-1])["notifications"][0]["code"] == "CURRENT_READ_VALID_NOW"
    out, _, _ = cli("--database", path, "--mode", "table", "MATCH (p:P) RETURN p.x AS x")
    assert "WARNING CURRENT_READ_VALID_NOW" in out
    out, _, _ = cli("--database", path, "--mode", "toon", "MATCH (p:P) RETURN p.x AS x")
    assert "CURRENT_READ_VALID_NOW" in out
    # a read at a past time shows that time's graph, where nothing lies later
    out, _, _ = cli("--database", path, "--mode", "envelope", "--at-time", "2021-06-01", "MATCH (p:P) RETURN p.x AS x")
    doc = _doc(out)
    assert doc["rows"] == [{"x": 1}] and doc["notifications"] == []
