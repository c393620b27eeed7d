"""Compile-time refusals: kind, TCK type and phase, where they point, and that nothing ran."""
from __future__ import annotations

import pytest

import relate
from relate.errors import CypherSemanticError, RelateError
from tests.unit.answers import fails

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


def test_missing_parameter_is_a_typed_error(db):
    with pytest.raises(CypherSemanticError) as e:
        db.execute("RETURN $limit AS n")
    assert e.value.message == "semantic error: ParameterMissing: Expected parameter(s): limit"


def test_undefined_variable(db):
    with pytest.raises(CypherSemanticError) as e:
        db.execute("RETURN x")
    assert e.value.kind == "UndefinedVariable"


def test_foreach_variable_is_not_visible_after_it():
    with pytest.raises(RelateError) as info:
        relate.connect(":memory:").execute("FOREACH (x IN [1] | CREATE ()) RETURN x")
    assert info.value.kind == "UndefinedVariable"


def test_unknown_function_and_wrong_argument_count_are_compile_time_errors(db):
    e = fails(db, "RETURN nope(1)")
    assert (e.tck_type, e.phase) == ("SyntaxError", "compile")
    e = fails(db, "RETURN toUpper('a', 'b')")
    assert (e.tck_type, e.phase, e.kind) == ("SyntaxError", "compile", "InvalidNumberOfArguments")
