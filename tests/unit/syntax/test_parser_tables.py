"""The prebuilt parser tables (`relate/syntax/cypher.lark.bin`, shipped in the browser wheel) must
parse exactly like a freshly built parser, and be ignored when they do not match the grammar."""
from __future__ import annotations

from lark import Lark

from relate.syntax import parser as P
from relate.syntax.prescan import prescan

STATEMENTS = [
    "MATCH (a:A {k: 1})-[r:T*1..3]->(b) WHERE a.x > 1 AND NOT (b)-->() RETURN a, count(*) AS c ORDER BY c",
    "UNWIND $rows AS r MERGE (n:N {id: r.id}) ON CREATE SET n += r ON MATCH SET n.seen = true",
    "RETURN [x IN range(0, 9) WHERE x % 2 = 0 | x ^ 2] AS l, {a: [1, 2.5e3, 'x']} AS m, 0x1F AS h",
    "CALL db.labels() YIELD label WITH label WHERE label STARTS WITH 'A' RETURN label UNION RETURN 'z'",
]


def _grammar() -> str:
    return P.Path(P.__file__).with_name("cypher.lark").read_text(encoding="utf-8")


def test_prebuilt_tables_parse_like_a_fresh_parser(tmp_path):
    path = P.write_prebuilt(tmp_path / "tables.bin")
    loaded = P.load_prebuilt(path, _grammar())
    assert loaded is not None
    fresh = Lark(_grammar(), **P._OPTIONS)
    for text in STATEMENTS:
        marked = prescan(text)
        assert loaded.parse(marked) == fresh.parse(marked)


def test_tables_for_another_grammar_are_ignored(tmp_path):
    path = P.write_prebuilt(tmp_path / "tables.bin")
    assert P.load_prebuilt(path, _grammar() + "\n// edited\n") is None
    assert P.load_prebuilt(tmp_path / "missing.bin", _grammar()) is None
