"""Index commands on every store kind (relationship, composite, text, point, full-text; named
drops; SHOW INDEXES), and the seeks the planner takes from a constraint's index and from a
relationship index, with the same answers when the rules are off."""
from __future__ import annotations

import json

import pytest

from relate.errors import RelateError
from relate.exec.context import ExecContext
from relate.plan.planner import Planner
from relate.plan import rules


def details(db, text):
    plan = db.execute("EXPLAIN " + text).plan_json()
    out, stack = [], [plan["root"]]
    while stack:
        op = stack.pop()
        out.append(f"{op['operator']}: {op['details']}")
        stack.extend(op["children"])
    return out


def test_index_kinds_survive_reopen_and_are_listed(db, reopen):
    for text in ("CREATE INDEX road_toll FOR ()-[r:ROAD]-() ON (r.toll)",
                 "CREATE INDEX city_geo FOR (c:City) ON (c.country, c.name)",
                 "CREATE TEXT INDEX note_body FOR (n:Note) ON (n.body)",
                 "CREATE POINT INDEX ping_at FOR ()-[p:PING]-() ON (p.at)",
                 "CREATE FULLTEXT INDEX prose FOR (n:Essay|Letter) ON EACH [n.text, n.title]",
                 "CREATE INDEX FOR (w:Warehouse) ON (w.zone)"):
        assert db.execute(text).stats.indexes_added == 1
    db = reopen(db)
    rows = db.execute("SHOW INDEXES YIELD name, type, entityType, labelsOrTypes, properties, state").rows
    assert rows == [
        ("city_geo", "RANGE", "NODE", ["City"], ["country", "name"], "ONLINE"),
        ("note_body", "TEXT", "NODE", ["Note"], ["body"], "ONLINE"),
        ("ping_at", "POINT", "RELATIONSHIP", ["PING"], ["at"], "ONLINE"),
        ("prose", "FULLTEXT", "NODE", ["Essay", "Letter"], ["text", "title"], "ONLINE"),
        ("relate_Warehouse__zone", "RANGE", "NODE", ["Warehouse"], ["zone"], "ONLINE"),
        ("road_toll", "RANGE", "RELATIONSHIP", ["ROAD"], ["toll"], "ONLINE")]
    assert db.execute("SHOW TEXT INDEXES YIELD name").rows == [("note_body",)]
    assert db.execute("SHOW INDEXES").columns == (
        "id", "name", "state", "populationPercent", "type", "entityType", "labelsOrTypes", "properties",
        "indexProvider", "owningConstraint", "lastRead", "readCount")
    full = db.execute("SHOW INDEXES YIELD * WHERE name = 'road_toll'")
    assert full.columns[-4:] == ("trackedSince", "options", "failureMessage", "createStatement")
    assert full.rows[0][-1] == "CREATE RANGE INDEX `road_toll` FOR ()-[r:`ROAD`]-() ON (r.`toll`)"
    assert db.execute("DROP INDEX $i", {"i": "road_toll"}).stats.indexes_removed == 1
    assert db.execute("DROP INDEX road_toll IF EXISTS").stats.indexes_removed == 0
    db = reopen(db)
    assert "road_toll" not in [r[0] for r in db.execute("SHOW INDEXES YIELD name").rows]


def test_index_ddl_refusals(db):
    db.execute("CREATE INDEX by_name FOR (c:City) ON (c.name)")
    for text, kind in (("CREATE INDEX by_name FOR (c:City) ON (c.name)", "EquivalentSchemaRuleAlreadyExists"),
                       ("CREATE INDEX other FOR (c:City) ON (c.name)", "IndexAlreadyExists"),
                       ("CREATE INDEX by_name FOR (r:River) ON (r.name)", "IndexWithNameAlreadyExists"),
                       ("DROP INDEX never_made", "IndexNotFound")):
        with pytest.raises(RelateError) as info:
            db.execute(text)
        assert info.value.kind == kind
    assert db.execute("CREATE INDEX by_name IF NOT EXISTS FOR (r:River) ON (r.name)").stats.indexes_added == 0
    # a text index may sit beside a range index on the same property
    assert db.execute("CREATE TEXT INDEX t FOR (c:City) ON (c.name)").stats.indexes_added == 1


