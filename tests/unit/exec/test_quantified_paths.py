"""Neo4j 5 path patterns as the manual defines them: quantified relationships and quantified path
patterns (bounds, group variables, the WHERE inside, trail semantics, direction, paths), path
selectors (partitions by end nodes, ANY k, SHORTEST k, ALL SHORTEST, SHORTEST k GROUPS, pre- and
post-filters), shortestPath with a WHERE applied during its search, the refusals with their
positions, EXPLAIN, and the deadline and cancel token stopping the hop loops."""
from __future__ import annotations

import threading
import time

import pytest

import relate
from relate.errors import E, CypherSyntaxError, RelateError, StatementCancelled, StatementTimeout
from relate.exec.context import CancelToken

# a line a -> b -> c -> d -> e (LEG, km 1..4); roads s-a-t, s-d-t (2 legs) and s-b-c-t (3 legs)
GRAPH = ("CREATE (a:Stop {name: 'a'})-[:LEG {km: 1}]->(b:Stop {name: 'b'})-[:LEG {km: 2}]->(c:Stop {name: 'c'}), "
         "(c)-[:LEG {km: 3}]->(d:Stop {name: 'd'})-[:LEG {km: 4}]->(e:Stop {name: 'e'}), "
         "(s:Town {n: 's'}), (ta:Town {n: 'a'}), (tb:Town {n: 'b'}), (tc:Town {n: 'c'}), (td:Town {n: 'd'}), "
         "(t:Town {n: 't'}), (s)-[:ROAD {km: 4}]->(ta), (ta)-[:ROAD {km: 4}]->(t), (s)-[:ROAD {km: 1}]->(tb), "
         "(tb)-[:ROAD {km: 1}]->(tc), (tc)-[:ROAD {km: 1}]->(t), (s)-[:ROAD {km: 2}]->(td), "
         "(td)-[:ROAD {km: 9}]->(t)")


@pytest.fixture(scope="module")
def db(module_store):
    conn = module_store.connect()
    conn.execute(GRAPH)
    return module_store.reopen(conn)


def rows(db, q):
    return sorted(db.execute(q).rows)


# ---------------------------------------------------------------- quantified path patterns
@pytest.mark.parametrize("quantifier, ends", [
    ("{2}", ["c"]), ("{1,3}", ["b", "c", "d"]), ("+", ["b", "c", "d", "e"]),
    ("*", ["a", "b", "c", "d", "e"]), ("{3,}", ["d", "e"]), ("{,1}", ["a", "b"]), ("{0}", ["a"]),
])
def test_quantifiers_bound_the_iterations(db, quantifier, ends):
    q = f"MATCH (:Stop {{name: 'a'}}) ((x)-[:LEG]->(y)){quantifier} (end) RETURN end.name"
    assert rows(db, q) == [(n,) for n in ends]
    q = f"MATCH (:Stop {{name: 'a'}})-[:LEG]->{quantifier}(end) RETURN end.name"
    assert rows(db, q) == [(n,) for n in ends]


def test_group_variables_are_lists_one_entry_per_iteration(db):
    q = ("MATCH (:Stop {name: 'a'}) ((x)-[r:LEG]->(y)){2,3} (end) "
         "RETURN [n IN x | n.name], [n IN y | n.name], [l IN r | l.km], size(r)")
    assert rows(db, q) == [(["a", "b"], ["b", "c"], [1, 2], 2), (["a", "b", "c"], ["b", "c", "d"], [1, 2, 3], 3)]


def test_the_inner_where_applies_to_every_iteration_and_sees_outer_variables(db):
    q = "MATCH (:Stop {name: 'b'}) ((x)-[r:LEG]->(y) WHERE r.km >= 2){1,2} (end) RETURN end.name"
    assert rows(db, q) == [("c",), ("d",)]
    q = ("MATCH (lim:Stop {name: 'c'}) MATCH (:Stop {name: 'a'}) ((x)-[r:LEG]->(y) WHERE y <> lim)+ (end) "
         "RETURN end.name")
    assert rows(db, q) == [("b",)]


def test_walked_from_the_right_the_lists_still_read_as_written(db):
    q = ("MATCH (start) ((x)-[r:LEG]->(y)){2} (:Stop {name: 'e'}) "
         "RETURN start.name, [n IN x | n.name], [l IN r | l.km]")
    assert rows(db, q) == [("c", ["c", "d"], [3, 4])]
    q = "MATCH p = (:Stop {name: 'a'}) ((x)-[:LEG]->(y)){2} (m) ((u)-[:LEG]->(v))+ (:Stop {name: 'e'}) RETURN m.name"
    assert rows(db, q) == [("c",)]


