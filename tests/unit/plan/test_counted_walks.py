"""Counted walks must count exactly what the generic walk counts.

`count_trails` (`exec/count_trails.py`) counts the trails of a variable-length expand without
building them; `distinct_ends` (`exec/distinct_ends.py`) counts the distinct ends of a fixed
chain from node frontiers.  On random small graphs (self-loops, parallel relationships, cycles,
two types, labels present or missing) each statement runs with the rules on and with the two
rules switched off (`RELATE_PLANNER_RULES_OFF`), and both answers must be equal; EXPLAIN must
show that the rule took the statement.
"""
from __future__ import annotations

import os
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import relate
from relate.plan import rules

OFF = "count_trails,distinct_ends"


@contextmanager
def _rules_off():
    old = os.environ.get(rules.ENVIRONMENT_VARIABLE)
    os.environ[rules.ENVIRONMENT_VARIABLE] = OFF
    try:
        yield
    finally:
        if old is None:
            del os.environ[rules.ENVIRONMENT_VARIABLE]
        else:
            os.environ[rules.ENVIRONMENT_VARIABLE] = old


def _graph(nodes, rels):
    db = relate.connect(":memory:")
    db.execute("UNWIND $ns AS n CREATE (x:N {id: n[0], v: n[1]}) "
               "FOREACH (_ IN CASE WHEN n[2] THEN [1] ELSE [] END | SET x:A) "
               "FOREACH (_ IN CASE WHEN n[3] THEN [1] ELSE [] END | SET x:B)", {"ns": nodes})
    db.execute("UNWIND $rs AS r MATCH (a:N {id: r[0]}), (b:N {id: r[1]}) "
               "FOREACH (_ IN CASE WHEN r[2] THEN [1] ELSE [] END | CREATE (a)-[:T]->(b)) "
               "FOREACH (_ IN CASE WHEN r[2] THEN [] ELSE [1] END | CREATE (a)-[:U]->(b))", {"rs": rels})
    return db


def _both(db, text, params, operator, taken=True):
    plan = db.execute("EXPLAIN " + text, params).plan
    names = []
    stack = [plan]
    while stack:
        p = stack.pop()
        names.append(p.operator)
        stack.extend(p.children)
    if taken is not None:
        assert (operator in names) is taken, (text, names)
    fast = db.execute(text, params).rows
    with _rules_off():
        generic = db.execute(text + " // rules off", params).rows  # its own plan-cache entry
        generic_plan = db.execute("EXPLAIN " + text + " // rules off", params).plan
    assert operator not in str(generic_plan)
    assert fast == generic, text
    return fast


N = 5
node = st.tuples(st.integers(0, 2), st.booleans(), st.booleans())
rel = st.tuples(st.integers(0, N - 1), st.integers(0, N - 1), st.booleans())
graphs = st.tuples(st.lists(node, min_size=N, max_size=N), st.lists(rel, max_size=9))
ARROW = {"out": ("-", "->"), "in": ("<-", "-"), "both": ("-", "-")}
TYPES = ["", ":T", ":U", ":T|U"]
LABELS = ["", ":A", ":B", ":A:B"]
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _load(g):
    ns, rs = g
    return _graph([[i, v, a, b] for i, (v, a, b) in enumerate(ns)], [list(r) for r in rs])


@FAST
@given(graphs, st.sampled_from(list(ARROW)), st.sampled_from(TYPES), st.sampled_from(LABELS),
       st.sampled_from([(1, 3), (0, 2), (0, None), (2, 2), (1, None), (0, 0), (3, 1)]),
       st.sampled_from(["count(f)", "count(*)", "count(*), count(p)", "count(r)",
                        "p.v AS k, count(*) AS n", "p, count(f) AS n, p.id AS i"]),
       st.sampled_from(["", "WHERE f.v > 0", "WHERE f.id <> $id", "WHERE f.v = $id AND f.id > 1"]),
       st.sampled_from(["forward", "backward", "scan", "null start", "bound start"]),
       st.integers(0, N))
def test_count_trails_counts_the_generic_walks(g, way, types, labels, bounds, counts, where, start, at):
    ns, rs = g
    if bounds[1] is None and len(rs) > 6:
        rs = rs[:6]  # an unbounded walk over many relationships has too many trails to list
    db = _load((ns, rs))
    lo, hi = bounds
    length = f"*{lo}..{'' if hi is None else hi}"
    left, right = ARROW[way]
    r = f"[r{types}{length}]"
    if start == "forward":
        text = f"MATCH (p:N {{id: $id}}){left}{r}{right}(f{labels}) {where} RETURN {counts}"
    elif start == "backward":
        back = {"->": "<-", "-": "-", "<-": "->"}
        text = f"MATCH (f{labels}){back[right]}{r}{back[left]}(p:N {{id: $id}}) {where} RETURN {counts}"
    elif start == "scan":
        text = f"MATCH (p:A){left}{r}{right}(f{labels}) {where} RETURN {counts}"
    elif start == "null start":
        text = f"OPTIONAL MATCH (p:N {{id: 99}}) MATCH (p){left}{r}{right}(f{labels}) {where} RETURN {counts}"
    else:
        text = f"MATCH (p:N) WHERE p.id <= $id MATCH (p){left}{r}{right}(f{labels}) {where} RETURN {counts}"
    # a test on f may make f the anchor, and the far node's inline map then keeps the generic walk
    taken = None if start in ("backward", "scan") and where else True
    _both(db, text, {"id": at}, "VarLengthExpand(Count)", taken=taken)


