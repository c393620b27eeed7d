"""Compile-time refusals: kind, TCK type and phase, where they point, and that nothing ran."""
from __future__ import annotations

import pytest

import relate
from relate.errors import RelateError

CASES = [
    # (statement, kind, offset the error points at)
    ("MATCH (a) RETURN b", "UndefinedVariable", 17),
    ("MATCH ()-[r]-() MATCH (r) RETURN r", "VariableTypeConflict", 22),
    ("WITH 1 AS n MATCH (n) RETURN n", "VariableTypeConflict", 18),
    ("MATCH p = ()-->() MATCH (p) RETURN p", "VariableTypeConflict", 24),
    ("MATCH (a)-[r]->()-[r]->(a) RETURN r", "RelationshipUniquenessViolation", 17),
    ("MATCH (a) CREATE (a)", "VariableAlreadyBound", 17),
    ("MATCH (a)-[r]->(b) MERGE (a)-[r]->(b)", "VariableAlreadyBound", 28),
    ("MATCH (a) MATCH a = ()-->() RETURN a", "VariableAlreadyBound", 16),
    ("UNWIND [1] AS x UNWIND [2] AS x RETURN x", "VariableAlreadyBound", 16),
    ("MATCH (a) WHERE count(a) > 1 RETURN a", "InvalidAggregation", 16),
    ("RETURN count(count(*))", "NestedAggregation", 13),
    ("MATCH (a)--(b) RETURN a.x + count(b)", "AmbiguousAggregationExpression", 22),
    ("MATCH (n) RETURN n LIMIT n.x", "NonConstantExpression", 25),
    ("RETURN 1 AS x LIMIT -1", "NegativeIntegerArgument", 20),
    ("MATCH (n $p) RETURN n", "InvalidParameterUse", 9),
    ("MATCH (n) WITH n.x RETURN 1", "NoExpressionAlias", 15),
    ("MATCH (n) RETURN (n)-->()", "UnexpectedSyntax", 17),
    ("MATCH ()-[r]->() SET r:L", "InvalidArgumentType", 21),
]


@pytest.mark.parametrize("query, kind, offset", CASES)
def test_refused_before_running(query, kind, offset):
    db = relate.connect(":memory:")
    db.execute("CREATE (:Seen)-[:T]->(:Seen)")
    with pytest.raises(RelateError) as info:
        db.execute(query)
    err = info.value
    assert (err.kind, err.tck_type, err.phase) == (kind, "SyntaxError", "compile")
    assert err.position is not None and err.position.offset == offset
    assert db.execute("MATCH (n) RETURN count(n)").rows == [(2,)]


def test_unknown_procedure_is_a_procedure_error():
    with pytest.raises(RelateError) as info:
        relate.connect(":memory:").execute("CALL no.such.proc()")
    assert (info.value.kind, info.value.tck_type, info.value.phase) == ("ProcedureNotFound", "ProcedureError",
                                                                        "compile")


def test_writes_to_a_deleted_entity_fail_and_roll_back():
    db = relate.connect(":memory:")
    db.execute("CREATE (:D {k: 1})")
    with pytest.raises(RelateError) as info:
        db.execute("MATCH (n:D) DELETE n SET n.k = 2")
    assert (info.value.kind, info.value.tck_type, info.value.phase) == ("DeletedEntityAccess", "EntityNotFound",
                                                                        "runtime")
    assert db.execute("MATCH (n:D) RETURN n.k").rows == [(1,)]


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
def test_reads_of_an_entity_deleted_earlier_fail_and_roll_back(query):
    db = relate.connect(":memory:")
    db.execute("CREATE (:D {k: 1, j: 2}), (:E)-[:T {w: 3}]->()")
    with pytest.raises(RelateError) as info:
        db.execute(query)
    assert (info.value.kind, info.value.tck_type, info.value.phase) == ("DeletedEntityAccess", "EntityNotFound",
                                                                        "runtime")
    assert db.execute("MATCH (n) RETURN count(n) AS n").rows == [(3,)]


def test_values_read_before_the_delete_are_kept():
    db = relate.connect(":memory:")
    db.execute("CREATE (:D {k: 1})-[:T]->(:D {k: 2})")
    rows = db.execute("MATCH (n:D) WITH n, n.k AS k ORDER BY k DETACH DELETE n RETURN k, id(n) >= 0 AS has_id").rows
    assert rows == [(1, True), (2, True)]
    assert db.execute("MATCH (:E)-[r]->() DELETE r RETURN type(r) AS t").rows == []
