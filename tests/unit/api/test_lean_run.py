"""The common path of `Database.execute` (a cached plan run by `lean_run.py`): every call of a
cached statement keeps what the general path guarantees (typed refusals, rollback, the history,
timings, the cache outcome), and a call that asks for more takes the general path."""
from __future__ import annotations

import pytest

import relate
from relate.errors import ParameterMissingError, ReadOnlyError, RelateError, UsageError
from relate.policy import Policy

CREATE = "CREATE (:T {v: $v, w: $w})"
READ = "MATCH (t:T) RETURN t.v AS v ORDER BY v"


def _cached(conn, text, params):
    conn.execute(text, params)
    entry = conn.plan_cache[text]
    assert entry.lean  # the second call onwards runs on the common path
    return entry


def test_cached_calls_count_time_and_report_the_hit():
    conn = relate.connect(":memory:")
    _cached(conn, CREATE, {"v": 1, "w": "a"})
    res = conn.execute(CREATE, {"v": 2, "w": "b"})
    assert res.plan_cache == "hit-raw-fastpath" and res.query_type == "w"
    assert (res.stats.nodes_created, res.stats.properties_set, res.stats.labels_added) == (1, 2, 1)
    assert res.timings.elapsed_ms == res.timings.execute_ms > 0
    assert conn.execute(READ).rows == [(1,), (2,)]
    again = conn.execute(READ)
    assert again.plan_cache == "hit-raw-fastpath" and again.rows == [(1,), (2,)]
    assert again.stats.nodes_created == 0 and again.stats is not res.stats


def test_a_cached_write_that_fails_leaves_the_graph_as_it_was():
    conn = relate.connect(":memory:")
    _cached(conn, CREATE, {"v": 1, "w": "a"})
    with pytest.raises(RelateError):
        conn.execute(CREATE, {"v": [{"a": 1}], "w": "x"})  # a list of maps is no property value
    assert conn.execute("MATCH (t:T) RETURN count(t) AS n").rows == [(1,)]


def test_a_cached_statement_still_checks_its_parameters():
    conn = relate.connect(":memory:")
    _cached(conn, CREATE, {"v": 1, "w": "a"})
    with pytest.raises(ParameterMissingError):
        conn.execute(CREATE, {"v": 1})
    with pytest.raises(UsageError, match=r"parameter \$v"):
        conn.execute(CREATE, {"v": 2**70, "w": "a"})
    assert conn.execute("MATCH (t:T) RETURN count(t) AS n").rows == [(1,)]


def test_a_cached_write_is_refused_once_the_policy_is_read_only():
    conn = relate.connect(":memory:")
    _cached(conn, CREATE, {"v": 1, "w": "a"})
    with pytest.raises(ReadOnlyError):
        conn.execute(CREATE, {"v": 2, "w": "b"}, policy=Policy(read_only=True))
    conn.policy = Policy(read_only=True)
    with pytest.raises(ReadOnlyError):
        conn.execute(CREATE, {"v": 2, "w": "b"})
    assert conn.execute("MATCH (t:T) RETURN count(t) AS n").rows == [(1,)]


def test_cached_writes_enter_the_history(tmp_path):
    conn = relate.connect(str(tmp_path / "g"))
    _cached(conn, CREATE, {"v": 1, "w": "a"})
    conn.execute(CREATE, {"v": 2, "w": "b"})
    seqs = [conn.transaction_record(s) for s in (1, 2, 3)]
    assert all(r is not None for r in seqs[:2])
    conn.close()
    again = relate.connect(str(tmp_path / "g"))
    assert again.execute(READ).rows == [(1,), (2,)]  # both durable
    again.close()


def test_cached_writes_inside_a_block_roll_back_with_it():
    conn = relate.connect(":memory:")
    _cached(conn, CREATE, {"v": 1, "w": "a"})
    with pytest.raises(ValueError):
        with conn.transaction():
            conn.execute(CREATE, {"v": 2, "w": "b"})
            raise ValueError("no")
    assert conn.execute(READ).rows == [(1,)]


def test_a_cached_write_checks_constraints_added_later():
    conn = relate.connect(":memory:")
    _cached(conn, CREATE, {"v": 1, "w": "a"})
    conn.execute("CREATE CONSTRAINT t_v FOR (t:T) REQUIRE t.v IS UNIQUE")
    with pytest.raises(RelateError):
        conn.execute(CREATE, {"v": 1, "w": "b"})
    assert conn.execute("MATCH (t:T) RETURN count(t) AS n").rows == [(1,)]


def test_python_values_cross_on_the_common_path_too():
    import datetime
    conn = relate.connect(":memory:")
    text = "RETURN $d AS d"
    day = datetime.date(2024, 5, 6)
    conn.execute(text, {"d": day})
    res = conn.execute(text, {"d": day})
    assert res.rows == [(day,)] and res.plan_cache == "hit-raw-fastpath"