def test_paths_through_quantified_patterns(db):
    q = "MATCH p = (:Stop {name: 'b'}) ((x)-[:LEG]->(y)){2} (:Stop) RETURN [n IN nodes(p) | n.name], length(p)"
    assert rows(db, q) == [(["b", "c", "d"], 2)]
    q = "MATCH p = (:Stop {name: 'b'})-[:LEG]->*(end) WHERE end.name = 'b' RETURN length(p)"
    assert rows(db, q) == [(0,)]


def test_trail_semantics_undirected(db):
    q = "MATCH (:Stop {name: 'c'}) ((x)-[:LEG]-(y)){2} (end) RETURN end.name"
    assert rows(db, q) == [("a",), ("e",)]


def test_relationships_of_other_parts_are_not_reused(db):
    q = ("MATCH (:Stop {name: 'a'})-[first:LEG]->(b), (:Stop {name: 'a'}) ((x)-[:LEG]->(y))+ (end) "
         "RETURN end.name")
    assert rows(db, q) == []


def test_match_modes_and_subquery_patterns(db):
    q = "MATCH DIFFERENT RELATIONSHIPS (:Stop {name: 'a'})-[:LEG]->+(end) RETURN count(*)"
    assert rows(db, q) == [(4,)]
    q = "MATCH (a:Stop) WHERE EXISTS { (a) ((x)-[:LEG]->(y)){3} (b) } RETURN a.name"
    assert rows(db, q) == [("a",), ("b",)]
    q = "MATCH (a:Stop) RETURN a.name, COUNT { (a)-[:LEG]->+() } AS n"
    assert rows(db, q) == [("a", 4), ("b", 3), ("c", 2), ("d", 1), ("e", 0)]
    q = "MATCH p = shortestPath((:Stop {name: 'a'})-[:LEG]->+(:Stop {name: 'c'})) RETURN length(p)"
    assert rows(db, q) == [(2,)]


# ---------------------------------------------------------------- selectors
def test_selectors(db):
    s, t = "(:Town {n: 's'})", "(:Town {n: 't'})"
    base = f"{s}-[:ROAD]->+{t} RETURN length(p) AS len"
    assert rows(db, f"MATCH p = SHORTEST 1 {base}") == [(2,)]
    assert rows(db, f"MATCH p = ANY SHORTEST {base}") == [(2,)]
    assert rows(db, f"MATCH p = SHORTEST 3 {base}") == [(2,), (2,), (3,)]
    assert rows(db, f"MATCH p = ALL SHORTEST {base}") == [(2,), (2,)]
    assert rows(db, f"MATCH p = SHORTEST 2 GROUPS {base}") == [(2,), (2,), (3,)]
    assert rows(db, f"MATCH p = SHORTEST 1 GROUPS {base}") == [(2,), (2,)]
    assert len(rows(db, f"MATCH p = ANY {base}")) == 1
    assert len(rows(db, f"MATCH p = ANY 2 PATHS {base}")) == 2
    assert len(rows(db, f"MATCH p = ALL PATHS {base}")) == 3


def test_a_selector_partitions_by_end_nodes(db):
    q = "MATCH p = SHORTEST 1 (:Town {n: 's'})-[:ROAD]->+(x) RETURN x.n, length(p)"
    assert rows(db, q) == [("a", 1), ("b", 1), ("c", 2), ("d", 1), ("t", 2)]


def test_pre_filters_run_before_the_selection_and_the_match_where_after(db):
    q = ("MATCH p = SHORTEST 1 ((:Town {n: 's'})-[r:ROAD]->+(:Town {n: 't'}) "
         "WHERE reduce(k = 0, x IN r | k + x.km) < 8) RETURN [x IN nodes(p) | x.n]")
    assert rows(db, q) == [(["s", "b", "c", "t"],)]
    q = ("MATCH p = SHORTEST 1 (:Town {n: 's'})-[r:ROAD]->+(:Town {n: 't'}) "
         "WHERE all(x IN r WHERE x.km < 3) RETURN p")
    assert rows(db, q) == []
    q = "MATCH SHORTEST 1 (p = (:Town {n: 's'})-[:ROAD]->+(x:Town) WHERE length(p) >= 2) RETURN x.n, length(p)"
    assert rows(db, q) == [("c", 2), ("t", 2)]


