"""Entities deleted earlier in a statement: writes and property reads fail at run time and roll the
statement back; values read before the delete, `id()` and `type()` still work."""
from __future__ import annotations

import pytest

from relate.errors import RelateError


def test_writes_to_a_deleted_entity_fail_and_roll_back(db, reopen):
    db.execute("CREATE (:D {k: 1})")
    with pytest.raises(RelateError) as info:
        db.execute("MATCH (n:D) DELETE n SET n.k = 2")
    assert (info.value.kind, info.value.tck_type, info.value.phase) == ("DeletedEntityAccess", "EntityNotFound",
                                                                        "runtime")
    assert db.execute("MATCH (n:D) RETURN n.k").rows == [(1,)]
    assert reopen(db).execute("MATCH (n:D) RETURN n.k").rows == [(1,)]


@pytest.mark.parametrize("query", [
    "MATCH (n:D) DELETE n RETURN n.k",
    "MATCH (n:D) DELETE n RETURN labels(n)",
    "MATCH (n:D) DELETE n RETURN keys(n)",
    "MATCH (n:D) DELETE n RETURN properties(n)",
    "MATCH (n:D) DELETE n RETURN n {.*}",
    "MATCH (n:D) DELETE n RETURN n['k']",
    "MATCH (n:D) DELETE n RETURN {a: n.k, b: n.j}",
    "MATCH (:E)-[r]->() DELETE r RETURN r.w",
])
def test_reads_of_an_entity_deleted_earlier_fail_and_roll_back(db, query):
    db.execute("CREATE (:D {k: 1, j: 2}), (:E)-[:T {w: 3}]->()")
    with pytest.raises(RelateError) as info:
        db.execute(query)
    assert (info.value.kind, info.value.tck_type, info.value.phase) == ("DeletedEntityAccess", "EntityNotFound",
                                                                        "runtime")
    assert db.execute("MATCH (n) RETURN count(n) AS n").rows == [(3,)]


def test_values_read_before_the_delete_are_kept(db):
    db.execute("CREATE (:D {k: 1})-[:T]->(:D {k: 2})")
    rows = db.execute("MATCH (n:D) WITH n, n.k AS k ORDER BY k DETACH DELETE n RETURN k, id(n) >= 0 AS has_id").rows
    assert rows == [(1, True), (2, True)]
    assert db.execute("MATCH (:E)-[r]->() DELETE r RETURN type(r) AS t").rows == []
