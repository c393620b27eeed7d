"""What export and import refuse, and that a refusal leaves nothing behind: values a format cannot
carry (named by entity and key), bad CSV headers and rows (named by file and line), an existing
store that holds data."""
from __future__ import annotations

import os

import pytest

import relate
from tests.transfer.graphs import cli


def _store(path, *statements, params=None):
    db = relate.connect(path)
    for s in statements:
        db.execute(s, params or {})
    db.close()
    return path


@pytest.mark.parametrize("statement, params, reason", [
    ("CREATE (:A {k: $v})", {"v": [1, "a"]}, "a list mixing long and string values"),
    ("CREATE (:A {k: $v})", {"v": [1, 2.5]}, "a list mixing double and long values"),
    ("CREATE (:A {k: []})", None, "an empty list cannot be told from a missing property"),
    ("CREATE (:A {k: ''})", None, "a list holding one empty string"),
    ("CREATE (:A {k: '\\ud800'})", None, "lone surrogate"),
])
def test_csv_export_refuses_what_a_cell_cannot_carry(tmp_path, statement, params, reason):
    if "''" in statement:
        statement = "CREATE (:A {k: ['']})"
    src = _store(str(tmp_path / "s"), "CREATE (:B {x: 1})", statement, params=params)
    out = tmp_path / "csv"
    code, _, err = cli("export", src, "--format", "csv", "--out", str(out))
    assert code == 1
    assert "transfer error: UnsupportedValue: CSV cannot carry the node 1's property `k`" in err
    assert reason in err
    assert not out.exists() and not [p for p in os.listdir(tmp_path) if p.startswith(".csv")]


@pytest.mark.parametrize("statement, params, reason", [
    ("CREATE (:A)-[:R {k: $v}]->()", {"v": b"\x00"}, "a byte array: Cypher has no literal"),
    ("CREATE (:A {k: $v})", {"v": [1, "a"]}, "a list mixing value types"),
])
def test_script_export_refuses_what_cypher_cannot_write(tmp_path, statement, params, reason):
    src = _store(str(tmp_path / "s"), statement, params=params)
    out = tmp_path / "x.cypher"
    code, _, err = cli("export", src, "--out", str(out))
    assert code == 1 and reason in err, err
    assert "property `k`" in err
    assert not out.exists() and os.listdir(tmp_path) == ["s"]


def test_a_property_named_like_the_id_property_is_refused(tmp_path):
    src = _store(str(tmp_path / "s"), "CREATE (:A {_relate_id: 5})")
    for fmt in ("csv", "cypher"):
        code, _, err = cli("export", src, "--format", fmt, "--out", str(tmp_path / f"o-{fmt}"))
        assert code == 1
        assert "node 0: the key `_relate_id` is the property the export keeps ids in" in err


def _write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8", newline="")
    return str(p)


def _import(tmp_path, *args):
    dst = tmp_path / "new.rl"
    code, out, err = cli("import", str(dst), *args)
    return code, out, err, dst


@pytest.mark.parametrize("nodes, rels, where, reason", [
    ("id:ID,age:int\n1,12\n2,twelve\n", None, "n.csv:3", "column 2 (age:int): `twelve` is not an integer"),
    ("id:ID,age:int\n1,3000000000\n", None, "n.csv:2", "outside the int range"),
    ("id:ID,ok:boolean\n1,yes\n", None, "n.csv:2", "`yes` is not a boolean"),
    ("id:ID,d:date\n1,2020-13-01\n", None, "n.csv:2", "is not a date"),
    ("id:ID,p:point\n1,\"{x: 1}\"\n", None, "n.csv:2", "column 2 (p:point)"),
    ("id:ID,name\n1,a,extra\n", None, "n.csv:2", "3 fields, but the header names 2 columns"),
    ("id:ID,name\n1,a\n1,b\n", None, "n.csv:3", "the node id `1` is given twice"),
    ("id:ID,name\n1,\"open\n", None, "n.csv:2", "a quoted field is not closed"),
    ("id:ID,name\n1,\"a\"b\n", None, "n.csv:2", "text after a closing quote"),
    ("id:ID,x:wrongtype\n1,2\n", None, "n.csv:1", "unknown column type `wrongtype`"),
    ("id:ID,:ID\n1,2\n", None, "n.csv:1", "more than one :ID column"),
    ("id:ID,p:point{crs:WGS-84}\n1,2\n", None, "n.csv:1", "header options on a property column"),
    ("id:ID\n1\n", ":START_ID,:END_ID,:TYPE\n1,2,R\n", "r.csv:2", "the end node `2` is in no node file"),
    ("id:ID\n1\n", ":START_ID,:END_ID\n1,1\n", "r.csv:1", "no :TYPE column and no type given"),
    ("id:ID\n1\n", ":START_ID,:TYPE\n1,R\n", "r.csv:1", "needs exactly one :END_ID column"),
])
def test_bad_csv_is_refused_with_file_and_line_and_no_store_is_left(tmp_path, nodes, rels, where, reason):
    args = ["--nodes", _write(tmp_path, "n.csv", nodes)]
    if rels is not None:
        args += ["--relationships", _write(tmp_path, "r.csv", rels)]
    code, _, err, dst = _import(tmp_path, *args)
    assert code == 1, err
    assert err.startswith("Error: import failed: transfer error: Bad"), err
    assert where in err and reason in err, err
    assert not dst.exists()


