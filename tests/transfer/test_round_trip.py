"""Export -> import round trips give the same graph: the Cypher script replayed by relate (ids read
back from `_relate_id`) and the CSV files through `relate import` (ids restored as ids), on the
benchmark graph, on every TCK named graph, and on a graph holding every property type relate stores."""
from __future__ import annotations

import sys

import pytest

import relate
from relate.transfer.headers import RELATE_ID
from tests.conftest import ROOT, SHARED
from tests.transfer.graphs import cli, store_signature, via_csv, via_script

BENCH = ROOT / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

from graphgen import generate  # noqa: E402

TCK_GRAPHS = SHARED / "tck" / "graphs"
NAMED = sorted(p.name for p in TCK_GRAPHS.iterdir() if (p / f"{p.name}.cypher").exists()) if TCK_GRAPHS.exists() else []


def _bench_store(path: str) -> None:
    g = generate("T")
    db = relate.connect(path)
    db.execute("CREATE INDEX person_id FOR (p:Person) ON (p.id)")
    db.execute("CREATE CONSTRAINT post_id FOR (p:Post) REQUIRE p.id IS UNIQUE")
    db.execute("UNWIND $rows AS r CREATE (:Person {id: r[0], name: r[1], age: r[2], city: r[3]})",
               {"rows": [list(p) for p in g.persons]})
    db.execute("UNWIND $rows AS r CREATE (:Post {id: r[0], title: r[1]})", {"rows": [list(p) for p in g.posts]})
    db.execute("UNWIND $rows AS r MATCH (a:Person {id: r[0]}), (b:Person {id: r[1]}) "
               "CREATE (a)-[:KNOWS {since: r[2]}]->(b)", {"rows": [list(k) for k in g.knows]})
    db.execute("UNWIND $rows AS r MATCH (a:Person {id: r[0]}), (b:Post {id: r[1]}) CREATE (a)-[:CREATED]->(b)",
               {"rows": [list(k) for k in g.created]})
    db.execute("UNWIND $rows AS r MATCH (a:Person {id: r[0]}), (b:Post {id: r[1]}) CREATE (a)-[:LIKES]->(b)",
               {"rows": [list(k) for k in g.likes]})
    # a few deleted records leave gaps in the ids, which the CSV import must keep
    db.execute("MATCH (p:Person) WHERE p.id % 17 = 3 DETACH DELETE p")
    db.close()


VALUES = {
    "big": 9223372036854775807, "small": -9223372036854775808, "past53": 2 ** 53 + 1,
    "nan": float("nan"), "inf": float("inf"), "ninf": float("-inf"), "negzero": -0.0, "tiny": 5e-324,
    "huge": 1.7976931348623157e308, "third": 1 / 3,
    "quotes": 'say "hi", it\'s `here`; ok', "lines": "one\ntwo\r\nthree\rfour\ttab", "empty": "",
    "space": "  padded  ", "unicode": "zwölf 🐍 \u2028", "backslash": "C:\\path\\",
    "ints": [1, -2, 2 ** 62], "floats": [1.5, float("nan"), -0.0], "strings": ["a;b", "c|d", "", "x,y"],
    "bools": [True, False], "flag": True,
}
TEMPORAL = ("d: date('2020-02-29'), lt: localtime('23:59:59.999999999'), t: time('12:00:01.5-05:30'), "
            "ldt: localdatetime('1999-12-31T23:59:59'), dtz: datetime('2021-10-31T02:30:00+01:00[Europe/Berlin]'), "
            "dto: datetime('2021-06-01T12:00:00.000000001-03:00'), du: duration('P1Y2M10DT-3H4M5.000000006S'), "
            "dun: duration('-P3W'), pc: point({x: 1.5, y: -2.25}), p3: point({x: 1, y: 2, z: 3}), "
            "pg: point({longitude: 12.99, latitude: 55.61}), "
            "pg3: point({longitude: -122.3, latitude: 37.5, height: 100}), "
            "dates: [date('2020-01-01'), date('0001-01-01')], pts: [point({x: 1, y: 2}), point({x: 3, y: 4})]")


