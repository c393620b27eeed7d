"""The history on disk: format 3 snapshots and WAL records carry it, a checkpoint and a clone keep
it, live readers follow it, and a store written before it (format 2, `data/`: written by relate
before this change) opens, reads as before and counts its entities as created at time 0."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import relate
from relate.storage import dirstore
from relate.storage.copy import clone_store
from relate.temporal.instant import parse_ns

DATA = Path(__file__).parent / "data"


class Clock:
    def __init__(self, iso: str) -> None:
        self.t = parse_ns(iso)

    def __call__(self) -> int:
        return self.t


def _history_graph(path: str, clock: Clock) -> None:
    db = relate.connect(path, clock=clock)
    db.execute("AT VALID '2020-01-01' CREATE (:P {name: 'a', x: 1})-[:R]->(:P {name: 'b'})")
    clock.t = parse_ns("2024-02-01")
    db.execute("AT VALID '2022-01-01' MATCH (p:P {name: 'a'}) SET p.x = 2", provenance={"actor": "me"})
    db.execute("AT VALID '2023-01-01' MATCH (p:P {name: 'b'}) DETACH DELETE p")
    db.execute("AT VALID '2030-01-01' CREATE (:F)")
    db.close()


def _check(db) -> None:
    q = "AS OF $t MATCH (p:P) OPTIONAL MATCH (p)-[:R]->(q) RETURN p.name, p.x, q.name ORDER BY p.name"
    assert db.execute(q, {"t": "2021-01-01"}).rows == [("a", 1, "b"), ("b", None, None)]
    assert db.execute(q, {"t": "2022-06-01"}).rows == [("a", 2, "b"), ("b", None, None)]
    assert db.execute(q, {"t": "2023-06-01"}).rows == [("a", 2, None)]
    assert db.execute("MATCH (f:F) RETURN count(f)").rows == [(0,)]
    assert db.execute("AS OF '2030-06-01' MATCH (f:F) RETURN count(f)").rows == [(1,)]
    assert db.span(db.node_by_str_id("n0")).valid_from == parse_ns("2020-01-01")
    assert db.transaction_record(2)["provenance"] == {"actor": "me"}


@pytest.mark.parametrize("name", ["g.rl", "d"])
def test_history_survives_a_checkpoint_and_a_clone(tmp_path, monkeypatch, name):
    clock = Clock("2024-01-01")
    path = str(tmp_path / name)
    _history_graph(path, clock)
    _check(relate.connect(path, read_only=True, clock=clock))
    db = relate.connect(path, clock=clock)
    db.store.checkpoint()  # the history now lives in the snapshot, not in WAL records
    db.close()
    _check(relate.connect(path, read_only=True, clock=clock))
    for dst in ("copy.rl", "copy-dir"):
        clone_store(path, str(tmp_path / dst))
        copy = relate.connect(str(tmp_path / dst), clock=clock)
        _check(copy)
        assert copy.execute("MATCH (n) RETURN elementId(n) ORDER BY elementId(n)").rows == [("n0",)]
        copy.close()


def test_a_live_reader_rebuilds_the_writers_state(tmp_path, monkeypatch):
    monkeypatch.setattr(dirstore, "CHECKPOINT_MIN_BYTES", 10**9)
    clock = Clock("2024-01-01")
    path = str(tmp_path / "d")
    relate.connect(path).close()
    reader = relate.connect(path, live=True, clock=clock)
    _history_graph(path, clock)
    _check(reader)
    clock.t = parse_ns("2030-01-02")
    assert reader.execute("MATCH (f:F) RETURN count(f)").rows == [(1,)]


@pytest.mark.parametrize("name", ["format2.rl", "format2-dir"])
def test_a_format_2_store_opens_and_reads_as_before(tmp_path, name):
    src = DATA / name
    path = tmp_path / name
    if src.is_dir():
        shutil.copytree(src, path)
    else:
        shutil.copy(src, path)
    clock = Clock("2025-01-01")
    db = relate.connect(str(path), clock=clock)
    people = "MATCH (a:Person)-[k:KNOWS]->(b) RETURN a.name, a.title, k.since, b.name"
    assert db.execute(people).rows == [("Ada", "Countess", 1833, "Charles")]
    assert db.execute("MATCH (g:Gone) RETURN count(g)").rows == [(0,)]
    # what it holds counts as valid and recorded from time 0 ("unknown"), deletes included
    assert db.span(db.node_by_str_id("n0")).as_dict()["validFrom"] == "1970-01-01T00:00:00Z"
    assert db.execute("AS OF '1970-01-01T00:00:00Z' " + people).rows == [("Ada", "Countess", 1833, "Charles")]
    db.execute("MATCH (a:Person {name: 'Ada'}) SET a.title = 'Lady'")
    db.close()
    for read_only in (True, False):
        db = relate.connect(str(path), read_only=read_only, clock=clock)
        assert db.execute("MATCH (a:Person {name: 'Ada'}) RETURN a.title").rows == [("Lady",)]
        assert db.execute("AS OF '2024-01-01' MATCH (a:Person {name: 'Ada'}) RETURN a.title").rows \
            == [("Countess",)]
        db.close()
