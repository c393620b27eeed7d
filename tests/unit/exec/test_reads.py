"""Reads on the team graph: what a user sees in `Result.rows` and `columns`."""
from __future__ import annotations

import pytest

from relate.errors import CypherTypeError


def rows(db, q, **params):
    return db.execute(q, params).rows


def test_return_arithmetic(db):
    r = db.execute("RETURN 1 + 2 AS sum")
    assert r.columns == ("sum",) and r.rows == [(3,)] and r.column_types == ["INTEGER"]


def test_unaliased_column_names_are_the_expression_text(db):
    assert db.execute("RETURN 1+2, 'a'  AS b").columns == ("1+2", "b")


def test_unwind(db):
    assert rows(db, "UNWIND ['Ada', 'Grace', 'Noor'] AS name RETURN name") == [("Ada",), ("Grace",), ("Noor",)]


def test_match_expand_with_parameter_and_order(team):
    q = ("MATCH (p:Person)-[w:WORKS_ON]->(:Project {name: $project}) "
         "RETURN p.name AS name, w.since AS since ORDER BY since")
    assert rows(team, q, project="relate") == [("Grace", 2023), ("Ada", 2024)]


def test_direction_incoming_and_undirected(team):
    assert rows(team, "MATCH (:Person {name: 'Grace'})<-[:KNOWS]-(p) RETURN p.name") == [("Ada",)]
    assert rows(team, "MATCH (:Person {name: 'Grace'})-[:KNOWS]-(p) RETURN p.name") == [("Ada",)]
    assert rows(team, "MATCH (:Person {name: 'Grace'})-[:KNOWS]->(p) RETURN p.name") == []


def test_where_skip_limit_desc(team):
    q = "MATCH (p:Person) WHERE p.role = 'engineer' RETURN p.name AS n ORDER BY n DESC SKIP 0 LIMIT 1"
    assert rows(team, q) == [("Grace",)]


def test_count_and_grouping(team):
    assert rows(team, "MATCH (p:Person) RETURN count(p) AS c") == [(3,)]
    q = "MATCH (p:Person)-[:WORKS_ON]->(j) RETURN j.name AS project, count(*) AS n ORDER BY project"
    assert rows(team, q) == [("opencypher-tck", 1), ("relate", 2)]


def test_count_on_empty_graph_is_zero(db):
    assert rows(db, "MATCH (n) RETURN count(n)") == [(0,)]


def test_optional_match_pads_with_null(team):
    q = "MATCH (p:Person) OPTIONAL MATCH (p)-[:KNOWS]->(f) RETURN p.name, f.name ORDER BY p.name"
    assert rows(team, q) == [("Ada", "Grace"), ("Grace", None), ("Noor", None)]


def test_variable_length_and_path(team):
    q = "MATCH p = (:Person {name: 'Ada'})-[*2]->(x) RETURN x.name, length(p) ORDER BY x.name"
    assert rows(team, q) == [("opencypher-tck", 2), ("relate", 2)]


def test_relationship_uniqueness_within_a_match(team):
    q = "MATCH (a)-[r1]->(b)<-[r2]-(c) WHERE a.name = 'Ada' AND b.name = 'relate' RETURN c.name ORDER BY c.name"
    assert rows(team, q) == [("Grace",), ("Noor",)]


def test_three_valued_logic(db):
    assert rows(db, "RETURN null = 1, null OR true, null AND false, NOT null") == [(None, True, False, None)]


def test_list_comprehension_and_functions(db):
    assert rows(db, "RETURN [x IN range(1, 5) WHERE x % 2 = 1 | x * 10] AS l") == [([10, 30, 50],)]
    assert rows(db, "RETURN toUpper('ab'), size([1,2]), coalesce(null, 3)") == [("AB", 2, 3)]


def test_distinct_and_collect(team):
    assert rows(team, "MATCH (p:Person) RETURN DISTINCT p.role AS r ORDER BY r") == [("engineer",), ("maintainer",)]
    assert rows(team, "MATCH (p:Person) WITH p ORDER BY p.name RETURN collect(p.name)") == [(["Ada", "Grace", "Noor"],)]


def test_union(db):
    assert rows(db, "RETURN 1 AS a UNION RETURN 1 AS a") == [(1,)]
    assert rows(db, "RETURN 1 AS a UNION ALL RETURN 1 AS a") == [(1,), (1,)]


def test_type_error(db):
    # a literal operand is refused before running (see semantic/test_static_types); a parameter at run time
    with pytest.raises(CypherTypeError):
        db.execute("RETURN 1 + $x", {"x": True})


def test_integer_overflow_is_an_error(db):
    with pytest.raises(Exception) as e:
        db.execute("RETURN 9223372036854775807 + 1")
    assert "IntegerOverflow" in str(e.value)
