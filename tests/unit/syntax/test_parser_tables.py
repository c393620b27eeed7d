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


def _refusal(parser: Lark, text: str) -> tuple[str, int, frozenset[str]]:
    from lark.exceptions import UnexpectedToken
    try:
        parser.parse(prescan(text))
    except UnexpectedToken as e:
        return e.token.type, e.token.start_pos, frozenset(e.accepts or e.expected)
    raise AssertionError(f"{text!r} parsed")


def test_an_image_refuses_like_a_fresh_parser(tmp_path):
    # a syntax error replays the parser state to list what could come next: the loaded image's
    # actions must still be lark's own Shift and Reduce
    loaded = P.load_prebuilt(P.write_prebuilt(tmp_path / "tables.bin"), _grammar())
    fresh = Lark(_grammar(), **P._OPTIONS)
    for text in ("MATCH (a) RETURN a a", "RETURN 1 +", "MATCH (a)-[:T]->(b) WHERE RETURN b", "UNWIND [1 AS x RETURN x"):
        assert _refusal(loaded, text) == _refusal(fresh, text)


def test_the_first_process_caches_the_parser_and_the_next_loads_it(tmp_path, monkeypatch):
    from relate.syntax import tables
    path = tmp_path / "parser.bin"
    first = tables.cached(_grammar(), P._OPTIONS, path)
    assert path.exists() and path.stat().st_mode & 0o777 == 0o600
    built = []
    monkeypatch.setattr(tables, "build", lambda *a: built.append(a) or Lark(_grammar(), **P._OPTIONS))
    second = tables.cached(_grammar(), P._OPTIONS, path)
    assert built == []
    for text in STATEMENTS:
        assert second.parse(prescan(text)) == first.parse(prescan(text))


def test_a_cache_file_others_could_have_written_is_not_loaded(tmp_path, monkeypatch):
    from relate.syntax import tables
    path = tmp_path / "parser.bin"
    tables.cached(_grammar(), P._OPTIONS, path)
    path.chmod(0o666)
    loaded = []
    monkeypatch.setattr(tables, "load", lambda *a: loaded.append(a))
    parser = tables.cached(_grammar(), P._OPTIONS, path)
    assert loaded == [] and parser.parse(prescan(STATEMENTS[0]))
    assert path.stat().st_mode & 0o777 == 0o600  # replaced by this user's own


def test_a_damaged_cache_file_is_rebuilt(tmp_path):
    from relate.syntax import tables
    path = tmp_path / "parser.bin"
    tables.cached(_grammar(), P._OPTIONS, path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    parser = tables.cached(_grammar(), P._OPTIONS, path)
    assert parser.parse(prescan(STATEMENTS[1]))
    assert len(path.read_bytes()) > len(data) // 2 and tables.load(path, _grammar(), P._OPTIONS) is not None
