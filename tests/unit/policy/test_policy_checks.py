"""One policy, checked by the database for every statement: what a Python program, the CLI and
the MCP server all get, in the same order, with the same texts."""
from __future__ import annotations

import pytest

import relate
from relate.errors import CypherSemanticError, CypherSyntaxError, ParameterMissingError, ReadOnlyError
from relate.policy import OPEN, SERVED, Policy
from tests.conftest import TEAM

DEEP = "MATCH (a:Person)-[*..9]->(b) RETURN b"  # unbounded for --safe, 9 hops, a parameter-free read


@pytest.fixture
def db():
    conn = relate.connect()
    conn.execute(TEAM)
    return conn


def kind(excinfo) -> str:
    return excinfo.value.kind


def test_the_open_policy_checks_nothing(db):
    assert db.policy == OPEN
    assert len(db.execute(DEEP).rows) > 0
    assert db.execute("RETURN range(1, 100000) AS xs").rows[0][0][-1] == 100000


def test_a_connection_policy_applies_to_every_statement():
    conn = relate.connect(policy=Policy(safe=True))
    with pytest.raises(CypherSyntaxError) as e:
        conn.execute("MATCH (n) RETURN n")
    assert kind(e) == "SafeModeViolation"
    assert e.value.message == ("syntax error: SafeModeViolation: a MATCH read needs LIMIT or a reducing "
                               "aggregate (count, sum, min, max, ...) in its final RETURN; collect() does "
                               "not bound it")
    assert conn.execute("MATCH (n) RETURN count(n) AS n").rows == [(0,)]


def test_a_per_call_policy_replaces_the_connections(db):
    with pytest.raises(CypherSemanticError) as e:
        db.execute(DEEP, policy=Policy(max_traversal_depth=3))
    assert kind(e) == "TraversalDepthExceeded"
    assert "asks for 9 hops; this server allows at most 3" in e.value.message
    assert db.execute(DEEP).rows  # the connection's own policy is untouched


def test_refusals_come_in_one_order_depth_safe_parameters_read_only(db):
    strict = Policy(read_only=True, safe=True, max_traversal_depth=3)
    statement = "MATCH (a)-[*..9]->(b) SET b.x = $x RETURN b"
    with pytest.raises(CypherSemanticError) as e:
        db.execute(statement, policy=strict)
    assert kind(e) == "TraversalDepthExceeded"
    with pytest.raises(CypherSyntaxError) as e:
        db.execute("MATCH (a) WITH a RETURN $x AS x", policy=strict)
    assert kind(e) == "SafeModeViolation"
    with pytest.raises(ParameterMissingError):
        db.execute(statement, policy=Policy(read_only=True))
    with pytest.raises(ReadOnlyError) as e:
        db.execute(statement, {"x": 1}, policy=Policy(read_only=True))
    assert e.value.message == "read-only: this connection's policy is read-only; this statement writes"
    assert db.execute("MATCH (b) WHERE b.x IS NOT NULL RETURN count(b) AS n").rows == [(0,)]


def test_explain_runs_nothing_and_passes_the_policy(db):
    strict = Policy(read_only=True, safe=True, max_traversal_depth=1)
    result = db.execute("EXPLAIN MATCH (a)-[*..9]->(b) CREATE (c) RETURN c", policy=strict)
    assert result.explained and result.rows == []


def test_a_per_call_policy_cannot_make_a_read_only_store_writable(tmp_path):
    path = str(tmp_path / "g.rl")
    relate.connect(path).close()
    conn = relate.connect(path, read_only=True)
    assert conn.policy.read_only
    with pytest.raises(ReadOnlyError) as e:
        conn.execute("CREATE (:N)", policy=OPEN)
    assert e.value.message == "read-only: the store is open read-only; this statement writes"


def test_a_read_only_policy_opens_the_store_read_only(tmp_path):
    path = str(tmp_path / "g.rl")
    with relate.connect(path) as conn:
        conn.execute("CREATE (:N)")
    conn = relate.connect(path, policy=Policy(read_only=True))
    assert conn.read_only and conn.store.read_only
    with pytest.raises(ReadOnlyError) as e:
        conn.execute("CREATE (:N)")
    assert e.value.message == "read-only: the store is open read-only; this statement writes"


def test_the_memory_limit_refuses_a_read_result_and_keeps_its_plan(db):
    small = Policy(expression_memory_limit=4096)
    with pytest.raises(relate.RelateError) as e:
        db.execute("RETURN range(1, $n) AS xs", {"n": 1000}, policy=small)
    assert e.value.kind == "ExpressionMemoryLimit"
    assert e.value.message.startswith("runtime error: ExpressionMemoryLimit: a result value needs more than 4096 bytes")
    again = db.execute("RETURN range(1, $n) AS xs", {"n": 10}, policy=small)
    assert again.plan_cache == "hit-raw-fastpath" and len(again.rows[0][0]) == 10


def test_the_memory_limit_refuses_a_returned_value_the_same_way(db):
    small = Policy(expression_memory_limit=4096)
    with pytest.raises(relate.RelateError) as e:
        db.execute("RETURN $xs AS xs", {"xs": list(range(1000))}, policy=small)  # built by no one
    assert e.value.message.startswith("runtime error: ExpressionMemoryLimit: a result value needs more than 4096 bytes")


def test_the_memory_limit_measures_what_a_write_builds_but_not_its_committed_result(db):
    db.execute("CREATE (n:Big {xs: range(1, 1000)})")
    result = db.execute("MATCH (n:Big) SET n.seen = true RETURN n.xs AS xs",
                        policy=Policy(expression_memory_limit=64))
    assert len(result.rows[0][0]) == 1000  # a write's result is not measured after its commit
    with pytest.raises(relate.RelateError) as e:  # what it builds is, and the write rolls back
        db.execute("CREATE (n:Big {xs: range(1, 1000)})", policy=Policy(expression_memory_limit=64))
    assert e.value.kind == "ExpressionMemoryLimit"
    assert db.execute("MATCH (n:Big) RETURN count(n)").rows == [(1,)]


def test_served_defaults():
    assert SERVED == Policy(max_traversal_depth=500, expression_memory_limit=256 * 1024 * 1024)
