"""`CALL { } IN TRANSACTIONS` on every store kind: each batch is its own commit (on a durable
store one transaction on disk, read back after a reopen), a failure after k batches keeps the k
batches, ON ERROR CONTINUE / BREAK / FAIL and REPORT STATUS, and the statement's own writes
after the call."""
from __future__ import annotations

import pytest

from relate.errors import RelateError


def count(db, label: str) -> int:
    return db.execute(f"MATCH (n:{label}) RETURN count(n) AS n").rows[0][0]


def commits(db) -> int | None:
    return getattr(db.store, "seq", None)  # durable stores number their transactions


def test_each_batch_is_one_commit(db, reopen):
    before = commits(db)
    r = db.execute("UNWIND range(1, 5) AS i CALL (i) { CREATE (:Batch {i: i}) } IN TRANSACTIONS OF 2 ROWS")
    assert r.rows == [] and r.stats.nodes_created == 5 and r.stats.properties_set == 5
    if before is not None:
        assert commits(db) == before + 3  # 2 + 2 + 1 rows
    db = reopen(db)
    assert count(db, "Batch") == 5


def test_default_batch_is_one_commit_and_a_parameter_sets_the_size(db, reopen):
    before = commits(db)
    db.execute("UNWIND range(1, 3) AS i CALL (i) { CREATE (:Plain {i: i}) } IN TRANSACTIONS")
    if before is not None:
        assert commits(db) == before + 1
    before = commits(db)
    db.execute("UNWIND range(1, 3) AS i CALL (i) { CREATE (:P {i: i}) } IN TRANSACTIONS OF $n ROWS", {"n": 1})
    if before is not None:
        assert commits(db) == before + 3
    db = reopen(db)
    assert (count(db, "Plain"), count(db, "P")) == (3, 3)


def test_a_failure_after_k_batches_keeps_the_k_batches(db, reopen):
    with pytest.raises(RelateError) as info:
        db.execute("UNWIND [1, 2, 0, 4] AS x CALL (x) { CREATE (:Ratio {v: 12 / x}) } IN TRANSACTIONS OF 1 ROW")
    assert info.value.tck_type == "ArithmeticError"
    assert count(db, "Ratio") == 2
    db = reopen(db)
    assert sorted(db.execute("MATCH (r:Ratio) RETURN r.v").rows) == [(6,), (12,)]
    # the batch of two that held the failing row is rolled back whole
    with pytest.raises(RelateError):
        db.execute("UNWIND [1, 2, 0, 4] AS x CALL (x) { CREATE (:Pair {v: 12 / x}) } IN TRANSACTIONS OF 2 ROWS")
    db = reopen(db)
    assert count(db, "Pair") == 2


def test_on_error_continue_and_break(db, reopen):
    r = db.execute("UNWIND [1, 0, 2] AS x CALL (x) { CREATE (:C {v: 10 / x}) } IN TRANSACTIONS OF 1 ROW "
                   "ON ERROR CONTINUE")
    assert r.stats.nodes_created == 2
    r = db.execute("UNWIND [1, 0, 2] AS x CALL (x) { CREATE (:B {v: 10 / x}) } IN TRANSACTIONS OF 1 ROW "
                   "ON ERROR BREAK")
    assert r.stats.nodes_created == 1
    r = db.execute("UNWIND [1, 0, 2, 4] AS i CALL (i) { CREATE (n:N {v: 100 / i}) RETURN n } "
                   "IN TRANSACTIONS OF 2 ROWS ON ERROR CONTINUE RETURN i, n.v AS v")
    assert r.rows == [(1, None), (0, None), (2, 50), (4, 25)]
    db = reopen(db)
    assert (count(db, "C"), count(db, "B"), count(db, "N")) == (2, 1, 2)


def test_report_status(db):
    r = db.execute("UNWIND [5, 0, 1] AS x CALL (x) { CREATE (:R {v: 10 / x}) } IN TRANSACTIONS OF 1 ROW "
                   "ON ERROR BREAK REPORT STATUS AS s RETURN x, s")
    (a, sa), (b, sb), (c, sc) = r.rows
    assert (a, sa["started"], sa["committed"], sa["errorMessage"]) == (5, True, True, None)
    assert (b, sb["started"], sb["committed"]) == (0, True, False) and sb["errorMessage"]
    assert (c, sc) == (1, {"started": False, "committed": False, "transactionId": None, "errorMessage": None})
    assert sa["transactionId"] != sb["transactionId"]
    # the syntax's order (REPORT STATUS before ON ERROR) and RETRY, whose fallback is CONTINUE
    r = db.execute("UNWIND [0, 1] AS x CALL (x) { CREATE (:Q {v: 1 / x}) } IN TRANSACTIONS OF 1 ROW "
                   "REPORT STATUS AS s ON ERROR RETRY FOR 1 SECOND RETURN x, s.committed AS ok")
    assert r.rows == [(0, False), (1, True)]


