"""The checking stage: every compile-time refusal comes from `semantic.analyze`, in a fixed order,
before the planner runs; the planner and the compiler only build."""
from __future__ import annotations

import pytest

import relate
import relate.database
from relate.errors import InternalError, RelateError
from relate.plan.catalog import catalog
from relate.plan.planner import Planner
from relate.semantic.analyze import analyze
from relate.syntax.parser import parse


def _refusal(db, text: str):
    with pytest.raises(RelateError) as info:
        db.execute(text)
    e = info.value
    return e.kind, e.detail, e.position.offset if e.position else None


# statements with several faults report the first one in the stage's order
PRECEDENCE = [
    # the scoping pass runs over the whole statement before the planner's order is walked
    ("RETURN 1 AS a UNION RETURN b AS b", ("UndefinedVariable", "Variable `b` not defined", 27)),
    # UNION parts are compared as they are planned, the kinds of UNION once all parts are
    ("RETURN 1 AS a UNION RETURN 2 AS b UNION ALL RETURN 3 AS a",
     ("DifferentColumnsInUnion", "All sub queries in an UNION must have the same return column names", None)),
    # CREATE's node maps before its relationships' shapes
    ("CREATE (a {k: 1 AND 2})-[:A|B]->()",
     ("InvalidArgumentType", "Type mismatch: expected Boolean but was Integer", 14)),
    ("CREATE (a)-[:A|B {k: 1 AND 2}]->()",
     ("NoSingleRelationshipType", "A single relationship type must be specified for CREATE", None)),
    # a function's name and arity before its arguments
    ("RETURN nosuch(1 AND 2)", ("UnknownFunction", "Unknown function 'nosuch'", None)),
    ("RETURN toUpper(1 AND 2)", ("InvalidArgumentType", "Type mismatch: expected Boolean but was Integer", 15)),
    ("RETURN toUpper(1, 2 AND 3)", ("InvalidNumberOfArguments", "toUpper() takes 1..1 argument(s), got 2", None)),
    # operands before their operator
    ("RETURN (1 AND 2) - 'a'", ("InvalidArgumentType", "Type mismatch: expected Boolean but was Integer", 8)),
    # a shortestPath relationship bound before
    ("MATCH (a)-[r*]->(b) MATCH shortestPath((a)-[r*]->(b)) RETURN r",
     ("VariableAlreadyBound", "Variable `r` already declared", None)),
]


@pytest.mark.parametrize("text, expected", PRECEDENCE)
def test_the_first_fault_in_stage_order_is_reported(text, expected):
    assert _refusal(relate.connect(":memory:"), text) == expected


def test_a_property_map_reads_what_the_walk_bound_before_it():
    db = relate.connect(":memory:")
    # the walk starts at `a` (no label anywhere): `b` is not bound yet where a's map is read
    assert _refusal(db, "MATCH (a {x: b.y})-->(b) RETURN a") == (
        "UndefinedVariable", "Variable `b` not defined", 13)
    # a labelled `b` is the anchor: the walk binds it first
    assert db.execute("MATCH (a {x: b.y})-->(b:L) RETURN a").rows == []


def test_an_index_moves_the_anchor_and_so_the_first_fault():
    db = relate.connect(":memory:")
    text = "MATCH (a:L {x: 1 AND 2})-->(b:L {y: 1 - 'a'}) RETURN a"
    assert _refusal(db, text) == ("InvalidArgumentType", "Type mismatch: expected Boolean but was Integer", 15)
    db.execute("CREATE INDEX FOR (n:L) ON (n.y)")
    assert _refusal(db, text) == ("InvalidArgumentType",
                                  "Type mismatch: expected Integer or Float but was String", 40)


@pytest.mark.parametrize("text", [
    "RETURN 1 AS a UNION RETURN 2 AS b",
    "CREATE ()-[:A|B]->()",
    "MATCH (n) RETURN n.x + count(*) UNION RETURN 1 AS y",
    "RETURN nosuch.fn(1) AS x",
    "CALL no.such.proc()",
    "WITH 1 AS x RETURN x.k",
])
def test_analysis_alone_refuses_what_execute_refuses(text):
    db = relate.connect(":memory:")
    with pytest.raises(RelateError) as executed:
        db.execute(text)
    with pytest.raises(RelateError) as analysed:
        analyze(parse(text), catalog(db.graph, db.procedures))
    assert type(analysed.value) is type(executed.value)
    assert analysed.value.message == executed.value.message
    assert analysed.value.position == executed.value.position


@pytest.mark.parametrize("text", [
    "RETURN 1 AS a UNION RETURN 2 AS b",
    "CREATE ()-[:A|B]->()",
    "RETURN nosuch(1) AS x",
    "RETURN x",
    "CALL no.such.proc()",
    "MATCH (a) MATCH p = shortestPath((a)-[*2..3]->(b)) RETURN p",
])
def test_the_planner_reports_an_unchecked_statement_as_internal(text):
    db = relate.connect(":memory:")
    with pytest.raises(InternalError) as info:
        Planner(db.graph, db.procedures).plan(parse(text))
    assert info.value.internal and info.value.kind == "Internal"


def test_a_cached_plan_is_not_analysed_again(monkeypatch):
    calls = []
    real = relate.database.analyze
    monkeypatch.setattr(relate.database, "analyze", lambda stmt, cat: calls.append(stmt.text) or real(stmt, cat))
    db = relate.connect(":memory:")
    for _ in range(3):
        db.execute("MATCH (n) RETURN count(n) AS c")
    assert calls == ["MATCH (n) RETURN count(n) AS c"]
