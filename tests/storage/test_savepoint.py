"""A transaction's savepoints: `rollback_to(savepoint())` undoes what came after the mark, in
memory and in the redo log a durable store writes, and keeps what came before."""
from __future__ import annotations

import pytest

import relate
from relate.errors import RelateError
from relate.storage.graph import Graph


def labels(db) -> list:
    return sorted(db.execute("MATCH (n) RETURN labels(n)[0] AS l").rows)


def test_rollback_to_a_savepoint_keeps_what_came_before():
    g = Graph()
    g.durable = True  # the transaction keeps redo ops too
    txn = g.begin()
    a = g.create_node(["A"], {})
    redo_before = list(txn.redo)
    mark = txn.savepoint()
    b = g.create_node(["B"], {})
    g.set_prop(a, "k", 1)
    txn.rollback_to(mark)
    assert list(g.nodes.values()) == [a] and "k" not in a.props and b.id not in g.nodes
    assert txn.redo == redo_before
    txn.rollback_to(mark)  # nothing after the mark: a no-op
    assert list(g.nodes.values()) == [a] and txn.redo == redo_before
    g.end()


@pytest.mark.parametrize("name", ["g.rl", "dir"])
def test_a_failed_statement_of_an_explicit_transaction_leaves_no_redo(tmp_path, name):
    path = str(tmp_path / name)
    with relate.connect(path) as db:
        with db.transaction():
            db.execute("CREATE (:A)")
            with pytest.raises(RelateError):
                db.execute("CREATE (:B) WITH 1 AS x RETURN 1 / 0 AS boom")
            db.execute("CREATE (:C)")
    with relate.connect(path, read_only=True) as again:
        assert labels(again) == [("A",), ("C",)]