def _values_store(path: str, *, script_only: bool = False) -> None:
    db = relate.connect(path)
    db.execute("CREATE CONSTRAINT person_key FOR (p:Person) REQUIRE (p.first, p.last) IS NODE KEY")
    db.execute("CREATE CONSTRAINT must FOR (p:Person) REQUIRE p.first IS NOT NULL")
    db.execute("CREATE CONSTRAINT typed FOR (p:Person) REQUIRE p.age IS :: INTEGER")
    db.execute("CREATE CONSTRAINT rel_unique FOR ()-[r:KNOWS]-() REQUIRE r.k IS RELATIONSHIP UNIQUE")
    db.execute("CREATE TEXT INDEX names FOR (p:Person) ON (p.last)")
    db.execute("CREATE POINT INDEX places FOR (p:Place) ON (p.at)")
    db.execute("CREATE INDEX composite FOR (p:Person) ON (p.age, p.last)")
    db.execute("CREATE INDEX rel_since FOR ()-[r:KNOWS]-() ON (r.since)")
    db.execute("CREATE FULLTEXT INDEX bios FOR (p:Person|Bot) ON EACH [p.bio]")
    db.execute("CREATE (a:Person {first: 'Ada', last: 'L', age: 36})-[:KNOWS {k: 1, since: 1843}]->"
               "(b:Person:`odd label; with|bars` {first: 'Bo', last: 'M'}), (b)-[:`TYPE WITH SPACE`]->(b)")
    db.execute(f"CREATE (:Values $props)-[:HOLDS {{{TEMPORAL}}}]->(:Place {{at: point({{x: 0, y: 0}})}})",
               {"props": VALUES})
    db.execute(f"CREATE (:Temporal {{{TEMPORAL}}}), (), (:Values {{bytes: $b}})", {"b": bytes(range(256))})
    db.execute("MATCH (n:Temporal) SET n.`key with space` = 1, n.`colon:key` = 'k', n.`a:date` = 'not a date'")
    if script_only:
        db.execute("CREATE (:OnlyScript {empty: [], lone: '\\ud800 x \\udfff'})")
    db.close()


@pytest.fixture
def bench_store(tmp_path):
    path = str(tmp_path / "bench")
    _bench_store(path)
    return path


def test_bench_graph_round_trips_through_the_csv_files(bench_store, tmp_path):
    before = store_signature(bench_store)
    assert len(before[0]) > 200 and len(before[1]) > 1000
    assert store_signature(via_csv(bench_store, str(tmp_path))) == before


def test_bench_graph_round_trips_through_the_script(bench_store, tmp_path):
    before = store_signature(bench_store)
    assert store_signature(via_script(bench_store, str(tmp_path)), RELATE_ID) == before


@pytest.mark.parametrize("name", NAMED)
def test_tck_named_graph_round_trips(name, tmp_path):
    src = str(tmp_path / "src")
    code, out, err = cli("--database", src, "--mode", "jsonl", "-f", str(TCK_GRAPHS / name / f"{name}.cypher"))
    assert code == 0, err
    before = store_signature(src)
    assert before[0]
    csv_dir, script_dir = tmp_path / "c", tmp_path / "s"
    csv_dir.mkdir()
    script_dir.mkdir()
    assert store_signature(via_csv(src, str(csv_dir))) == before
    assert store_signature(via_script(src, str(script_dir)), RELATE_ID) == before


def test_the_runner_loads_named_graphs():
    assert {"binary-tree-1", "binary-tree-2"} <= set(NAMED)


def test_every_property_type_survives_the_csv_round_trip(tmp_path):
    src = str(tmp_path / "src")
    _values_store(src)
    before = store_signature(src)
    after = store_signature(via_csv(src, str(tmp_path)))
    assert after == before
    db = relate.connect(str(tmp_path / "imported.rl"), read_only=True)
    # ids are the ids, not a property, and the constraints hold on the imported graph
    assert db.execute("MATCH (n:Values) WHERE n.bytes IS NULL RETURN id(n) AS i, n._relate_id AS p").rows[0][1] is None
    assert db.execute("SHOW CONSTRAINTS YIELD name RETURN count(*) AS c").rows == [(4,)]
    db.close()


def test_every_property_type_survives_the_script_round_trip(tmp_path):
    src = str(tmp_path / "src")
    _values_store(src, script_only=True)
    db = relate.connect(src)
    db.execute("MATCH (n:Values) WHERE n.bytes IS NOT NULL DELETE n")  # bytes: the script refuses them
    db.close()
    before = store_signature(src)
    assert store_signature(via_script(src, str(tmp_path)), RELATE_ID) == before
