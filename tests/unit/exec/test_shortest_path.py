"""`shortestPath()` and `allShortestPaths()` in MATCH: lengths, which paths, directions, types,
hop bounds, property maps, no path, OPTIONAL MATCH, bound and unbound ends, WHERE, refusals."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

import relate
from relate.errors import RelateError

# a -> b -> c -> d (T), a -> x -> d (T), a -> d (U); a diamond s -> {l, r} -> t (T)
GRAPH = ("CREATE (a:N {n: 'a'})-[:T {w: 1}]->(b:N {n: 'b'})-[:T {w: 1}]->(c:N {n: 'c'})-[:T {w: 1}]->(d:N {n: 'd'}), "
         "(a)-[:T {w: 5}]->(x:N {n: 'x'})-[:T {w: 5}]->(d), (a)-[:U]->(d), "
         "(s:D {n: 's'})-[:T]->(l:D {n: 'l'})-[:T]->(t:D {n: 't'}), (s)-[:T]->(r:D {n: 'r'})-[:T]->(t)")


@pytest.fixture(scope="module")
def db(module_store):
    """The graph, loaded once per store kind and read back after a reopen."""
    conn = module_store.connect()
    conn.execute(GRAPH)
    return module_store.reopen(conn)


def names(db, q):
    return db.execute(q).rows


def test_shortest_path_picks_the_fewest_hops(db):
    q = "MATCH p = shortestPath((:N {n: 'a'})-[:T*]->(:N {n: 'd'})) RETURN [v IN nodes(p) | v.n] AS ns"
    assert names(db, q) == [(["a", "x", "d"],)]


def test_types_are_honoured(db):
    q = "MATCH p = shortestPath((:N {n: 'a'})-[*]->(:N {n: 'd'})) RETURN [r IN relationships(p) | type(r)]"
    assert names(db, q) == [(["U"],)]
    q = "MATCH p = shortestPath((:N {n: 'a'})-[:U|T*]->(:N {n: 'd'})) RETURN length(p)"
    assert names(db, q) == [(1,)]


def test_all_shortest_paths_returns_every_path_of_the_least_length(db):
    q = ("MATCH p = allShortestPaths((:D {n: 's'})-[:T*]->(:D {n: 't'})) "
         "RETURN [v IN nodes(p) | v.n] AS ns ORDER BY ns")
    assert names(db, q) == [(["s", "l", "t"],), (["s", "r", "t"],)]
    q = "MATCH p = shortestPath((:D {n: 's'})-[:T*]->(:D {n: 't'})) RETURN length(p)"
    assert names(db, q) == [(2,)]


def test_direction_matters_and_undirected_walks_both_ways(db):
    assert names(db, "MATCH p = shortestPath((:N {n: 'd'})-[:T*]->(:N {n: 'a'})) RETURN p") == []
    q = "MATCH p = shortestPath((:N {n: 'd'})<-[:T*]-(:N {n: 'a'})) RETURN [v IN nodes(p) | v.n]"
    assert names(db, q) == [(["d", "x", "a"],)]
    q = "MATCH p = shortestPath((:N {n: 'd'})-[r:T*]-(:N {n: 'a'})) RETURN [v IN nodes(p) | v.n], size(r)"
    assert names(db, q) == [(["d", "x", "a"], 2)]


def test_relationship_variable_binds_the_list_in_path_order(db):
    q = ("MATCH p = shortestPath((:N {n: 'a'})-[rs:T*]->(:N {n: 'd'})) "
         "RETURN [r IN rs | r.w], rs = relationships(p)")
    assert names(db, q) == [([5, 5], True)]
    q = "MATCH p = shortestPath((:N {n: 'a'})-[r:T]->(:N {n: 'b'})) RETURN type(r), length(p)"
    assert names(db, q) == [("T", 1)]


def test_hop_bounds(db):
    q = "MATCH p = shortestPath((:N {n: 'a'})-[:T*..1]->(:N {n: 'd'})) RETURN length(p)"
    assert names(db, q) == []
    q = "MATCH p = shortestPath((:N {n: 'a'})-[:T*..2]->(:N {n: 'd'})) RETURN length(p)"
    assert names(db, q) == [(2,)]


def test_property_map_on_the_relationship_filters_each_hop(db):
    q = "MATCH p = shortestPath((:N {n: 'a'})-[:T* {w: 1}]->(:N {n: 'd'})) RETURN [v IN nodes(p) | v.n]"
    assert names(db, q) == [(["a", "b", "c", "d"],)]


def test_same_start_and_end(db):
    q = "MATCH (a:N {n: 'a'}) MATCH p = shortestPath((a)-[:T*0..]->(a)) RETURN length(p)"
    assert names(db, q) == [(0,)]
    q = "MATCH (a:N {n: 'a'}) MATCH p = shortestPath((a)-[:T*]->(a)) RETURN length(p)"
    assert names(db, q) == []


def test_no_path_gives_no_row_and_optional_match_gives_null(db):
    assert names(db, "MATCH p = shortestPath((:N {n: 'a'})-[*]-(:D {n: 's'})) RETURN p") == []
    q = "MATCH (a:N {n: 'a'}) OPTIONAL MATCH p = shortestPath((a)-[*]-(:D {n: 's'})) RETURN a.n, p"
    assert names(db, q) == [("a", None)]


def test_bound_ends_and_every_pair_of_unbound_ends(db):
    q = ("MATCH (a:N {n: 'b'}), (b:N {n: 'd'}) MATCH p = shortestPath((a)-[:T*]->(b)) "
         "RETURN length(p)")
    assert names(db, q) == [(2,)]
    q = ("MATCH p = shortestPath((a:N)-[:T*]->(b:N)) RETURN a.n, b.n, length(p) ORDER BY a.n, b.n")
    assert names(db, q) == [("a", "b", 1), ("a", "c", 2), ("a", "d", 2), ("a", "x", 1),
                            ("b", "c", 1), ("b", "d", 2), ("c", "d", 1), ("x", "d", 1)]


def test_where_filters_the_found_paths(db):
    q = ("MATCH p = shortestPath((a:N)-[:T*]->(b:N)) WHERE length(p) > 1 "
         "RETURN a.n, b.n ORDER BY a.n, b.n")
    assert names(db, q) == [("a", "c"), ("a", "d"), ("b", "d")]


def test_parameters_for_the_ends(db):
    q = "MATCH p = shortestPath((a:N {n: $a})-[:T*..10]->(b:N {n: $b})) RETURN length(p) AS len"
    assert db.execute(q, {"a": "b", "b": "d"}).rows == [(2,)]


def test_patterns_it_cannot_search_are_refused(db):
    with pytest.raises(RelateError) as e:
        db.execute("MATCH p = shortestPath((a)-[:T*2..]->(b)) RETURN p")
    assert e.value.kind == "UnsupportedClause"
    with pytest.raises(RelateError) as e:
        db.execute("MATCH p = shortestPath((a)-[:T]->()-[:T]->(b)) RETURN p")
    assert e.value.kind == "UnsupportedClause"


def test_relationships_of_earlier_parts_of_the_match_are_not_reused(db):
    q = ("MATCH (a:N {n: 'a'})-[:T]->(x:N {n: 'x'}), p = shortestPath((a)-[:T*]->(:N {n: 'd'})) "
         "RETURN [v IN nodes(p) | v.n]")
    assert names(db, q) == [(["a", "b", "c", "d"],)]


def test_a_null_end_gives_no_path(db):
    q = "OPTIONAL MATCH (z:Missing) OPTIONAL MATCH p = shortestPath((z)-[*]-(:N)) RETURN z, p"
    assert names(db, q) == [(None, None)]


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 12).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3 * n),
    st.integers(0, n - 1), st.integers(0, n - 1), st.sampled_from(["->", "-", "<-"]),
    st.sampled_from(["*", "*..2", "*1..3", ""]))))
def test_the_two_sided_search_finds_a_true_shortest_path(case):
    """shortestPath searches from both ends at once; its path must be real, unique in its
    relationships, within the bounds, and as short as allShortestPaths' (one-sided) answer."""
    n, edges, a, b, arrow, hops = case
    db = relate.connect(":memory:")
    db.execute("UNWIND range(0, $n - 1) AS i CREATE (:V {i: i})", {"n": n})
    db.execute("UNWIND $es AS e MATCH (x:V {i: e[0]}), (y:V {i: e[1]}) CREATE (x)-[:T]->(y)",
               {"es": [list(e) for e in edges]})
    left, right = ("<-", "-") if arrow == "<-" else ("-", arrow)
    pattern = f"(x:V {{i: $a}}){left}[r:T{hops}]{right}(y:V {{i: $b}})"
    one = db.execute(f"MATCH p = shortestPath({pattern}) "
                     "RETURN length(p) AS len, [v IN nodes(p) | v.i] AS ns, r", {"a": a, "b": b}).rows
    every = db.execute(f"MATCH p = allShortestPaths({pattern}) RETURN length(p) AS len",
                       {"a": a, "b": b}).rows
    if a == b:
        return  # no path of length 0 with these bounds; both give nothing
    assert (one == []) == (every == [])
    if one:
        length, ns, rels = one[0]
        assert length == every[0][0]
        assert ns[0] == a and ns[-1] == b and len(ns) == length + 1
        rels = rels if isinstance(rels, list) else [rels]
        assert len({r.id for r in rels}) == len(rels)
        for (u, v), rel in zip(zip(ns, ns[1:]), rels):
            ends = (rel.start.props["i"], rel.end.props["i"])
            assert ends == (u, v) if arrow == "->" else ends == (v, u) if arrow == "<-" else set(ends) == {u, v}


