"""`relate.transactions`: explicit transactions of many sessions over one database, on every
store kind: each sees its own writes and nobody else's until they commit, one writer at a time,
a rollback (or a parked writer dropped) leaves nothing, and what commits is durable."""
from __future__ import annotations

import pytest

from relate.errors import TransactionConflictError, TransactionError
from relate.transactions import Transactions


def run(txs, tx, text, params=None):
    return txs.execute(tx, txs.prepare(tx, text), params).rows


def count(txs, tx=None, label="P"):
    return run(txs, tx, f"MATCH (n:{label}) RETURN count(n)")[0][0]


def test_writes_are_invisible_outside_until_commit_and_durable_after(store):
    db = store.connect()
    run(Transactions(db), None, "CREATE (:P {v: 0})")
    txs = Transactions(db)
    tx = txs.begin()
    run(txs, tx, "CREATE (:P {v: 1})-[:R]->(:Q)")
    run(txs, tx, "MATCH (p:P {v: 0}) SET p.v = 10, p:Changed")
    assert count(txs) == 1 and count(txs, label="Changed") == 0  # outside: the last commit
    assert run(txs, None, "MATCH (p:P) RETURN p.v ORDER BY p.v") == [(0,)]
    assert count(txs, tx) == 2 and count(txs, tx, "Changed") == 1  # inside: its own writes too
    run(txs, tx, "MATCH (q:Q) DETACH DELETE q")  # after a park and a replay
    assert count(txs, label="Q") == 0 and count(txs, tx, "Q") == 0
    txs.commit(tx)
    assert run(txs, None, "MATCH (p:P) RETURN p.v ORDER BY p.v") == [(1,), (10,)]
    db = store.reopen(db)
    assert db.execute("MATCH (p:P) RETURN p.v ORDER BY p.v").rows == [(1,), (10,)]
    assert db.execute("MATCH ()-[r]->() RETURN count(r)").rows == [(0,)]


def test_rollback_leaves_nothing_whether_parked_or_not(store):
    db = store.connect()
    txs = Transactions(db)
    for park in (False, True):
        tx = txs.begin()
        run(txs, tx, "CREATE (:P)")
        if park:
            assert count(txs) == 0
        txs.rollback(tx)
        assert count(txs) == 0
    run(txs, None, "CREATE (:P {after: true})")
    db = store.reopen(db)
    assert db.execute("MATCH (n) RETURN n.after").rows == [(True,)]


def test_one_writer_at_a_time_and_read_transactions_refuse_writes(db):
    txs = Transactions(db)
    a, b = txs.begin(), txs.begin()
    run(txs, a, "CREATE (:P)")
    with pytest.raises(TransactionConflictError) as err:
        run(txs, b, "CREATE (:P)")
    assert err.value.retryable and err.value.kind == "WriterBusy"
    with pytest.raises(TransactionConflictError):
        run(txs, None, "CREATE (:P)")
    assert count(txs, b) == 0  # reads go on
    txs.commit(a)
    run(txs, b, "CREATE (:P)")
    txs.commit(b)
    assert count(txs) == 2
    r = txs.begin(read_only=True)
    with pytest.raises(TransactionError) as err:
        run(txs, r, "CREATE (:P)")
    assert err.value.kind == "AccessMode"


def test_node_ids_stay_taken_across_a_park(db):
    txs = Transactions(db)
    tx = txs.begin()
    first = run(txs, tx, "CREATE (n:P) RETURN id(n)")[0][0]
    count(txs)  # park
    second = run(txs, tx, "CREATE (n:P) RETURN id(n)")[0][0]
    txs.commit(tx)
    assert run(txs, None, "MATCH (n:P) RETURN id(n) ORDER BY id(n)") == [(first,), (second,)]
    assert first != second
