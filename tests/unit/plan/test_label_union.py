"""Rule `label_union`: `(n:A|B)` starts from the scans of A and B, not from every node, and gives
the same rows in the same order as the scan of every node it replaces."""
from __future__ import annotations

import pytest

import relate
from relate.plan import rules

GRAPH = ("CREATE (:A {i: 1}), (:B {i: 2}), (:A:B {i: 3}), (:C {i: 4}), ({i: 5}), (:B {i: 6})-[:R]->(:A {i: 7})")


def _db(monkeypatch, off: bool):
    if off:
        monkeypatch.setenv(rules.ENVIRONMENT_VARIABLE, "label_union")
    else:
        monkeypatch.delenv(rules.ENVIRONMENT_VARIABLE, raising=False)
    db = relate.connect()
    db.execute(GRAPH)
    db.execute("MATCH (n {i: 1}) SET n:B")  # a label added later sits last in B's scan
    return db


def _operators(db, statement):
    out, stack = [], [db.execute("EXPLAIN " + statement).plan]
    while stack:
        p = stack.pop()
        out.append(p.operator)
        stack.extend(p.children)
    return out


@pytest.mark.parametrize("statement", [
    "MATCH (n:A|B) RETURN n.i",
    "MATCH (n:B|A|B) RETURN n.i",
    "MATCH (n:(A|C)|Missing) RETURN n.i",
    "MATCH (n:A|B WHERE n.i > 2) RETURN n.i",
    "MATCH (n:A|B)-[:R]->(m) RETURN n.i, m.i",
])
def test_the_union_gives_the_rows_of_every_node_scan_in_its_order(monkeypatch, statement):
    on = _db(monkeypatch, False).execute(statement).rows
    off = _db(monkeypatch, True).execute(statement).rows
    assert on == off and on


def test_explain_names_the_union_scan_and_only_for_plain_disjunctions(monkeypatch):
    db = _db(monkeypatch, False)
    assert "UnionNodeByLabelsScan" in _operators(db, "MATCH (n:A|B) RETURN n")
    for statement in ("MATCH (n:A&B) RETURN n", "MATCH (n:!A) RETURN n", "MATCH (n:A|!B) RETURN n",
                      "MATCH (n:%) RETURN n"):
        assert "UnionNodeByLabelsScan" not in _operators(db, statement), statement
    assert db.execute("MATCH (n:A|B) RETURN count(*)").rows == [(5,)]
    off = _db(monkeypatch, True)
    assert "UnionNodeByLabelsScan" not in _operators(off, "MATCH (n:A|B) RETURN n")
