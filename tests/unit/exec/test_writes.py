"""Writes: counters, rollback of a failing statement, indexes and the plan cache."""
from __future__ import annotations

import pytest

import relate
from relate.errors import ConstraintError, ReadOnlyError, StorageError
from tests.conftest import TEAM


def test_team_create_counters(db):
    s = db.execute(TEAM).stats.as_dict()
    assert (s["nodes_created"], s["relationships_created"], s["properties_set"], s["labels_added"]) == (5, 5, 13, 5)


def test_set_remove_delete(team):
    assert team.execute("MATCH (p:Person {name: 'Noor'}) SET p.role = 'lead', p:Admin").stats.labels_added == 1
    assert team.execute("MATCH (p:Admin) RETURN p.role").rows == [("lead",)]
    assert team.execute("MATCH (p:Admin) REMOVE p:Admin, p.role").stats.labels_removed == 1
    s = team.execute("MATCH (p:Person {name: 'Noor'}) DETACH DELETE p").stats
    assert (s.nodes_deleted, s.relationships_deleted) == (1, 1)
    assert team.execute("MATCH (n) RETURN count(n)").rows == [(4,)]


def test_merge_matches_then_creates(db):
    assert db.execute("MERGE (p:Person {name: 'Ada'})").stats.nodes_created == 1
    assert db.execute("MERGE (p:Person {name: 'Ada'}) ON MATCH SET p.seen = true").stats.nodes_created == 0
    assert db.execute("MATCH (p:Person) RETURN p.seen").rows == [(True,)]


def test_failing_statement_leaves_graph_unchanged(team):
    before = team.execute("MATCH (n) RETURN count(n)").rows
    with pytest.raises(ConstraintError):
        team.execute("CREATE (:Temp) WITH 1 AS x MATCH (p:Person {name: 'Ada'}) DELETE p")
    assert team.execute("MATCH (n) RETURN count(n)").rows == before
    assert team.execute("MATCH (t:Temp) RETURN count(t)").rows == [(0,)]


def test_index_removes_missing_index_notification(team):
    q = "MATCH (p:Project {name: 'relate'}) RETURN p.language"
    first = team.execute(q, notifications=True)
    assert [n.title for n in first.notifications] == ["Missing index"]
    assert team.execute("CREATE INDEX FOR (p:Project) ON (p.name)").stats.indexes_added == 1
    after = team.execute(q, notifications=True)
    assert after.notifications == () and after.rows == [("Rust",)]
    assert after.plan.children[0].operator == "NodeIndexSeek"


def test_plan_cache_outcomes(db):
    assert db.execute("RETURN 1 AS x").plan_cache == "miss"
    assert db.execute("RETURN 1 AS x").plan_cache == "hit-raw-fastpath"
    assert db.execute("RETURN 1  AS x").plan_cache == "miss"


def test_rl_file_is_read_back_by_another_open(tmp_path):
    path = str(tmp_path / "team.rl")
    relate.connect(path).execute(TEAM)
    again = relate.connect(path, read_only=True)
    assert again.execute("MATCH (p:Person) RETURN p.name ORDER BY p.name").rows == [("Ada",), ("Grace",), ("Noor",)]
    with pytest.raises(ReadOnlyError):
        again.execute("CREATE (:X)")


def test_read_only_open_never_creates(tmp_path):
    with pytest.raises(StorageError) as e:
        relate.connect(str(tmp_path / "missing.rl"), read_only=True)
    assert e.value.message == f"storage error: database not found: {tmp_path / 'missing.rl'}"
    assert list(tmp_path.iterdir()) == []


def test_damaged_file_is_refused(tmp_path):
    path = tmp_path / "g.rl"
    relate.connect(str(path)).execute("CREATE (:A {x: 1})")
    raw = path.read_bytes()
    path.write_bytes(raw[:40] + bytes([raw[40] ^ 1]) + raw[41:])  # inside the snapshot, not a torn tail
    with pytest.raises(StorageError) as e:
        relate.connect(str(path))
    assert "checksum" in e.value.message
