"""The embedded Python API: connect, execute, results as rows, transactions, procedures."""
from __future__ import annotations

import doctest
import importlib.util

import pytest

import relate
import relate.database
import relate.procedures
from relate.errors import RelateError, UsageError
from relate.procedures import fixture_procedure


@pytest.mark.parametrize("module", [relate, relate.database, relate.procedures])
def test_docstring_examples_run(module):
    failures, tried = doctest.testmod(module, verbose=False)
    assert tried > 0 and failures == 0


def test_result_is_iterable_and_fetchable():
    conn = relate.connect(":memory:")
    res = conn.execute("UNWIND [3, 1, 2] AS x RETURN x, x * 10 AS y ORDER BY x")
    assert res.columns == ("x", "y")
    assert list(res) == [(1, 10), (2, 20), (3, 30)]
    assert res.fetchall() == [(1, 10), (2, 20), (3, 30)]
    assert res.stats.nodes_created == 0


def test_write_statement_reports_stats_and_no_columns(db):
    res = db.execute("CREATE (:A {x: 1})-[:T]->(:B)")
    assert res.columns == ()
    assert res.fetchall() == []
    assert (res.stats.nodes_created, res.stats.relationships_created, res.stats.properties_set) == (2, 1, 1)


def test_connection_is_a_context_manager(durable_path):
    path = durable_path
    with relate.connect(path) as conn:
        conn.execute("CREATE (:Kept)")
    with relate.connect(path, read_only=True) as conn:
        assert conn.execute("MATCH (n:Kept) RETURN count(n) AS n").rows == [(1,)]


def test_transaction_commits_at_the_end(durable_path):
    path = durable_path
    conn = relate.connect(path)
    with conn.transaction():
        conn.execute("CREATE (:A)")
        conn.execute("CREATE (:B)")
        assert conn.execute("MATCH (n) RETURN count(n) AS n").rows == [(2,)]
    conn.close()
    with relate.connect(path, read_only=True) as again:
        assert again.execute("MATCH (n) RETURN count(n) AS n").rows == [(2,)]


def test_transaction_rolls_back_on_exception(durable_path):
    path = durable_path
    conn = relate.connect(path)
    conn.execute("CREATE (:Before)")
    with pytest.raises(KeyError):
        with conn.transaction():
            conn.execute("CREATE (:Inside)")
            conn.execute("MATCH (n:Before) SET n.touched = true")
            raise KeyError("boom")
    assert conn.execute("MATCH (n) RETURN labels(n) AS l, n.touched AS t").rows == [(["Before"], None)]
    conn.close()
    with relate.connect(path, read_only=True) as again:
        assert again.execute("MATCH (n) RETURN count(n) AS n").rows == [(1,)]


def test_failing_statement_inside_a_transaction_undoes_only_itself(db, reopen):
    conn = db
    with conn.transaction():
        conn.execute("CREATE (:A)")
        with pytest.raises(RelateError):
            conn.execute("CREATE (:B) WITH 1 AS x RETURN 1 / 0 AS boom")
        conn.execute("CREATE (:C)")
    labels = sorted(r[0][0] for r in conn.execute("MATCH (n) RETURN labels(n)").rows)
    assert labels == ["A", "C"]
    labels = sorted(r[0][0] for r in reopen(conn).execute("MATCH (n) RETURN labels(n)").rows)
    assert labels == ["A", "C"]


def test_transactions_do_not_nest():
    conn = relate.connect(":memory:")
    with conn.transaction():
        with pytest.raises(UsageError):
            with conn.transaction():
                pass


def test_failing_statement_leaves_the_graph_unchanged(db, reopen):
    db.execute("CREATE (:A {n: 1})")
    with pytest.raises(RelateError):
        db.execute("MATCH (a:A) SET a.n = 2 CREATE (:B) WITH a RETURN a.n / 0 AS boom")
    assert db.execute("MATCH (n) RETURN labels(n) AS l, n.n AS n").rows == [(["A"], 1)]
    assert reopen(db).execute("MATCH (n) RETURN labels(n) AS l, n.n AS n").rows == [(["A"], 1)]


@pytest.mark.skipif(importlib.util.find_spec("pandas") is None, reason="pandas is not installed")
def test_to_df_with_pandas():
    df = relate.connect(":memory:").execute("UNWIND [1, 2] AS x RETURN x, 'a' AS s").to_df()
    assert list(df.columns) == ["x", "s"]
    assert df.values.tolist() == [[1, "a"], [2, "a"]]


@pytest.mark.skipif(importlib.util.find_spec("pandas") is not None, reason="pandas is installed")
def test_to_df_without_pandas_says_what_is_missing():
    with pytest.raises(ImportError, match="pandas"):
        relate.connect(":memory:").execute("RETURN 1 AS x").to_df()


def test_registered_procedure_is_callable():
    conn = relate.connect(":memory:")
    conn.register_procedure(fixture_procedure(
        "my.lookup(key :: STRING?) :: (value :: INTEGER?)", ["key", "value"], [["a", 1], ["b", 2], ["a", 3]]))
    assert conn.execute("CALL my.lookup('a')").rows == [(1,), (3,)]
    assert conn.execute("UNWIND ['b', 'a'] AS k CALL my.lookup(k) YIELD value RETURN k, value").rows == \
        [("b", 2), ("a", 1), ("a", 3)]
    with pytest.raises(RelateError) as info:
        conn.execute("CALL my.missing()")
    assert (info.value.tck_type, info.value.kind) == ("ProcedureError", "ProcedureNotFound")
