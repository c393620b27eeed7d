"""LOAD CSV semantics (Neo4j 5's manual, `exec/load_csv.py`): rows as lists or maps of strings,
empty fields as null, quoting, BOM, terminators, linenumber()/file(), streaming, and loading into
every store kind (what was loaded survives a reopen)."""
from __future__ import annotations

import pytest

import relate
from relate.errors import RelateError
from relate.exec.load_csv import records


@pytest.fixture
def folder(tmp_path):
    d = tmp_path / "import"
    d.mkdir()
    return d


@pytest.fixture
def conn(store, folder):
    return store.connect(import_dir=str(folder))


def write(folder, name, text, encoding="utf-8"):
    (folder / name).write_bytes(text.encode(encoding))
    return f"file:///{name}"


def rows(conn, query, **params):
    return conn.execute(query, params).rows


def test_rows_are_lists_of_strings_without_headers(conn, folder):
    write(folder, "a.csv", "x,y\n1,2\n")
    assert rows(conn, "LOAD CSV FROM 'file:///a.csv' AS r RETURN r") == [(["x", "y"],), (["1", "2"],)]


def test_with_headers_rows_are_maps(conn, folder):
    write(folder, "a.csv", "name,age\nAda,36\nGrace,45\n")
    got = rows(conn, "LOAD CSV WITH HEADERS FROM 'file:///a.csv' AS r RETURN r.name AS n, r.age AS a")
    assert got == [("Ada", "36"), ("Grace", "45")]


def test_empty_fields_are_null_quoted_empty_is_empty_string(conn, folder):
    write(folder, "a.csv", 'a,b,c\n,"",x\n')
    assert rows(conn, "LOAD CSV FROM 'file:///a.csv' AS r RETURN r") == [(["a", "b", "c"],), ([None, "", "x"],)]
    got = rows(conn, "LOAD CSV WITH HEADERS FROM 'file:///a.csv' AS r RETURN r")
    assert got == [({"a": None, "b": "", "c": "x"},)]


def test_short_records_give_null_extra_fields_are_dropped(conn, folder):
    write(folder, "a.csv", "a,b\n1\n1,2,3\n")
    got = rows(conn, "LOAD CSV WITH HEADERS FROM 'file:///a.csv' AS r RETURN r")
    assert got == [({"a": "1", "b": None},), ({"a": "1", "b": "2"},)]


def test_quoting_separators_line_breaks_and_escaped_quotes(conn, folder):
    write(folder, "q.csv", 'id,text\n1,"a, b"\n2,"say ""hi"""\n3,"two\nlines"\n4,"back\\"slash"\n5,x\n')
    got = rows(conn, "LOAD CSV WITH HEADERS FROM 'file:///q.csv' AS r RETURN r.text AS t, linenumber() AS l")
    assert got == [("a, b", 2), ('say "hi"', 3), ("two\nlines", 4), ('back"slash', 6), ("x", 7)]


def test_crlf_line_ends_and_blank_lines(conn, folder):
    write(folder, "w.csv", "a,b\r\n1,2\r\n\r\n3,4\r\n")
    got = rows(conn, "LOAD CSV FROM 'file:///w.csv' AS r RETURN r, linenumber() AS l")
    assert got == [(["a", "b"], 1), (["1", "2"], 2), (["3", "4"], 4)]


def test_byte_order_mark_is_dropped(conn, folder):
    write(folder, "bom.csv", "\ufeffname\nAda\n")
    assert rows(conn, "LOAD CSV WITH HEADERS FROM 'file:///bom.csv' AS r RETURN keys(r) AS k, r.name AS n") == [
        (["name"], "Ada")]


def test_field_terminator(conn, folder):
    write(folder, "t.tsv", "a\tb\n1\t2\n")
    write(folder, "s.csv", "a;b\n1;\"x;y\"\n")
    assert rows(conn, r"LOAD CSV FROM 'file:///t.tsv' AS r FIELDTERMINATOR '\t' RETURN r") == [
        (["a", "b"],), (["1", "2"],)]
    assert rows(conn, "LOAD CSV WITH HEADERS FROM 'file:///s.csv' AS r FIELDTERMINATOR ';' RETURN r.b AS b") == [
        ("x;y",)]


def test_linenumber_and_file(conn, folder):
    write(folder, "a.csv", "h\nv\n")
    got = rows(conn, "LOAD CSV WITH HEADERS FROM 'file:///a.csv' AS r RETURN linenumber() AS l, file() AS f")
    assert got == [(2, str((folder / "a.csv").resolve()))]
    assert rows(conn, "RETURN linenumber() AS l, file() AS f") == [(None, None)]


