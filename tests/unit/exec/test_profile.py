"""PROFILE runs the statement and reports, per operator, the rows it gave and its own time."""
from __future__ import annotations

import json

from relate.output import render


def _walk(plan):
    out = []
    stack = [plan]
    while stack:
        p = stack.pop()
        out.append(p)
        stack.extend(reversed(p.children))
    return out


def test_profile_returns_the_rows_and_each_operators_actual_rows(team):
    text = "PROFILE MATCH (p:Person)-[:WORKS_ON]->(x:Project) WHERE p.role = 'engineer' RETURN x.name ORDER BY x.name"
    r = team.execute(text)
    assert r.rows == [("opencypher-tck",), ("relate",), ("relate",)]
    ops = _walk(r.plan)
    assert [(o.operator, o.actual["rows"]) for o in ops] == [("ProduceResults", 3), ("Expand", 3)]
    assert all(o.actual["time_ms"] >= 0 for o in ops)
    doc = r.plan_json()
    assert doc["profiled"] is True and doc["root"]["children"][0]["actual"]["rows"] == 3
    # a cached PROFILE plan counts each run afresh
    again = team.execute(text)
    assert again.plan_cache != "miss"
    assert [o.actual["rows"] for o in _walk(again.plan)] == [3, 3]
    # the same statement without PROFILE counts nothing: its operators run their own `rows`
    plain = text.removeprefix("PROFILE ")
    for t in (plain, "EXPLAIN " + plain):
        r = team.execute(t)
        assert all(o.actual is None for o in _walk(r.plan)) and r.plan_json()["profiled"] is False
        stack = [team.prepare(t).plan.root]
        while stack:
            op = stack.pop()
            assert "rows" not in vars(op), type(op).__name__
            stack.extend(c for c in op.children() if c is not None)


def test_profile_counts_the_rows_each_operator_gave_before_a_limit(db):
    r = db.execute("PROFILE UNWIND range(1, 100) AS i WITH i WHERE i % 2 = 0 RETURN i LIMIT 5")
    assert r.rows == [(i,) for i in (2, 4, 6, 8, 10)]
    assert [(o.operator, o.actual["rows"]) for o in _walk(r.plan)] == [
        ("ProduceResults", 5), ("Projection", 5), ("Unwind", 10)]


def test_profile_of_a_write_runs_it(db, reopen):
    r = db.execute("PROFILE UNWIND [1, 2, 3] AS i CREATE (:T {i: i})")
    assert r.stats.nodes_created == 3
    assert [(o.operator, o.actual["rows"]) for o in _walk(r.plan)] == [("Create", 3), ("Unwind", 3)]
    assert reopen(db).execute("MATCH (t:T) RETURN count(*)").rows == [(3,)]


def test_profile_output_shows_the_rows_then_the_counted_plan(team):
    r = team.execute("PROFILE MATCH (p:Person) RETURN p.name ORDER BY p.name")
    lines = render(r, "table").stdout.splitlines()
    assert lines[3] == '| "Ada"   |'
    assert lines[-2].startswith("+ProduceResults  1 item(s), ordered  (rows: 3, time_ms: ")
    assert lines[-1].startswith("  +NodeByLabelScan  (p:Person)  (rows: 3, time_ms: ")
    footer = json.loads(render(r, "jsonl").stdout.splitlines()[-1])
    assert footer["plan"]["profiled"] is True
    assert footer["plan"]["root"]["actual"]["rows"] == 3
    assert json.loads(render(r, "envelope").stdout)["plan"]["root"]["children"][0]["actual"]["rows"] == 3