GRAPH = ("UNWIND range(1, 30) AS i CREATE (:Town {n: i})-[:ROAD {toll: i % 4, tag: 't' + toString(i % 3)}]->"
         "(:Town {n: i + 100})")
QUERIES = [
    "MATCH (a)-[r:ROAD {toll: 3}]->(b) RETURN a.n AS a, b.n AS b",
    "MATCH (a:Town)<-[r:ROAD]-(b) WHERE r.toll = 2 AND b.n > 5 RETURN a.n AS a, b.n AS b",
    "MATCH (a)-[r:ROAD]-(b) WHERE r.toll = $t RETURN a.n AS a, b.n AS b",
    "MATCH (x:Town {n: 3}) MATCH (x)-[r:ROAD {toll: 3}]->(y) RETURN y.n AS y",
    "MATCH (a)-[r:ROAD {toll: 1, tag: 't1'}]->(b) MATCH (b)<-[s:ROAD]-(c) RETURN a.n AS a, c.n AS c",
    "MATCH (t:Town {code: 'c3'}) RETURN t.n AS n",
    "MATCH (t:Town) WHERE t.code = 'c7' RETURN t.n AS n",
]


def test_seeks_from_a_relationship_index_and_a_constraint(db, reopen):
    db.execute(GRAPH)
    db.execute("MATCH (t:Town) WHERE t.n < 100 SET t.code = 'c' + toString(t.n)")
    db.execute("CREATE INDEX road_toll FOR ()-[r:ROAD]-() ON (r.toll)")
    db.execute("CREATE CONSTRAINT town_code FOR (t:Town) REQUIRE t.code IS UNIQUE")
    db = reopen(db)
    assert any("relationship index seek road_toll :ROAD(toll)" in d for d in details(db, QUERIES[0]))
    assert any("relationship index seek road_toll :ROAD(toll)" in d for d in details(db, QUERIES[1]))
    assert any(d.startswith("NodeIndexSeek") and "index seek town_code :Town(code) WHERE t.code = \"c3\"" in d
               for d in details(db, QUERIES[5]))
    assert any("index seek town_code :Town(code) WHERE t.code = \"c7\"" in d for d in details(db, QUERIES[6]))
    generic = Planner(db.graph, db.procedures, disabled_rules=rules.NAMES)
    for q in QUERIES:
        got = sorted(db.execute(q, {"t": 3}).rows)
        plan = generic.plan(db.prepare(q).statement)
        want = sorted(tuple(r) for r in plan.root.rows(ExecContext(db.graph, {"t": 3})))
        assert got == want, q
        assert got, q
    # the index follows writes and their undo
    db.execute("MATCH ()-[r:ROAD {toll: 3}]->() SET r.toll = 9")
    assert db.execute(QUERIES[0]).rows == []
    with pytest.raises(RelateError):
        db.execute("MATCH ()-[r:ROAD {toll: 9}]->() SET r.toll = 3 WITH 1 AS x RETURN 1 / 0")
    assert db.execute("MATCH ()-[r:ROAD {toll: 9}]->() RETURN count(r)").rows == [(7,)]
    db.execute("MATCH ()-[r:ROAD {toll: 9}]->() DELETE r")
    db = reopen(db)
    assert db.execute("MATCH ()-[r:ROAD {toll: 9}]->() RETURN count(r)").rows == [(0,)]
    assert db.execute("MATCH (a)-[r:ROAD {toll: 2}]->(b) RETURN count(r)").rows == [(8,)]


def test_explain_of_schema_commands(db):
    doc = db.execute("EXPLAIN CREATE CONSTRAINT c FOR ()-[r:R]-() REQUIRE r.k IS :: INT | STRING").plan_json()
    assert (doc["root"]["operator"], doc["root"]["details"]) == ("CreateConstraint",
                                                                  "()-[:R {k}]-() IS :: STRING | INTEGER")
    assert db.execute("SHOW CONSTRAINTS").rows == []                 # EXPLAIN created nothing
    doc = db.execute("EXPLAIN SHOW INDEXES YIELD name").plan_json()
    assert "SHOW INDEXES" in json.dumps(doc)
    assert db.execute("EXPLAIN DROP CONSTRAINT $c").plan_json()["root"]["details"] == "$c"
