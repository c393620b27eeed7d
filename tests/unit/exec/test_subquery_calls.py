"""`CALL { }` subqueries, COLLECT { }, UNION inside subquery expressions, FINISH and the
standalone ORDER BY / SKIP / LIMIT, on every store kind (writes read back after a reopen)."""
from __future__ import annotations

from collections import Counter


def rows(db, q, **params):
    return db.execute(q, params).rows


def test_unit_subquery_writes_once_per_row_and_keeps_the_rows(db, reopen):
    r = db.execute("UNWIND [3, 5] AS x CALL (x) { CREATE (:Tick {n: x}) } RETURN x")
    assert r.rows == [(3,), (5,)] and r.stats.nodes_created == 2
    db = reopen(db)
    assert sorted(rows(db, "MATCH (t:Tick) RETURN t.n")) == [(3,), (5,)]


def test_a_query_may_end_in_a_unit_subquery(db, reopen):
    r = db.execute("UNWIND range(1, 3) AS i CALL (i) { MERGE (:Bucket {slot: i % 2}) }")
    assert r.columns == () and r.rows == [] and r.stats.nodes_created == 2
    db = reopen(db)
    assert rows(db, "MATCH (b:Bucket) RETURN count(b)") == [(2,)]


def test_each_run_sees_the_runs_before_it_and_later_clauses_see_all(db):
    db.execute("CREATE (:Counter {count: 0})")
    r = db.execute("UNWIND [1, 2, 3] AS x CALL () { MATCH (n:Counter) SET n.count = n.count + 1 "
                   "RETURN n.count AS inner } MATCH (n:Counter) RETURN x, inner, n.count AS total")
    assert r.rows == [(1, 1, 3), (2, 2, 3), (3, 3, 3)]


def test_returning_subquery_multiplies_and_filters_rows(team):
    r = team.execute("MATCH (p:Person) CALL (p) { MATCH (p)-[:KNOWS]->(f) RETURN f.name AS friend } "
                     "RETURN p.name AS name, friend ORDER BY name, friend")
    assert r.rows and all(f is not None for _, f in r.rows)
    opt = team.execute("MATCH (p:Person) OPTIONAL CALL (p) { MATCH (p)-[:KNOWS]->(f) RETURN f.name AS friend } "
                       "RETURN p.name AS name, friend ORDER BY name, friend")
    assert Counter(n for n, _ in opt.rows) >= Counter(n for n, _ in r.rows)
    assert len(opt.rows) == len(r.rows) + sum(1 for n, f in opt.rows if f is None)
    assert {n for n, _ in opt.rows} == {n for (n,) in team.execute("MATCH (p:Person) RETURN p.name").rows}


def test_aggregation_inside_is_per_outer_row(db):
    db.execute("CREATE (:O {n: 'a'})-[:H]->(:B), (:O {n: 'a2'})-[:H]->(:B), (:O {n: 'z'})")
    r = db.execute("MATCH (o:O) CALL (o) { MATCH (o)-[:H]->(b) RETURN count(b) AS c } RETURN o.n, c ORDER BY o.n")
    assert r.rows == [("a", 1), ("a2", 1), ("z", 0)]


def test_union_inside_a_call_and_post_processing(db):
    r = db.execute("UNWIND [2, 3] AS n CALL (n) { RETURN n * n AS v UNION RETURN n + n AS v } RETURN n, v")
    assert sorted(r.rows) == [(2, 4), (3, 6), (3, 9)]
    r = db.execute("CALL () { RETURN 1 AS a UNION ALL RETURN 1 AS a } RETURN count(*) AS n")
    assert r.rows == [(2,)]


def test_importing_with_and_scope_all(db):
    assert rows(db, "UNWIND [4, 6] AS w CALL { WITH w RETURN w / 2 AS half } RETURN w, half") == [(4, 2), (6, 3)]
    assert rows(db, "WITH 'x' AS p, 'y' AS q CALL (*) { RETURN p + q AS pq } RETURN pq") == [("xy",)]
    assert rows(db, "WITH 1 AS a CALL { WITH * RETURN a + 1 AS b } RETURN b") == [(2,)]
    assert rows(db, "CALL { UNWIND ['p', 'q'] AS s RETURN s } RETURN collect(s) AS all") == [(["p", "q"],)]


