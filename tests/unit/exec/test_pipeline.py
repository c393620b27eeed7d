"""A read plan's operators fused into one generated function (`exec/pipeline.py`): which plans
are fused, that a fused plan gives the rows its operators give, in their order, and that it polls
the deadline and the cancel token as they do."""
from __future__ import annotations

import pytest

import relate
from relate.errors import E, StatementCancelled
from relate.exec.context import CancelToken, ExecContext
from relate.exec.pipeline import fuse

SETUP = [
    "CREATE INDEX person_id FOR (p:Person) ON (p.id)",
    "UNWIND range(1, 12) AS i CREATE (:Person {id: i, name: 'p' + i, age: 20 + i % 5})",
    "MATCH (a:Person), (b:Person) WHERE b.id IN [a.id + 1, a.id * 2] CREATE (a)-[:KNOWS {w: a.id % 3}]->(b)",
    "MATCH (a:Person {id: 3}) CREATE (a)-[:KNOWS {w: 9}]->(a)",
    "MATCH (a:Person {id: 4}) SET a:Admin",
    "CREATE (:Person:Admin {id: 40, name: null})",
]

FUSED = [
    ("MATCH (p:Person {id: $id}) RETURN p.name AS name", {"id": 3}, True),
    ("MATCH (p:Person {id: $id}) RETURN p.name AS name", {"id": 999}, True),
    ("MATCH (p:Person {id: $id}) RETURN p.name AS name", {"id": 3.0}, True),
    ("MATCH (p:Person {id: $id})-[:KNOWS]->(f:Person) RETURN f.id AS id", {"id": 3}, True),
    ("MATCH (p:Person {id: $id})<-[:KNOWS]-(f) RETURN f.id AS id, p.id AS pid", {"id": 6}, True),
    ("MATCH (p:Person {id: $id})-[k:KNOWS]-(f:Person) RETURN f.id, k.w", {"id": 3}, True),
    ("MATCH (p:Person {id: $id})-[k:KNOWS {w: 1}]->(f:Person:Admin) RETURN f.id", {"id": 2}, True),
    ("MATCH (p:Person)-[:KNOWS]->(f {age: 22}) RETURN p.id, f.id", {}, True),
    ("MATCH (p:Person) WHERE p.age > $a RETURN p.id AS id", {"a": 22}, True),
    ("MATCH (p:Person) WHERE p.name STARTS WITH 'p1' RETURN p.id, p.name, p.age", {}, True),
    ("MATCH (p:Person)-[:KNOWS]->(f)-[:NOPE]->(g) RETURN g", {}, True),
    ("MATCH (p:Admin) RETURN p.id", {}, True),
    ("MATCH (n) RETURN count(*) AS c", {}, False),
    ("RETURN $x AS x", {"x": 7}, True),
    ("MATCH (p:Person {id: 3})-[k:KNOWS]->(f) RETURN f, f.id, p.name, k, 1 + f.age AS a", {}, True),
    ("MATCH (p:Person)-[k:KNOWS]->(f) WHERE k.w = 1 RETURN p, k.w, f.name", {}, True),
    ("MATCH (p:Person) WITH p, p.age AS a WHERE a > 21 RETURN p.id, a", {}, False),
    ("WITH {k: 1} AS m UNWIND [m] AS x RETURN x.k", {}, False),
    # parts the fuser does not write out run through the MATCH operator's own walk, inside it
    ("MATCH (p:Person)-[:KNOWS*1..2]->(f) RETURN p.id, f.id", {}, True),
    ("MATCH p = (a:Person {id: 1})-[:KNOWS]->(b) RETURN p", {}, True),
    ("MATCH (a:Person {id: 3})-[:KNOWS]->(b)-[:KNOWS]->(c) RETURN b.id, c.id", {}, True),
    ("MATCH (a:Person {id: 2}), (b:Person {id: 4}) RETURN a.id, b.id", {}, True),
]