def test_linenumber_reads_the_latest_load_csv(conn, folder):
    write(folder, "a.csv", "1\n2\n")
    write(folder, "b.csv", "x\ny\nz\n")
    got = rows(conn, "LOAD CSV FROM 'file:///a.csv' AS a LOAD CSV FROM 'file:///b.csv' AS b "
                     "WITH a, b, linenumber() AS l WHERE a = ['1'] RETURN b[0] AS b, l")
    assert got == [("x", 1), ("y", 2), ("z", 3)]


def test_url_from_a_parameter_and_from_each_row(conn, folder):
    write(folder, "a.csv", "1\n")
    write(folder, "b.csv", "2\n3\n")
    assert rows(conn, "LOAD CSV FROM $u AS r RETURN r[0] AS v", u="file:///a.csv") == [("1",)]
    got = rows(conn, "UNWIND ['a', 'b'] AS f LOAD CSV FROM 'file:///' + f + '.csv' AS r RETURN f, r[0] AS v")
    assert got == [("a", "1"), ("b", "2"), ("b", "3")]


def test_percent_escapes_and_subfolders(conn, folder):
    (folder / "sub").mkdir()
    write(folder, "sub/my file.csv", "ok\n")
    assert rows(conn, "LOAD CSV FROM 'file:///sub/my%20file.csv' AS r RETURN r") == [(["ok"],)]
    assert rows(conn, "LOAD CSV FROM 'file:/sub/../sub/./my%20file.csv' AS r RETURN r") == [(["ok"],)]
    assert rows(conn, "LOAD CSV FROM 'file://localhost/sub/my%20file.csv' AS r RETURN r") == [(["ok"],)]


def test_a_runtime_url_that_is_not_a_string(conn):
    with pytest.raises(RelateError) as e:
        conn.execute("LOAD CSV FROM $u AS r RETURN r", {"u": 3})
    assert e.value.kind == "InvalidArgumentType" and e.value.tck_type == "TypeError"


def test_not_utf8_and_unterminated_quote(conn, folder):
    (folder / "bin.csv").write_bytes(b"a\n\xff\xfe\n")
    write(folder, "open.csv", 'a\n"never ends\n')
    for name in ("bin.csv", "open.csv"):
        with pytest.raises(RelateError) as e:
            conn.execute(f"LOAD CSV FROM 'file:///{name}' AS r RETURN r")
        assert e.value.kind == "ExternalResourceFailed"


def test_loading_writes_and_survives_reopen(conn, folder, reopen):
    write(folder, "people.csv", "name,age\nAda,36\nGrace,45\n")
    r = conn.execute("LOAD CSV WITH HEADERS FROM 'file:///people.csv' AS row "
                     "CREATE (:Person {name: row.name, age: toInteger(row.age), line: linenumber()})")
    assert (r.stats.nodes_created, r.stats.properties_set) == (2, 6)
    conn = reopen(conn)
    got = conn.execute("MATCH (p:Person) RETURN p.name AS n, p.age AS a, p.line AS l ORDER BY n").rows
    assert got == [("Ada", 36, 2), ("Grace", 45, 3)]


def test_a_failing_load_writes_nothing(conn, folder):
    write(folder, "bad.csv", 'a\n1\n"x\n')
    with pytest.raises(RelateError):
        conn.execute("LOAD CSV WITH HEADERS FROM 'file:///bad.csv' AS row CREATE (:Row {a: row.a})")
    assert conn.execute("MATCH (n) RETURN count(n) AS c").rows == [(0,)]


def test_rows_stream_limit_stops_reading(conn, folder):
    # a LIMIT stops the reader: a broken record after the first rows is never reached
    write(folder, "big.csv", "".join(f"{i}\n" for i in range(1000)) + '"unterminated\n')
    assert rows(conn, "LOAD CSV FROM 'file:///big.csv' AS r RETURN r[0] AS v LIMIT 2") == [("0",), ("1",)]


def test_records_reader_directly():
    lines = ["a,b\n", '"x\n', 'y",z\n', "\n", ",\n"]
    assert list(records(iter(lines), ",")) == [(1, ["a", "b"]), (2, ["x\ny", "z"]), (5, [None, None])]


def test_explain_names_the_operator_and_needs_no_folder():
    r = relate.connect().execute("EXPLAIN LOAD CSV WITH HEADERS FROM 'file:///x.csv' AS row RETURN row")
    ops = []
    node = r.plan
    while node is not None:
        ops.append((node.operator, node.details))
        node = node.children[0] if node.children else None
    assert ("LoadCSV", "WITH HEADERS AS row") in ops