def test_a_constraint_the_rows_break_fails_the_import(tmp_path):
    nodes = _write(tmp_path, "n.csv", "id:ID(p),:LABEL,name\n1,P,a\n2,P,a\n")
    schema = _write(tmp_path, "schema.cypher", "// c\nCREATE CONSTRAINT u FOR (n:P) REQUIRE n.name IS UNIQUE;\n")
    code, _, err, dst = _import(tmp_path, "--nodes", nodes, "--schema", schema)
    assert code == 6  # the constraint error's own exit code class
    assert f"(in {schema}:2)" in err and "ConstraintCreationFailed" in err
    assert not dst.exists()


def test_import_refuses_a_store_that_holds_data_and_takes_an_empty_one(tmp_path):
    nodes = _write(tmp_path, "n.csv", "id:ID,:LABEL\n1,P\n")
    full = _store(str(tmp_path / "full"), "CREATE ()")
    code, _, err = cli("import", full, "--nodes", nodes)
    assert code == 1 and "TargetNotEmpty" in err and "the store already holds data" in err
    assert relate.connect(full, read_only=True).execute("MATCH (n) RETURN count(n)").rows == [(1,)]
    empty = _store(str(tmp_path / "empty.rl"))
    code, out, err = cli("import", empty, "--nodes", nodes)
    assert code == 0, err
    assert relate.connect(empty, read_only=True).execute("MATCH (n:P) RETURN n.id").rows == [("1",)]
    folder = tmp_path / "folder"
    folder.mkdir()
    assert cli("import", str(folder), "--nodes", nodes)[0] == 0
    assert relate.connect(str(folder), read_only=True).execute("MATCH (n:P) RETURN count(*)").rows == [(1,)]


def test_import_reads_neo4j_admin_conventions(tmp_path):
    """The header forms of neo4j-admin's manual: id spaces, labels from the argument and the
    :LABEL column, :IGNORE, typed columns and arrays, the type given on the command line,
    a header in its own file, another delimiter."""
    h = _write(tmp_path, "movies_header.csv", "movieId:ID(Movie-ID)\ttitle\tyear:int\t:LABEL\ttags:string[]\t:IGNORE\n")
    m = _write(tmp_path, "movies.csv", "1\tThe Matrix\t1999\tMovie\ta|b\tx\n2\t\"Reloaded\"\t2003\tMovie|Sequel\t\tx\n")
    a = _write(tmp_path, "actors.csv", "personId:ID(Actor-ID)\tname\n1\tKeanu\n")
    r = _write(tmp_path, "roles.csv", ":START_ID(Actor-ID)\trole\t:END_ID(Movie-ID)\n1\tNeo\t1\n1\tNeo\t2\n")
    code, out, err = cli("import", str(tmp_path / "m.rl"), f"--nodes={h},{m}", f"--nodes=Actor:Person={a}",
                         f"--relationships=ACTED_IN={r}", "--delimiter", "TAB", "--array-delimiter", "|")
    assert code == 0, err
    assert out == f"imported into {tmp_path / 'm.rl'}: 3 nodes, 2 relationships, 0 indexes, 0 constraints\n"
    db = relate.connect(str(tmp_path / "m.rl"), read_only=True)
    rows = db.execute("MATCH (a:Actor:Person)-[r:ACTED_IN]->(m:Movie) "
                      "RETURN a.personId, a.name, r.role, m.movieId, m.title, m.year, m.tags, labels(m) "
                      "ORDER BY m.year").rows
    assert rows == [("1", "Keanu", "Neo", "1", "The Matrix", 1999, ["a", "b"], ["Movie"]),
                    ("1", "Keanu", "Neo", "2", "Reloaded", 2003, None, ["Movie", "Sequel"])]


def test_id_type_actual_makes_the_ids_the_node_ids(tmp_path):
    nodes = _write(tmp_path, "n.csv", "key:ID,:LABEL\n7,P\n3,P\n")
    rels = _write(tmp_path, "r.csv", ":START_ID,:END_ID,:TYPE\n7,3,R\n")
    code, _, err = cli("import", str(tmp_path / "a.rl"), "--nodes", nodes, "--relationships", rels,
                       "--id-type", "actual", "--array-delimiter", "U+007C")
    assert code == 0, err
    db = relate.connect(str(tmp_path / "a.rl"), read_only=True)
    assert db.execute("MATCH (a)-[:R]->(b) RETURN id(a), a.key, id(b), b.key").rows == [(7, 7, 3, 3)]
    db.close()