def test_selector_with_group_variables(db):
    q = "MATCH ALL SHORTEST (:Town {n: 's'}) ((u)-[r:ROAD]->(v))+ (:Town {n: 't'}) RETURN [x IN u | x.n]"
    assert rows(db, q) == [(["s", "a"],), (["s", "d"],)]


# ---------------------------------------------------------------- shortestPath during the search
def test_shortest_path_where_on_relationships_applies_during_the_search(db):
    base = "MATCH (s:Town {n: 's'}), (t:Town {n: 't'}) MATCH p = shortestPath((s)-[rs:ROAD*]->(t)) "
    assert rows(db, base + "WHERE all(r IN relationships(p) WHERE r.km < 3) RETURN [x IN nodes(p) | x.n]") == [
        (["s", "b", "c", "t"],)]
    assert rows(db, base + "WHERE none(r IN rs WHERE r.km > 3) RETURN [x IN nodes(p) | x.n]") == [
        (["s", "b", "c", "t"],)]
    # a conjunct on the whole path still filters afterwards
    assert rows(db, base + "WHERE all(r IN relationships(p) WHERE r.km < 3) AND length(p) < 3 RETURN p") == []
    q = ("MATCH (s:Town {n: 's'}), (t:Town {n: 't'}) MATCH p = allShortestPaths((s)-[:ROAD*]->(t)) "
         "WHERE all(r IN relationships(p) WHERE r.km >= 2) RETURN [x IN nodes(p) | x.n]")
    assert rows(db, q) == [(["s", "a", "t"],), (["s", "d", "t"],)]
    q = ("MATCH (s:Town {n: 's'}), (t:Town {n: 't'}) OPTIONAL MATCH p = shortestPath((s)-[:ROAD*]->(t)) "
         "WHERE all(r IN relationships(p) WHERE r.km > 100) RETURN p")
    assert rows(db, q) == [(None,)]


# ---------------------------------------------------------------- refusals
@pytest.mark.parametrize("q, kind, column", [
    ("MATCH (a) ((x)-[:LEG]->(y)){3,1} (b) RETURN a", "InvalidQuantifier", 11),
    ("MATCH (a)-[:LEG]->{4,2}(b) RETURN a", "InvalidQuantifier", 10),
    ("MATCH ((x:Stop)){1,2} RETURN x", "InvalidPathPattern", 7),
    ("MATCH (a) (((x)-[:LEG]->(y)){1,2}){2} (b) RETURN a", "InvalidPathPattern", 12),
    ("MATCH (a) ((x)-[:LEG*]->(y)){2} (b) RETURN a", "InvalidPathPattern", 15),
    ("MATCH (a)-[:LEG*1..2]->(m) ((x)-[:LEG]->(y)){1} (b) RETURN m", "InvalidPathPattern", 10),
    ("MATCH (a)-[:LEG*]->{2}(b) RETURN a", "InvalidPathPattern", 10),
    ("MATCH (a) (b) RETURN a", "InvalidPathPattern", 11),
    ("MATCH (a) ((x)-->(y)) (b) RETURN a", "InvalidPathPattern", 11),
    ("MATCH p = SHORTEST 1 (a)-->+(b), (c) RETURN p", "InvalidPathPattern", 11),
    ("MATCH p = SHORTEST 0 (a)-->+(b) RETURN p", "InvalidPathPattern", 11),
    ("CREATE (a)-[:R]->{2}(b)", "InvalidPathPattern", 11),
    ("CREATE SHORTEST 1 (a)-[:R]->(b)", "InvalidPathPattern", 8),
    ("MATCH (x) MATCH (a) ((x)-[:LEG]->(y))+ (b) RETURN a", "VariableAlreadyBound", 21),
    ("MATCH (a) ((x)-[:LEG]->(y))+ (b), (x)-->() RETURN a", "VariableTypeConflict", None),
    ("MATCH p = shortestPath((a) ((x)-[:LEG]->(y))+ (b)) RETURN p", "InvalidPathPattern", 28),
    ("MATCH REPEATABLE ELEMENTS (a)-->(b) RETURN a", "UnsupportedClause", 7),
])
def test_refusals_are_typed_and_positioned(db, q, kind, column):
    with pytest.raises(RelateError) as e:
        db.execute(q)
    assert e.value.kind == kind, str(e.value)
    assert e.value.tck_type == "SyntaxError"
    if column is not None:
        assert e.value.position.column == column