def test_shortest_path_as_an_expression_is_the_path_or_null(db):
    q = ("MATCH (a:N {n: 'a'}), (e:N) WHERE e.n IN ['c', 'd'] "
         "RETURN e.n, [v IN nodes(shortestPath((a)-[:T*]->(e))) | v.n] AS ns ORDER BY e.n")
    assert names(db, q) == [("c", ["a", "b", "c"]), ("d", ["a", "x", "d"])]
    q = "MATCH (a:N {n: 'a'}), (d:N {n: 'd'}) RETURN shortestPath((d)-[:T*]->(a)) IS NULL AS none"
    assert names(db, q) == [(True,)]
    cols = db.execute("MATCH (a:N {n: 'a'}), (d:N {n: 'd'}) RETURN length(shortestPath((a)-[*]->(d)))").columns
    assert cols == ("length(shortestPath((a)-[*]->(d)))",)


def test_all_shortest_paths_as_an_expression_is_a_list(db):
    q = ("MATCH (s:D {n: 's'}), (t:D {n: 't'}) "
         "WITH allShortestPaths((s)-[:T*]->(t)) AS ps "
         "RETURN size(ps), [p IN ps | length(p)]")
    assert names(db, q) == [(2, [2, 2])]
    q = "MATCH (s:D {n: 's'}), (a:N {n: 'a'}) RETURN allShortestPaths((s)-[*]->(a)) AS ps"
    assert names(db, q) == [([],)]


def test_shortest_path_expression_in_a_where(db):
    q = ("MATCH (a:N {n: 'a'}), (e:N) WHERE length(shortestPath((a)-[:T*]->(e))) = 2 "
         "RETURN e.n ORDER BY e.n")
    assert names(db, q) == [("c",), ("d",)]