@FAST
@given(graphs, st.lists(st.tuples(st.sampled_from(list(ARROW)), st.sampled_from(TYPES[:3])), min_size=1, max_size=3),
       st.lists(st.sampled_from(LABELS[:3]), min_size=3, max_size=3),
       st.sampled_from(["", "WHERE f.id <> $id", "WHERE f.v >= 1 AND f.id <> $id"]),
       st.sampled_from(["forward", "scan", "null start", "bound start"]),
       st.integers(0, N))
def test_distinct_ends_counts_the_generic_distinct_ends(g, hops, labels, where, start, at):
    db = _load(g)
    chain = ""
    for k, (way, t) in enumerate(hops):
        left, right = ARROW[way]
        end = "f" + labels[-1] if k == len(hops) - 1 else "(m" + str(k) + labels[k] + ")"
        chain += f"{left}[{t}]{right}" + (f"({end})" if k == len(hops) - 1 else end)
    first = {"forward": "MATCH (p:N {id: $id})", "scan": "MATCH (p:A)",
             "null start": "OPTIONAL MATCH (p:N {id: 99}) MATCH (p)",
             "bound start": "MATCH (p:N) WHERE p.id <= $id MATCH (p)"}[start]
    text = f"{first}{chain} {where} RETURN count(DISTINCT f) AS n"
    # over a label scan a test on f may make f the anchor: the walk then ends at p
    _both(db, text, {"id": at}, "Expand(DistinctEnds)", taken=None if start == "scan" and where else True)


def _classic(db, text, operator, expected):
    assert _both(db, text, {}, operator) == [(expected,)]


def test_an_undirected_self_loop_is_one_trail_of_each_length_it_allows():
    db = relate.connect(":memory:")
    db.execute("CREATE (a:N {id: 0})-[:T]->(a)")
    # the loop is walked once, whichever way round: one trail of length 1, none longer
    _classic(db, "MATCH (p:N {id: 0})-[:T*1..3]-(f) RETURN count(*) AS n", "VarLengthExpand(Count)", 1)
    _classic(db, "MATCH (p:N {id: 0})-[:T*0..3]-(f) RETURN count(*) AS n", "VarLengthExpand(Count)", 2)
    _classic(db, "MATCH (p:N {id: 0})-[:T]-()-[:T]-(f) RETURN count(DISTINCT f) AS n", "Expand(DistinctEnds)", 0)


def test_an_undirected_walk_never_comes_back_over_the_same_relationship():
    db = relate.connect(":memory:")
    db.execute("CREATE (a:N {id: 0})-[:T]->(b:N {id: 1})")
    _classic(db, "MATCH (p:N {id: 0})-[:T*1..4]-(f) RETURN count(f) AS n", "VarLengthExpand(Count)", 1)
    _classic(db, "MATCH (p:N {id: 0})-[:T]-()-[:T]-(f) RETURN count(DISTINCT f) AS n", "Expand(DistinctEnds)", 0)
    db.execute("MATCH (a:N {id: 0}), (b:N {id: 1}) CREATE (a)-[:T]->(b)")  # a parallel one
    _classic(db, "MATCH (p:N {id: 0})-[:T*1..4]-(f) RETURN count(f) AS n", "VarLengthExpand(Count)", 4)
    _classic(db, "MATCH (p:N {id: 0})-[:T]-()-[:T]-(f) RETURN count(DISTINCT f) AS n", "Expand(DistinctEnds)", 1)


@pytest.mark.parametrize("text", [
    "MATCH (p)-[*]->(f) RETURN f.id, count(*)",                 # grouped by the end
    "MATCH (p)-[*]->(f) RETURN rand() AS k, count(*)",          # a key that is not the start's
    "MATCH (p)-[r*]->(f) RETURN count(DISTINCT f)",             # distinct ends of a var-length walk
    "MATCH (p)-[*]->(f) WHERE f.v > p.v RETURN count(*)",       # a test that reads the start
    "OPTIONAL MATCH (p)-[*]->(f) RETURN count(f)",              # OPTIONAL: count(f) skips nulls
    "MATCH (p)-[* {w: 1}]->(f) RETURN count(*)",                # a relationship map
    "MATCH p = shortestPath((a)-[*]->(b)) RETURN count(*)",     # a shortest path
    "MATCH (p)-->(m)-->(f) RETURN count(DISTINCT m)",           # not the end of the walk
    "MATCH (p)-->(m)-->(f) RETURN count(f)",                    # not DISTINCT
])
def test_shapes_the_rules_leave_to_the_generic_plan(text):
    db = relate.connect(":memory:")
    plan = str(db.execute("EXPLAIN " + text).plan)
    assert "(Count)" not in plan and "DistinctEnds" not in plan
