"""Compile-time type checks: an operand that can never have an acceptable type is refused before
anything runs (a SyntaxError at compile time, as the openCypher TCK expects); one that might be
fine is left to run time."""
from __future__ import annotations

import pytest

from relate.errors import CypherSyntaxError
from tests.unit.answers import fails


@pytest.mark.parametrize("q", [
    "RETURN 123 AND true", "RETURN null OR 'foo'", "RETURN [true] XOR false", "RETURN NOT 1",
    "RETURN 1 IN 123", "RETURN 'a' - 1", "RETURN -'a'", "RETURN {} * 2", "RETURN 1 + true",
    "WITH 123 AS x RETURN x.num", "WITH [1, 2] AS x RETURN x.num",
    "RETURN none(x IN ['a'] WHERE x % 2 = 0)", "RETURN [x IN [true] | x + 1]",
    "RETURN toUpper(1)", "RETURN size(true)", "MATCH p = (a) RETURN labels(p)",
    "MATCH (a)-[r]->() RETURN labels(r)", "MATCH (a) RETURN type(a)", "UNWIND [1, 2] AS x RETURN x.key",
    "RETURN all(x IN 1 WHERE true)", "RETURN CASE WHEN 1 THEN 2 END", "WITH 1 AS n RETURN n:Foo",
    "RETURN [x IN [1] WHERE x | x]", "RETURN 1 + 'a' - 2", "RETURN toUpper('a') * 2",
])
def test_statically_wrong_operands_fail_at_compile_time(db, q):
    e = fails(db, q)
    assert isinstance(e, CypherSyntaxError)
    assert (e.tck_type, e.phase, e.kind) == ("SyntaxError", "compile", "InvalidArgumentType")
    assert e.detail.startswith("Type mismatch")


def test_compile_time_type_error_points_at_the_operand(db):
    e = fails(db, "RETURN 1,\n  'a' - 2")
    assert e.position is not None and (e.position.line, e.position.column) == (2, 3)


def test_compile_time_refusal_happens_even_when_no_row_would_reach_it(db):
    # the graph is empty: a runtime check would never fire
    e = fails(db, "MATCH (n) RETURN n.name AND 1")
    assert e.phase == "compile"


@pytest.mark.parametrize("q, expected", [
    ("RETURN [x IN [true, 1] | toBoolean(x)]", [True, True]),   # mixed element types: ANY
    ("WITH [2, 2.9, '1.7'] AS things RETURN [n IN things | toInteger(n)]", [2, 2, 1]),
    ("RETURN null AND true", None),
    ("RETURN 'a' + 1", "a1"),
    ("RETURN [1] + 'a'", [1, "a"]),
])
def test_possibly_right_operands_are_left_to_run_time(db, q, expected):
    assert db.execute(q).rows == [(expected,)]


def test_aggregate_inside_a_comprehension_body_is_refused(db):
    e = fails(db, "MATCH (n) RETURN [x IN [1, 2] | count(*)]")
    assert (e.tck_type, e.phase, e.kind) == ("SyntaxError", "compile", "InvalidAggregation")
    # an aggregate that produces the list is fine
    assert db.execute("UNWIND [1, 2] AS x RETURN [y IN collect(x) | y * 10] AS l").rows == [([10, 20],)]
