"""A cancel token stops a running statement at the next poll of its loops (the hop loop of a
variable-length expansion, the row loops of the operators), rolls it back, and raises the kind
its canceller chose; the policy's time limit stops a statement as a timeout does."""
from __future__ import annotations

import threading
import time

import pytest

import relate
from relate.errors import E, StatementCancelled, StatementTimeout
from relate.exec.context import CancelToken
from relate.policy import Policy

SEED = ("UNWIND range(1, 6) AS i CREATE (:N {i: i}) WITH count(*) AS made "
        "MATCH (a:N), (b:N) WHERE a <> b CREATE (a)-[:R]->(b)")
RUNAWAYS = [
    "MATCH p=()-[*1..12]->() RETURN count(p) AS paths",  # hops, path building, aggregation
    "MATCH p=()-[*1..12]->() WITH count(p) AS paths CREATE (:Mark {paths: paths})",
    "MATCH p=()-[*1..12]->() RETURN p ORDER BY length(p) LIMIT 1",
    "MATCH (a), (b), (c), (d), (e), (f), (g), (h), (i) RETURN count(*) AS n",
    "UNWIND range(1, 3000) AS x UNWIND range(1, 3000) AS y CREATE (:Mark {x: x, y: y})",
    "MATCH (a)-[*1..12]-(b) RETURN DISTINCT a, b",
]


@pytest.fixture
def dense():
    db = relate.connect()
    db.execute(SEED)
    return db


def _cancel_later(token: CancelToken, after: float) -> threading.Thread:
    t = threading.Thread(target=lambda: (time.sleep(after), token.cancel(E.Cancelled.ClientGone)))
    t.start()
    return t


@pytest.mark.parametrize("statement", RUNAWAYS)
@pytest.mark.needs_processes
def test_a_cancelled_token_stops_the_statement_and_rolls_it_back(dense, statement):
    token = CancelToken()
    t = _cancel_later(token, 0.2)
    t0 = time.monotonic()
    with pytest.raises(StatementCancelled) as err:
        dense.execute(statement, cancel=token)
    t.join()
    assert time.monotonic() - t0 < 10  # a poll away from the cancel, not the hours the statement needs
    assert err.value.kind == "ClientGone"
    assert str(err.value) == "cancelled: the client closed its connection; the statement was stopped and the " \
                             "graph is unchanged"
    assert dense.execute("MATCH (m:Mark) RETURN count(m)").rows == [(0,)]
    assert dense.execute("RETURN 1").rows == [(1,)]  # the engine is free


def test_a_token_cancelled_before_the_run_runs_nothing(dense):
    token = CancelToken()
    token.cancel(E.Cancelled.ServerStopping)
    token.cancel(E.Cancelled.ClientGone)  # the first reason wins
    with pytest.raises(StatementCancelled) as err:
        dense.execute("CREATE (:Mark)", cancel=token)
    assert err.value.kind == "ServerStopping"
    assert dense.execute("MATCH (m:Mark) RETURN count(m)").rows == [(0,)]


def test_a_token_nobody_cancels_changes_nothing(dense):
    assert dense.execute("MATCH p=()-[*1..3]->() RETURN count(p)", cancel=CancelToken()).rows == \
        dense.execute("MATCH p=()-[*1..3]->() RETURN count(p)").rows


def test_the_policy_time_limit_stops_a_statement_as_a_timeout():
    db = relate.connect(policy=Policy(time_limit=0.2))
    db.execute(SEED)
    with pytest.raises(StatementTimeout) as err:
        db.execute(RUNAWAYS[1])
    assert str(err.value) == "timeout: the statement ran longer than 0.2s and was stopped; the graph is unchanged"
    assert db.execute("MATCH (m:Mark) RETURN count(m)").rows == [(0,)]
    # a shorter timeout of one call wins; a longer one does not lift the limit
    with pytest.raises(StatementTimeout, match=r"longer than 0\.1s"):
        db.execute(RUNAWAYS[0], timeout=0.1)
    with pytest.raises(StatementTimeout, match=r"longer than 0\.2s"):
        db.execute(RUNAWAYS[0], timeout=60)