@pytest.fixture(scope="module")
def db():
    conn = relate.connect(":memory:")
    for text in SETUP:
        conn.execute(text)
    return conn


def _operator_rows(db, text, params):
    """The rows the plan's own operators give (the fused function set aside)."""
    plan = db.prepare(text).plan
    ctx = ExecContext(db.graph, params)
    return list(plan.root.rows(ctx))


@pytest.mark.parametrize("text,params,fused", FUSED)
def test_fused_rows_are_the_operators_rows(db, text, params, fused):
    got = db.execute(text, params).cypher_rows or []
    assert got == _operator_rows(db, text, params)
    assert (db.prepare(text).plan.pipeline is not None) == fused  # a shape the fuser writes out


@pytest.mark.parametrize("text", [
    "OPTIONAL MATCH (p:Person {id: 999}) RETURN p",
    "MATCH (p:Person) RETURN p.id ORDER BY p.id",
    "PROFILE MATCH (p:Person {id: 1}) RETURN p.name",
])
def test_other_shapes_run_their_operators(db, text):
    prepared = db.prepare(text)
    assert prepared.plan.pipeline is None
    assert db.execute(text).rows is not None


def test_bound_hops_and_uniqueness_keep_their_semantics(db):
    # two hops of one MATCH must use distinct relationships: not written out, same answer
    rows = db.execute("MATCH (a:Person {id: 3})-[:KNOWS]->(b)-[:KNOWS]->(c) RETURN b.id, c.id").rows
    assert (3, 3) not in rows and (3, 6) in rows and (6, 7) in rows


class _CancelledAfter(CancelToken):
    """A token that reads as cancelled from its n-th poll on."""

    __slots__ = ("polls",)

    def __init__(self, n: int) -> None:
        super().__init__()
        self.polls = -n

    @property  # type: ignore[override]
    def reason(self):
        self.polls += 1
        return E.Cancelled.ClientGone if self.polls > 0 else None

    @reason.setter
    def reason(self, value) -> None:
        pass


@pytest.mark.parametrize("text", [
    "MATCH (p:Person) RETURN p.id",
    "MATCH (p:Person {id: 3})-[:KNOWS]-(f) RETURN f.id",
])
def test_a_fused_plan_polls_the_cancel_token(db, text):
    plan = db.prepare(text).plan
    assert plan.pipeline is not None
    with pytest.raises(StatementCancelled):
        plan.pipeline(ExecContext(db.graph, {}, cancel=_CancelledAfter(3)))


def test_fuse_refuses_what_it_does_not_know(db):
    plan = db.prepare("MATCH (p:Person) RETURN p.id LIMIT 1").plan
    assert fuse(plan.root) is None


@pytest.mark.parametrize("text,fused", [
    ("CREATE (:A {v: $v}), (:B:C {w: $v + 1})", True),
    ("CREATE (:A {v: $v})-[:R]->(:B)", False),
    ("CREATE (a:A {v: $v}) CREATE (:B)", False),
    ("CREATE p = (:A {v: $v})-[:R]->(:B)", False),
])
def test_a_create_from_the_start_row(text, fused):
    conn = relate.connect(":memory:")
    assert (conn.prepare(text).plan.pipeline is not None) == fused
    for v in (1, 2):
        res = conn.execute(text, {"v": v})
        assert res.rows == [] and res.stats.nodes_created == 2
    rows = conn.execute("MATCH (n) RETURN labels(n) AS l, n.v AS v, n.w AS w ORDER BY id(n)").rows
    assert [r[1] for r in rows if r[1] is not None] == [1, 2]
    assert conn.execute("MATCH (n:A) RETURN count(n) AS c").rows == [(2,)]
    with pytest.raises(relate.errors.RelateError):
        conn.execute(text, {"v": [{"m": 1}]})  # a list of maps is no property value: nothing made
    assert conn.execute("MATCH (n) RETURN count(n) AS c").rows == [(4,)]
