"""Writes: counters, MERGE, and rollback of a failing statement."""
from __future__ import annotations

import pytest

from relate.errors import ConstraintError
from tests.conftest import TEAM


def test_team_create_counters(db):
    s = db.execute(TEAM).stats.as_dict()
    assert (s["nodes_created"], s["relationships_created"], s["properties_set"], s["labels_added"]) == (5, 5, 13, 5)


def test_set_remove_delete(team, reopen):
    assert team.execute("MATCH (p:Person {name: 'Noor'}) SET p.role = 'lead', p:Admin").stats.labels_added == 1
    assert team.execute("MATCH (p:Admin) RETURN p.role").rows == [("lead",)]
    team = reopen(team)
    assert team.execute("MATCH (p:Admin) RETURN p.role").rows == [("lead",)]
    assert team.execute("MATCH (p:Admin) REMOVE p:Admin, p.role").stats.labels_removed == 1
    s = team.execute("MATCH (p:Person {name: 'Noor'}) DETACH DELETE p").stats
    assert (s.nodes_deleted, s.relationships_deleted) == (1, 1)
    assert team.execute("MATCH (n) RETURN count(n)").rows == [(4,)]
    team = reopen(team)
    assert team.execute("MATCH (n) RETURN count(n)").rows == [(4,)]
    assert team.execute("MATCH (p:Admin) RETURN count(p)").rows == [(0,)]
    assert team.execute("MATCH ()-[r]->() RETURN count(r)").rows == [(4,)]


def test_merge_matches_then_creates(db, reopen):
    assert db.execute("MERGE (p:Person {name: 'Ada'})").stats.nodes_created == 1
    db = reopen(db)
    assert db.execute("MERGE (p:Person {name: 'Ada'}) ON MATCH SET p.seen = true").stats.nodes_created == 0
    assert db.execute("MATCH (p:Person) RETURN p.seen").rows == [(True,)]


def test_failing_statement_leaves_graph_unchanged(team, reopen):
    before = team.execute("MATCH (n) RETURN count(n)").rows
    with pytest.raises(ConstraintError):
        team.execute("CREATE (:Temp) WITH 1 AS x MATCH (p:Person {name: 'Ada'}) DELETE p")
    assert team.execute("MATCH (n) RETURN count(n)").rows == before
    assert team.execute("MATCH (t:Temp) RETURN count(t)").rows == [(0,)]
    team = reopen(team)
    assert team.execute("MATCH (n) RETURN count(n)").rows == before
    assert team.execute("MATCH (t:Temp) RETURN count(t)").rows == [(0,)]


def test_set_and_remove_with_is_and_a_computed_property_key(team, reopen):
    s = team.execute("MATCH (p:Person {name: 'Noor'}) SET p IS Admin, p IS $('Lead')").stats
    assert s.labels_added == 2
    s = team.execute("MATCH (p:Person {name: 'Noor'}) WITH p, 'role' AS k REMOVE p[k], p IS Lead").stats
    assert (s.properties_set, s.labels_removed) == (1, 1)
    team = reopen(team)
    assert team.execute("MATCH (p:Person {name: 'Noor'}) RETURN labels(p), p.role").rows == [
        (["Admin", "Person"], None)]
    assert team.execute("MATCH (p:Person {name: 'Noor'}) REMOVE p['nothing']").stats.properties_set == 0


@pytest.mark.parametrize("statement, kind", [
    ("MATCH (p:Person) REMOVE p[1]", "InvalidArgumentType"),
    ("MATCH (p:Person) REMOVE p[null]", "InvalidArgumentType"),
    ("WITH 1 AS x REMOVE x['a']", "InvalidArgumentType"),
    ("MATCH (p:Person) SET p IS A:B", "ParseError"),  # IS takes one label
])
def test_computed_keys_and_is_labels_refuse_what_they_cannot_take(team, statement, kind):
    from relate.errors import RelateError
    with pytest.raises(RelateError) as e:
        team.execute(statement)
    assert e.value.kind == kind
    assert team.execute("MATCH (p:Person) WHERE p:A OR p:B RETURN count(p)").rows == [(0,)]
