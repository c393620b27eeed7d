"""Values as the table output and the browser page show them (`values.to_text`), and their
`columnTypes` names."""
from __future__ import annotations

from relate.values import to_json, to_text, type_name


def test_strings_are_quoted_with_control_characters_escaped(db):
    (value,) = db.execute("RETURN 'a\\nb\\t\"c\"\\\\' + $tail AS s", {"tail": "\x01"}).rows[0]
    assert value == 'a\nb\t"c"\\\x01'
    assert to_text(value) == '"a\\nb\\t\\"c\\"\\\\\\u0001"'


def test_nested_values_render_as_cypher_literals(db):
    db.execute("CREATE (:A:B {name: 'x'})-[:T {w: 1}]->()")
    (n, r, p, m) = db.execute("MATCH p = (n)-[r]->() RETURN n, r, p, {`odd key`: [1, 2.5, null, true]}").rows[0]
    assert to_text(n) == '(:A:B {name: "x"})'
    assert to_text(r) == '[:T {w: 1}]'
    assert to_text(p) == '<(:A:B {name: "x"})-[:T {w: 1}]->()>'
    assert to_text(m) == '{`odd key`: [1, 2.5, null, true]}'


def test_temporal_values_render_as_iso_text_and_have_their_type_name(db):
    (d, dur) = db.execute("RETURN date('2024-02-29'), duration('P1DT2H')").cypher_rows[0]
    assert to_text(d) == to_json(d) == "2024-02-29"
    assert type_name(d) == "DATE" and type_name(dur) == "DURATION"
