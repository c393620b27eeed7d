"""`--safe` and grouped aggregates: one row per group is not reducing while a group can be a node.

A grouped aggregate bounds its rows only when every grouping key takes its values from a set the
statement fixes (a literal, a parameter, a predicate); otherwise `MATCH (n) RETURN n.id, count(*)`
would hand back a row per node, which is what `--safe` exists to stop.  A LIMIT bounds it again.
"""
from __future__ import annotations

import pytest

import relate
from relate.errors import CypherSyntaxError
from relate.policy import Policy


@pytest.fixture
def safe():
    conn = relate.connect(policy=Policy(safe=True))
    conn.execute("UNWIND range(1, 20) AS i CREATE (:P {id: i, big: i > 10})")
    return conn


# (refused, its name in the message, the same read bounded, what that gives)
CASES = [
    ("MATCH (n) RETURN n.id, count(*)", "n.id",
     "MATCH (n) RETURN n.id, count(*) ORDER BY n.id LIMIT 2", [(1, 1), (2, 1)]),
    ("MATCH (n:P) RETURN n.id AS id, sum(n.id) AS total", "id",
     "MATCH (n:P) RETURN n.id > 10 AS big, sum(n.id) AS total ORDER BY big", [(False, 55), (True, 155)]),
    ("MATCH (n) RETURN labels(n) AS l, n.big AS b, count(*) AS c", "l",
     "MATCH (n) RETURN n:P AS p, n.id IS NULL AS missing, $tag AS tag, 'all' AS scope, count(*) AS c",
     [(True, False, "x", "all", 20)]),
    ("MATCH (n) WITH n.id AS k, count(*) AS c RETURN k, c", "k",
     "MATCH (n) WITH n.id AS k, count(*) AS c RETURN count(*) AS groups", [(20,)]),
    ("MATCH (n) WITH n.id AS k, count(*) AS c WHERE c > 0 WITH k, c RETURN k", "k",
     "MATCH (n) WITH n LIMIT 3 RETURN n.id AS id, count(*) AS c ORDER BY id", [(1, 1), (2, 1), (3, 1)]),
    ("MATCH (n) RETURN n, max(n.id)", "n",
     "MATCH (n) RETURN count(*) AS c, max(n.id) AS top", [(20, 20)]),
]


@pytest.mark.parametrize("refused, grouped_by, bounded, rows", CASES, ids=[c[0] for c in CASES])
def test_a_grouped_aggregate_needs_bounded_keys_or_a_limit(safe, refused, grouped_by, bounded, rows):
    with pytest.raises(CypherSyntaxError) as e:
        safe.execute(refused)
    assert e.value.kind == "SafeModeViolation"
    assert e.value.message == (f"syntax error: SafeModeViolation: a MATCH read grouped by {grouped_by} can give a "
                               f"row per node; add LIMIT to its final RETURN, or group only by parameters, "
                               f"literals or predicates")
    assert safe.execute(bounded, {"tag": "x"}).rows == rows
