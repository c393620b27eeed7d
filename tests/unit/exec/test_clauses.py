"""Clause and pattern behaviour beyond the public TCK files: FOREACH, variable-length lists and
paths walked from either end, relationship uniqueness across variable-length segments, writes
under LIMIT, full EXISTS/COUNT subqueries and CALL."""
from __future__ import annotations

import pytest

from relate.errors import RelateError

CHAIN = "CREATE (:A {name: 'a'})-[:T {w: 1}]->(:B {name: 'b'})-[:T {w: 2}]->(:C {name: 'c'})"


@pytest.fixture
def chain(db, reopen):
    db.execute(CHAIN)
    return reopen(db)


def test_foreach_runs_its_updates_per_element(db, reopen):
    res = db.execute("FOREACH (x IN [1, 2, 3] | CREATE (:N {v: x}))")
    assert res.columns == () and res.stats.nodes_created == 3
    db.execute("MATCH (n:N) WITH collect(n) AS ns FOREACH (n IN ns | SET n.w = n.v * 10)")
    assert db.execute("MATCH (n:N) RETURN n.w ORDER BY n.w").rows == [(10,), (20,), (30,)]
    db.execute("FOREACH (x IN [1, 2] | FOREACH (y IN [1, 2] | CREATE (:M {p: x * y})))")
    assert db.execute("MATCH (m:M) RETURN sum(m.p)").rows == [(9,)]
    db = reopen(db)
    assert db.execute("MATCH (n:N) RETURN n.w ORDER BY n.w").rows == [(10,), (20,), (30,)]
    assert db.execute("MATCH (m:M) RETURN sum(m.p)").rows == [(9,)]


@pytest.mark.parametrize("query", [
    "MATCH p = (x)-[r:T*]->(z:C) WHERE x:A RETURN [n IN nodes(p) | n.name], [rel IN r | rel.w]",
    "MATCH p = (x:A)-[r:T*]->(z) WHERE z:C RETURN [n IN nodes(p) | n.name], [rel IN r | rel.w]",
])
def test_variable_length_list_reads_as_written_from_either_anchor(chain, query):
    assert chain.execute(query).rows == [(["a", "b", "c"], [1, 2])]


def test_reversed_pattern_reads_right_to_left(chain):
    assert chain.execute("MATCH p = (z:C)<-[r:T*]-(x:A) RETURN [n IN nodes(p) | n.name], [rel IN r | rel.w]"
                         ).rows == [(["c", "b", "a"], [2, 1])]


def test_variable_length_segments_never_share_a_relationship(chain):
    assert chain.execute("MATCH (x)-[r1:T*]->(y), (y)<-[r2:T*]-(x) RETURN count(*)").rows == [(0,)]
    assert chain.execute("MATCH (x)-[:T*]->(y)-[:T*]->(z) RETURN x.name, y.name, z.name").rows == \
        [("a", "b", "c")]


def test_a_bound_relationship_counts_for_uniqueness(chain):
    rows = chain.execute("MATCH ()-[r:T {w: 1}]->() MATCH (a)-[*0..1]-()-[r]-()-[*0..1]-(b) "
                         "RETURN count(*)").rows
    assert rows == [(4,)]


def test_writes_happen_for_rows_a_limit_drops(db, reopen):
    res = db.execute("UNWIND [1, 2, 3] AS x CREATE (n {x: x}) RETURN n.x LIMIT 0")
    assert res.rows == [] and res.stats.nodes_created == 3
    assert db.execute("MATCH (n) RETURN count(n)").rows == [(3,)]
    assert reopen(db).execute("MATCH (n) RETURN n.x ORDER BY n.x").rows == [(1,), (2,), (3,)]


def test_self_loop_in_one_create(db, reopen):
    db.execute("CREATE (a:A)-[:LOOP]->(a)")
    assert db.execute("MATCH (n)-[r]->(n) RETURN labels(n), type(r)").rows == [(["A"], "LOOP")]
    db = reopen(db)
    assert db.execute("MATCH (n)-[r]->(n) RETURN labels(n), type(r)").rows == [(["A"], "LOOP")]


def test_full_subqueries(chain):
    assert chain.execute("MATCH (n) WHERE EXISTS { MATCH (n)-->(m) WHERE m.name = 'c' RETURN m } "
                         "RETURN n.name").rows == [("b",)]
    assert chain.execute("MATCH (n) RETURN n.name, COUNT { MATCH (n)-[:T*]->(m) RETURN m } AS c "
                         "ORDER BY n.name").rows == [("a", 2), ("b", 1), ("c", 0)]
    with pytest.raises(RelateError) as info:
        chain.execute("MATCH (n) WHERE EXISTS { MATCH (n)-->(m) CREATE () RETURN m } RETURN n")
    assert info.value.kind == "InvalidClauseComposition"
    assert chain.execute("MATCH (n) RETURN count(n)").rows == [(3,)]


def test_with_where_sees_variables_from_before_the_projection(chain):
    rows = chain.execute("MATCH (a:A) OPTIONAL MATCH (a)-[r:T]->(x:C) WITH a WHERE r IS NULL "
                         "RETURN a.name").rows
    assert rows == [("a",)]


def test_order_by_reads_a_projected_expression_after_distinct(chain):
    assert chain.execute("MATCH (n) RETURN DISTINCT n.name ORDER BY n.name DESC").rows == \
        [("c",), ("b",), ("a",)]


def test_count_can_name_a_variable(db):
    assert db.execute("UNWIND [1, 1, 2] AS x WITH x, count(*) AS count RETURN x, count ORDER BY x").rows == \
        [(1, 2), (2, 1)]