def test_deleting_in_batches(db, reopen):
    db.execute("UNWIND range(1, 7) AS i CREATE (:Stale {i: i})-[:LINK]->(:Keep)")
    r = db.execute("MATCH (s:Stale) CALL (s) { DETACH DELETE s } IN TRANSACTIONS OF 3 ROWS")
    assert (r.stats.nodes_deleted, r.stats.relationships_deleted) == (7, 7)
    db = reopen(db)
    assert (count(db, "Stale"), count(db, "Keep")) == (0, 7)


def test_writes_after_the_call_belong_to_the_statement(db, reopen):
    # the batches commit; the statement's own CREATE after the call fails with it
    with pytest.raises(RelateError):
        db.execute("UNWIND [1, 2] AS i CALL (i) { CREATE (:In {i: i}) } IN TRANSACTIONS OF 1 ROW "
                   "WITH i CREATE (:After {v: 1 / (i - 2)})")
    db = reopen(db)
    assert (count(db, "In"), count(db, "After")) == (2, 0)
    r = db.execute("UNWIND [1, 2] AS i CALL (i) { CREATE (:In2 {i: i}) } IN TRANSACTIONS "
                   "WITH count(*) AS n CREATE (:Done {n: n}) RETURN n")
    assert r.rows == [(2,)]
    db = reopen(db)
    assert db.execute("MATCH (d:Done) RETURN d.n").rows == [(2,)]


def test_concurrent_transactions_run_one_after_the_other(db, reopen):
    r = db.execute("UNWIND range(1, 4) AS i CALL (i) { CREATE (:Par {i: i}) } IN 2 CONCURRENT TRANSACTIONS OF 1 ROW")
    assert r.stats.nodes_created == 4
    db = reopen(db)
    assert count(db, "Par") == 4


def test_a_batch_size_that_is_no_positive_integer_is_refused(db):
    for size in (0, -1, "x"):
        with pytest.raises(RelateError) as info:
            db.execute("UNWIND [1] AS i CALL (i) { CREATE (:T) } IN TRANSACTIONS OF $n ROWS", {"n": size})
        assert info.value.kind == "InvalidArgumentValue"
    assert count(db, "T") == 0


def test_mcp_write_cypher_runs_the_batches(db):
    """One write_cypher call is one statement; its batches commit inside it.  read_cypher refuses
    the clause (it commits: a write)."""
    import json

    from relate.protocols.mcp import McpServer
    server = McpServer(db)

    def call(tool, query):
        line = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                           "params": {"name": tool, "arguments": {"statement": query}}})
        return json.loads(server.handle_line(line))["result"]
    reply = call("write_cypher", "UNWIND range(1, 3) AS i CALL (i) { CREATE (:M {i: i}) } IN TRANSACTIONS OF 1 ROW")
    assert not reply.get("isError"), reply
    assert count(db, "M") == 3
    reply = call("read_cypher", "UNWIND [1] AS i CALL (i) { CREATE (:M2) } IN TRANSACTIONS")
    assert reply.get("isError"), reply
    assert count(db, "M2") == 0


def test_a_statement_stopped_after_k_batches_keeps_them(db, reopen, monkeypatch):
    """Cancelled (or timed out) between batches: the committed batches stay, the rest never ran."""
    from relate import database
    from relate.errors import E
    from relate.exec.context import CancelToken
    token = CancelToken()
    done = []
    commit = database._InnerTransactions.commit

    def counting(self):
        commit(self)
        done.append(1)
        if len(done) == 2:
            token.cancel(E.Cancelled.ClientGone)
    monkeypatch.setattr(database._InnerTransactions, "commit", counting)
    with pytest.raises(RelateError) as info:
        db.execute("UNWIND range(1, 5) AS i CALL (i) { CREATE (:Stop {i: i}) } IN TRANSACTIONS OF 1 ROW",
                   cancel=token)
    assert info.value.kind == "ClientGone"
    db = reopen(db)
    assert sorted(db.execute("MATCH (s:Stop) RETURN s.i").rows) == [(1,), (2,)]