def test_optional_call_nulls_a_node_and_its_properties(db):
    db.execute("CREATE (:Town {name: 'Ry'}), (:Town {name: 'Ulm'})-[:HAS]->(:Park {size: 3})")
    r = db.execute("MATCH (t:Town) OPTIONAL CALL (t) { MATCH (t)-[:HAS]->(p:Park) RETURN p } "
                   "RETURN t.name AS town, p.size AS size ORDER BY town")
    assert r.rows == [("Ry", None), ("Ulm", 3)]


def test_collect_subquery(db):
    db.execute("CREATE (a:Cook {name: 'Ana'})-[:MAKES]->(:Dish {name: 'soup', mins: 30}), "
               "(a)-[:MAKES]->(:Dish {name: 'stew', mins: 90}), (:Cook {name: 'Cy'})")
    r = db.execute("MATCH (c:Cook) RETURN c.name, COLLECT { MATCH (c)-[:MAKES]->(d) RETURN d.name "
                   "ORDER BY d.mins DESC } AS dishes ORDER BY c.name")
    assert r.rows == [("Ana", ["stew", "soup"]), ("Cy", [])]
    r = db.execute("RETURN COLLECT { MATCH (k:Cook) RETURN k.nick } AS nulls, "
                   "COLLECT { RETURN 1 AS x UNION RETURN 1 AS x UNION RETURN 2 AS x } AS u")
    assert r.rows == [([None, None], [1, 2])]
    r = db.execute("MATCH (c:Cook) WHERE 'soup' IN COLLECT { MATCH (c)-->(d) RETURN d.name } RETURN c.name")
    assert r.rows == [("Ana",)]


def test_union_inside_exists_and_count(db):
    db.execute("CREATE (b:C {n: 'b'})-[:M]->(:X {v: 't'}), (b)-[:T]->(:C {n: 'c'})")
    r = db.execute("MATCH (c:C) RETURN c.n, EXISTS { MATCH (c)-[:T]->(x) RETURN x UNION "
                   "MATCH (x)-[:T]->(c) RETURN x } AS e ORDER BY c.n")
    assert r.rows == [("b", True), ("c", True)]
    r = db.execute("MATCH (b:C {n: 'b'}) RETURN COUNT { MATCH (b)-[:M]->(x) RETURN x.v AS v UNION "
                   "MATCH (b)-[:M]->(x) RETURN x.v AS v } AS n")
    assert r.rows == [(1,)]


def test_finish_keeps_the_writes_and_returns_nothing(db, reopen):
    r = db.execute("UNWIND ['u', 'v'] AS n CREATE (:R {name: n}) FINISH")
    assert r.columns == () and r.rows == [] and r.stats.nodes_created == 2
    db = reopen(db)
    assert rows(db, "MATCH (r:R) RETURN count(r)") == [(2,)]
    assert rows(db, "UNWIND [1, 2] AS i CALL (i) { CREATE (:Lap {i: i}) FINISH } RETURN count(*) AS n") == [(2,)]


def test_standalone_order_skip_limit(db, reopen):
    db.execute("UNWIND [['Oda', 41], ['Per', 29], ['Rut', 35], ['Sam', 52], ['Tor', 23]] AS p "
               "CREATE (:Runner {name: p[0], age: p[1]})")
    assert rows(db, "MATCH (r:Runner) ORDER BY r.age DESC LIMIT 2 RETURN r.name") == [("Sam",), ("Oda",)]
    assert rows(db, "MATCH (r:Runner) ORDER BY r.name OFFSET 3 RETURN r.name") == [("Sam",), ("Tor",)]
    assert rows(db, "UNWIND range(1, 10) AS x ORDER BY x % 4, x SKIP 1 LIMIT 3 RETURN collect(x)") == [([8, 1, 5],)]
    r = db.execute("MATCH (r:Runner) ORDER BY r.age LIMIT 1 SET r.youngest = true RETURN r.name")
    assert r.rows == [("Tor",)] and r.stats.properties_set == 1
    db = reopen(db)
    assert rows(db, "MATCH (r:Runner) WHERE r.youngest RETURN r.name") == [("Tor",)]


def test_optional_call_of_a_procedure_keeps_rows_it_answers_with_nothing(db):
    assert rows(db, "UNWIND [1, 2] AS x OPTIONAL CALL db.labels() YIELD label RETURN x, label") == [
        (1, None), (2, None)]
    db.execute("CREATE (:A)")
    assert rows(db, "WITH 1 AS x OPTIONAL CALL db.labels() YIELD label RETURN x, label") == [(1, "A")]