def test_the_juxtaposition_refusal_is_a_syntax_error(db):
    with pytest.raises(CypherSyntaxError):
        db.execute("MATCH (a) (b) RETURN a")


# ---------------------------------------------------------------- EXPLAIN
def test_explain_names_the_new_operators(db):
    def op(q):
        return db.execute("EXPLAIN " + q).plan.children[0]
    p = op("MATCH (a:Stop) ((x)-[:LEG]->(y)){1,2} (b) RETURN b")
    assert (p.operator, p.details) == ("Repeat", "(a:Stop) ((x)-[:LEG]->(y)){1,2} (b)")
    p = op("MATCH (s) ((x)-[r:LEG]->(y)){2} (:Stop {name: 'e'}) RETURN s")  # walked from the right
    assert (p.operator, p.details) == ("Repeat", "(:Stop) ((y)<-[r:LEG]-(x)){2} (s)")
    p = op("MATCH p = ALL SHORTEST (a:Town)-[:ROAD]->+(b) RETURN p")
    assert (p.operator, p.details) == ("StatefulShortestPath", "ALL SHORTEST (a:Town)-[:ROAD]->+(b)")
    p = op("MATCH p = ANY 2 (a:Town)-[:ROAD]->{1,3}(b) RETURN p")
    assert (p.operator, p.details) == ("SelectPaths", "ANY 2 (a:Town)-[:ROAD]->{1,3}(b)")


# ---------------------------------------------------------------- stopping
DENSE = ("UNWIND range(1, 7) AS i CREATE (:N {i: i}) WITH count(*) AS made "
         "MATCH (a:N), (b:N) WHERE a <> b CREATE (a)-[:R]->(b)")
RUNAWAYS = [
    "MATCH (a) ((x)-[:R]->(y))+ (b) RETURN count(*)",
    "MATCH p = SHORTEST 2 (a)-[:R]->+(b) RETURN count(*)",  # (SHORTEST 1 is a search, done at once)
    "MATCH (a)-[:R]-+(b) RETURN count(*)",
]


@pytest.mark.needs_processes
@pytest.mark.parametrize("statement", RUNAWAYS)
def test_timeouts_and_cancel_tokens_stop_the_hop_loops(statement):
    dense = relate.connect()
    dense.execute(DENSE)
    t0 = time.monotonic()
    with pytest.raises(StatementTimeout):
        dense.execute(statement, timeout=0.3)
    assert time.monotonic() - t0 < 10
    token = CancelToken()
    threading.Thread(target=lambda: (time.sleep(0.2), token.cancel(E.Cancelled.ClientGone))).start()
    with pytest.raises(StatementCancelled):
        dense.execute(statement, cancel=token)


# ---------------------------------------------------------------- inline WHERE inside quantifiers
def test_an_inline_where_inside_a_quantified_path_pattern_holds_per_iteration(db):
    q = ("MATCH (:Stop {name: 'a'}) ((:Stop)-[:LEG]->(m:Stop WHERE m.name <> 'd')){1,4} (end) "
         "RETURN end.name")
    assert rows(db, q) == [("b",), ("c",)]
    q = ("MATCH (:Stop {name: 'a'}) ((x)-[r:LEG WHERE r.km < 3]->(y) WHERE x.name <> 'b'){1,4} (end) "
         "RETURN end.name")
    assert rows(db, q) == [("b",)]


def test_a_quantified_relationship_with_an_inline_where_filters_each_hop(db):
    q = "MATCH (:Stop {name: 'b'})-[r:LEG WHERE r.km < 4]->{1,5}(end) RETURN end.name, [x IN r | x.km]"
    assert rows(db, q) == [("c", [2]), ("d", [2, 3])]
    q = ("MATCH p = SHORTEST 1 (:Town {n: 's'})-[r:ROAD WHERE r.km < 3]->+(:Town {n: 't'}) "
         "RETURN [x IN nodes(p) | x.n]")
    assert rows(db, q) == [(["s", "b", "c", "t"],)]


def test_a_var_length_relationship_still_refuses_an_inline_where(db):
    with pytest.raises(RelateError) as e:
        db.execute("MATCH (a)-[r:LEG* WHERE r.km < 4]->(b) RETURN b")
    assert e.value.kind == "InlineWhereNotAllowed"
