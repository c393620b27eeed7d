"""Who may run LOAD CSV (issue 15): only a writable connection with an import folder.  Without a
folder the clause is refused with `LoadCsvDisabled` (positioned at the clause, naming how to
enable it); on a read-only connection (store or policy) with `ReadOnly`; a per-call policy decides
for its call; EXPLAIN needs neither.  Compile-time faults come first, as for any statement."""
from __future__ import annotations

from dataclasses import replace

import pytest

import relate
from relate.errors import RelateError
from relate.policy import OPEN, Policy

Q = "RETURN 1 AS one\nUNION ALL LOAD CSV FROM 'file:///a.csv' AS r RETURN size(r) AS one"


@pytest.fixture
def folder(tmp_path):
    d = tmp_path / "import"
    d.mkdir()
    (d / "a.csv").write_text("x,y\n")
    return d


def error(conn, text, **kw) -> RelateError:
    with pytest.raises(RelateError) as e:
        conn.execute(text, **kw)
    return e.value


def test_without_a_folder_the_clause_is_refused_at_its_position():
    err = error(relate.connect(), Q)
    assert err.kind == "LoadCsvDisabled" and err.phase == "runtime"
    assert (err.position.line, err.position.column) == (2, 11)
    assert "import_dir=" in err.message and "--import-dir" in err.message


def test_with_a_folder_it_runs(folder):
    conn = relate.connect(import_dir=str(folder))
    assert conn.execute(Q).rows == [(1,), (2,)]
    assert conn.policy.import_dir == str(folder)


def test_a_read_only_policy_or_store_refuses_it(folder, tmp_path):
    err = error(relate.connect(read_only=False, policy=Policy(read_only=True), import_dir=str(folder)), Q)
    assert err.kind == "ReadOnly" and "LOAD CSV" in err.message
    store = str(tmp_path / "g.rl")
    relate.connect(store).close()
    err = error(relate.connect(store, read_only=True, import_dir=str(folder)), Q)
    assert err.kind == "ReadOnly"


def test_a_per_call_policy_decides_for_its_call(folder):
    conn = relate.connect(import_dir=str(folder))
    assert error(conn, Q, policy=OPEN).kind == "LoadCsvDisabled"
    assert error(conn, Q, policy=replace(conn.policy, read_only=True)).kind == "ReadOnly"
    assert conn.execute(Q).plan_cache == "miss"      # the refused calls left no plan in the cache
    assert error(conn, Q, policy=OPEN).kind == "LoadCsvDisabled"   # a cached plan is refused the same


def test_explain_needs_no_folder():
    r = relate.connect().execute("EXPLAIN " + Q)
    assert r.explained and r.rows == []


@pytest.mark.parametrize("text, kind", [
    ("LOAD CSV FROM 42 AS r RETURN r", "InvalidArgumentType"),
    ("LOAD CSV FROM ['x'] AS r RETURN r", "InvalidArgumentType"),
    ("LOAD CSV FROM 'x' AS r FIELDTERMINATOR '' RETURN r", "InvalidFieldTerminator"),
    ("LOAD CSV FROM 'x' AS r FIELDTERMINATOR $t RETURN r", "InvalidFieldTerminator"),
    ("WITH 1 AS r LOAD CSV FROM 'x' AS r RETURN r", "VariableAlreadyBound"),
    ("LOAD CSV FROM u AS r RETURN r", "UndefinedVariable"),
    ("LOAD CSV FROM 'x' AS r", "InvalidClauseComposition"),
])
def test_compile_time_faults_come_before_the_folder(text, kind):
    err = error(relate.connect(), text)
    assert err.kind == kind and err.phase == "compile", err.message


def test_rows_are_typed_for_the_checks():
    # without headers a row is a list: a property read on it cannot be (as in Neo4j)
    err = error(relate.connect(), "LOAD CSV FROM 'x' AS r RETURN r.name")
    assert err.kind == "InvalidArgumentType"
