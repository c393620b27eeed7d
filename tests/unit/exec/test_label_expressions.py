"""Neo4j 5 label and type expressions, inline pattern WHERE and dynamic labels as a user sees them:
what they match in MATCH, WHERE and RETURN, what CREATE/MERGE/SET/REMOVE write (on every store
kind, read back after a restart), the refusals (kind, phase and the place the error points at) and
the access path EXPLAIN shows."""
from __future__ import annotations

import pytest

from tests.unit.answers import fails, one

ZOO = ("CREATE (:Fox {n: 'red'}), (:Owl {n: 'snowy'}), (:Fox:Pet {n: 'tame'}), (:Owl:Pet {n: 'hoot'}), "
       "({n: 'blank'}), (:Eel {n: 'slick'})")


def names(db, q, **params):
    return sorted(r[0] for r in db.execute(q, params).rows)


@pytest.mark.parametrize("pattern, expected", [
    ("x:Fox|Owl", ["hoot", "red", "snowy", "tame"]),
    ("x:Owl&Pet", ["hoot"]),
    ("x:!Pet", ["blank", "red", "slick", "snowy"]),
    ("x:%", ["hoot", "red", "slick", "snowy", "tame"]),
    ("x:!%", ["blank"]),
    ("x:(Fox|Owl)&!Pet", ["red", "snowy"]),
    ("x:Eel|Owl&Pet", ["hoot", "slick"]),
    ("x:!Fox&!Owl", ["blank", "slick"]),
    ("x:!(Fox|Owl)", ["blank", "slick"]),
    ("x:!!Pet", ["hoot", "tame"]),
    ("x IS Owl", ["hoot", "snowy"]),
    ("x IS Owl&Pet", ["hoot"]),
    ("x:Fox:Pet", ["tame"]),
    ("x:Fox&Pet", ["tame"]),
    ("x:$('Fox')", ["red", "tame"]),
    ("x:$(['Fox', 'Pet'])", ["tame"]),
    ("x:$any(['Eel', 'Pet'])", ["hoot", "slick", "tame"]),
    ("x:$all(['Owl'])&!Pet", ["snowy"]),
])
def test_node_label_expressions(db, pattern, expected):
    db.execute(ZOO)
    assert names(db, f"MATCH ({pattern}) RETURN x.n") == expected
    # the same test as a WHERE predicate answers the same nodes
    assert names(db, f"MATCH (x) WHERE {pattern} RETURN x.n") == expected


def test_label_expressions_as_values(db):
    db.execute(ZOO)
    rows = db.execute("MATCH (x:Fox) RETURN x.n, x:Fox&Pet, x:%, x IS !Pet, x:$any(['Pet']) ORDER BY x.n").rows
    assert rows == [("red", False, True, True, False), ("tame", True, True, False, True)]
    assert one(db, "OPTIONAL MATCH (x:Nope) RETURN x:A|B") is None


def test_projection_bar_is_kept_in_a_comprehension(db):
    db.execute(ZOO)
    got = one(db, "MATCH (x) WITH collect(x) AS l RETURN [z IN l WHERE z:Fox | z.n] AS r")
    assert sorted(got) == ["red", "tame"]
    # `| name ]` stays the projection bar (openCypher's reading); parentheses make it a label disjunction
    got = one(db, "MATCH (x) WITH collect(x) AS l, 1 AS Eel RETURN [z IN l WHERE z:Fox|Eel] AS r")
    assert got == [1, 1]
    got = one(db, "MATCH (x) WITH collect(x) AS l RETURN [z IN l WHERE z:(Fox|Eel)] AS r")
    assert len(got) == 3
    assert len(one(db, "MATCH (x) WITH collect(x) AS l RETURN [z IN l WHERE z:Fox|Eel AND true] AS r")) == 3


def test_empty_dynamic_lists(db):
    db.execute("CREATE (:Lamp), (:Desk), ()")
    assert one(db, "MATCH (x:$all([])) RETURN count(x)") == 3
    assert one(db, "MATCH (x:$any([])) RETURN count(x)") == 0


def test_relationship_type_expressions(db):
    db.execute("CREATE (h:Hen), (h)-[:LAYS]->(:Egg), (h)-[:PECKS]->(:Seed), (h)-[:EYES]->(:Worm)")
    assert names(db, "MATCH (:Hen)-[r:LAYS|PECKS]->() RETURN type(r)") == ["LAYS", "PECKS"]
    assert names(db, "MATCH (:Hen)-[r:LAYS|:EYES]->() RETURN type(r)") == ["EYES", "LAYS"]
    assert names(db, "MATCH (:Hen)-[r:!LAYS]->() RETURN type(r)") == ["EYES", "PECKS"]
    assert one(db, "MATCH ()-[r:%]->() RETURN count(r)") == 3
    assert one(db, "MATCH ()-[r:LAYS&PECKS]->() RETURN count(r)") == 0
    assert names(db, "MATCH (:Hen)-[r:$any(['EYES', 'LAYS'])]->() RETURN type(r)") == ["EYES", "LAYS"]
    assert names(db, "UNWIND ['EYES'] AS t MATCH (:Hen)-[r:$(t)]->(x) RETURN labels(x)[0]") == ["Worm"]
    assert names(db, "MATCH (:Hen)-[r]->(x) WHERE r:PECKS|EYES RETURN labels(x)[0]") == ["Seed", "Worm"]
    # variable length and shortestPath test every relationship of the path
    db.execute("MATCH (w:Worm) CREATE (w)-[:LAYS]->(:Egg {deep: true})")
    assert one(db, "MATCH (:Hen)-[:!PECKS*2]->(e) RETURN e.deep") is True
    assert one(db, "MATCH p = shortestPath((:Hen)-[:EYES|LAYS*]->(:Egg {deep: true})) RETURN length(p)") == 2
    assert db.execute("MATCH p = shortestPath((:Hen)-[:!EYES*]->(:Egg {deep: true})) RETURN p").rows == []


def test_inline_where(db):
    db.execute("CREATE (k:Kid {name: 'Kim', age: 7}), (l:Kid {name: 'Lou', age: 12}), "
               "(m:Kid {name: 'Max', age: 15}), (k)-[:PLAYS {since: 2021}]->(l), "
               "(l)-[:PLAYS {since: 2019}]->(m), (m)-[:PLAYS {since: 2023}]->(k)")
    assert names(db, "MATCH (k:Kid WHERE k.age > 10) RETURN k.name") == ["Lou", "Max"]
    assert names(db, "MATCH (a)-[p:PLAYS WHERE p.since < 2022]->(b) RETURN a.name") == ["Kim", "Lou"]
    assert names(db, "MATCH (k WHERE k.age < $min) RETURN k.name", min=10) == ["Kim"]
    # the predicate sees variables bound earlier and elements later in the same pattern
    assert names(db, "MATCH (a:Kid)-[:PLAYS]->(b WHERE b.age > a.age) RETURN a.name") == ["Kim", "Lou"]
    assert names(db, "MATCH (a:Kid WHERE a.age < b.age)-[:PLAYS]->(b) RETURN a.name") == ["Kim", "Lou"]
    assert db.execute("MATCH (k:Kid {name: 'Kim'}) OPTIONAL MATCH (k)-->(f WHERE f.age > 20) "
                      "RETURN k.name, f").rows == [("Kim", None)]
    assert sorted(one(db, "MATCH (k:Kid {name: 'Lou'}) RETURN [(k)-[p WHERE p.since > 2000]-(o) | o.name]")) \
        == ["Kim", "Max"]
    assert names(db, "MATCH (k:Kid) WHERE EXISTS { (k)-->(:Kid WHERE k.age > 10) } RETURN k.name") == ["Lou", "Max"]
    assert one(db, "MATCH (k:Kid) RETURN COUNT { (k)-->(o WHERE o.age > 10) } AS n ORDER BY n DESC LIMIT 1") == 1


def test_dynamic_label_writes_survive_a_restart(db, reopen):
    db.execute("CREATE ({n: 1, kind: 'Chair'}), ({n: 2, kind: 'Table'}), (:Item:Draft {n: 3})")
    r = db.execute("MATCH (x) WHERE x.kind IS NOT NULL SET x:$(x.kind) RETURN x.n")
    assert r.stats.labels_added == 2
    r = db.execute("MATCH (x:Item) SET x:$(['New', 'Hot']) REMOVE x:$($gone) RETURN x.n", {"gone": "Draft"})
    assert (r.stats.labels_added, r.stats.labels_removed) == (2, 1)
    r = db.execute("CREATE (x:$($l)&Pot {n: 4}) RETURN labels(x)", {"l": "Vase"})
    assert sorted(r.rows[0][0]) == ["Pot", "Vase"] and r.stats.labels_added == 2
    db.execute("UNWIND ['A', 'B'] AS code MERGE (s:$('Shelf') {code: code})")
    db.execute("UNWIND ['A', 'C'] AS code MERGE (s:$('Shelf') {code: code})")
    db.execute("MATCH (a {n: 1}), (b {n: 2}) CREATE (a)-[:$($t)]->(b)", {"t": "FEEDS"})
    db.execute("MATCH (a {n: 2}), (b {n: 1}) MERGE (a)-[:$('DRAINS')]->(b)")
    db.execute("INSERT (:Tree&Oak {age: 80})")
    db = reopen(db)
    assert one(db, "MATCH (x:Chair) RETURN x.n") == 1
    assert one(db, "MATCH (x:Table) RETURN x.n") == 2
    assert sorted(one(db, "MATCH (x:Item) RETURN labels(x)")) == ["Hot", "Item", "New"]
    assert one(db, "MATCH (x:Vase&Pot) RETURN x.n") == 4
    assert names(db, "MATCH (s:Shelf) RETURN s.code") == ["A", "B", "C"]
    assert names(db, "MATCH ()-[r]->() RETURN type(r)") == ["DRAINS", "FEEDS"]
    assert sorted(one(db, "MATCH (t:Tree) RETURN labels(t)")) == ["Oak", "Tree"]


@pytest.mark.parametrize("q, kind, column", [
    ("MATCH (x:Fox:Pet|Owl) RETURN x", "InvalidLabelExpression", 14),
    ("MATCH ()-[r:A:B]->() RETURN r", "InvalidLabelExpression", 15),
    ("CREATE (:Bat|Pet)", "LabelExpressionNotAllowed", 10),
    ("CREATE (:!Bat)", "LabelExpressionNotAllowed", 10),
    ("MERGE (:%)", "LabelExpressionNotAllowed", 9),
    ("CREATE (:$any(['A']))", "LabelExpressionNotAllowed", 10),
    ("CREATE (:Hen)-[:LAYS|PECKS]->(:Egg)", "NoSingleRelationshipType", None),
    ("INSERT (:Tree:Oak)", "InvalidLabelExpression", 8),
    ("CREATE (:Tree:Oak), (:Fir&Pine)", "InvalidLabelExpression", 21),
    ("CREATE (n:Kid WHERE n.age > 1)", "InlineWhereNotAllowed", 21),
    ("MATCH (a) MERGE (a)-[r:R WHERE r.x > 0]->(b)", "InlineWhereNotAllowed", 32),
    ("MATCH (a)-[r:R*1..2 WHERE r.x > 0]->(b) RETURN b", "InlineWhereNotAllowed", 27),
    ("MATCH (x:$([7])) RETURN x", "InvalidDynamicLabel", 10),
    ("MATCH (x:$(null)) RETURN x", "InvalidDynamicLabel", 10),
    ("MATCH (x) SET x:$(1)", "InvalidDynamicLabel", 17),
    ("MATCH (x:$(nope)) RETURN x", "UndefinedVariable", None),
    ("MATCH (x) SET x:$(nope)", "UndefinedVariable", None),
])
def test_compile_time_refusals(db, q, kind, column):
    e = fails(db, q)
    assert (e.kind, e.phase, e.tck_type) == (kind, "compile", "SyntaxError")
    if column is not None:
        assert e.position.column == column


def test_runtime_refusals(db):
    db.execute("CREATE ({n: 1})")
    e = fails(db, "MATCH (x) MATCH (y:$(x.missing)) RETURN y")
    assert (e.kind, e.phase) == ("InvalidDynamicLabel", "runtime")
    e = fails(db, "MATCH (x) SET x:$(x.n)")
    assert e.kind == "InvalidDynamicLabel"
    e = fails(db, "CREATE ()-[:$($t)]->()", t=["A", "B"])
    assert e.kind == "InvalidDynamicLabel"
    assert one(db, "MATCH (x) RETURN count(x)") == 1  # the failed statements wrote nothing


def _operators(plan):
    out = [plan.operator]
    for c in plan.children:
        out += _operators(c)
    return out


def test_explain_access_paths(db):
    db.execute(ZOO)
    plan = db.execute("EXPLAIN MATCH (x:Fox) RETURN x").plan
    assert "NodeByLabelScan" in _operators(plan)
    plan = db.execute("EXPLAIN MATCH (x:Fox|Owl) RETURN x").plan
    ops = _operators(plan)
    assert "UnionNodeByLabelsScan" in ops and "NodeByLabelScan" not in ops
    scan = next(p for p in [plan, *plan.children] if p.operator == "UnionNodeByLabelsScan")
    assert scan.details == "(x:Fox|Owl)"
    ops = _operators(db.execute("EXPLAIN MATCH (x:Fox|!Owl) RETURN x").plan)
    assert "AllNodesScan" in ops
    plan = db.execute("EXPLAIN MATCH (a)-[r:!R|%]->(b:(A|B)&!C) RETURN a").plan
    expand = plan.children[0]
    assert expand.details == "(b:(A|B)&!C)<-[r:!R|%]-(a)"


def test_dynamic_property_keys(db, reopen):
    db.execute("CREATE (:Gauge {n: 1, level: 3, depth: 7})-[:AT]->(:Gauge {n: 2, level: 8, depth: 1})")
    r = db.execute("MATCH (g:Gauge {n: 1}) SET g[$key] = 42, g['x' + 'y'] = 'z'", {"key": "level"})
    assert r.stats.properties_set == 2
    db.execute("MATCH ()-[r:AT]->() WITH r, 'w' AS k SET r[k] = 5")
    db.execute("MERGE (g:Gauge {n: 3}) ON CREATE SET g[toLower('LEVEL')] = 0")
    db.execute("MATCH (g:Gauge {n: 2}) SET g['depth'] = null")
    db = reopen(db)
    assert db.execute("MATCH (g:Gauge) RETURN g.n, g.level, g.depth, g.xy ORDER BY g.n").rows == [
        (1, 42, 7, "z"), (2, 8, None, None), (3, 0, None, None)]
    assert one(db, "MATCH ()-[r:AT]->() RETURN r.w") == 5
    assert names(db, "WITH 'depth' AS k MATCH (g:Gauge) WHERE g[k] > 5 RETURN g.n") == [1]
    e = fails(db, "MATCH (g:Gauge) SET g[1] = 0")
    assert (e.kind, e.phase) == ("InvalidArgumentType", "runtime")
    assert fails(db, "MATCH (g:Gauge) SET g[nope] = 0").kind == "UndefinedVariable"


def test_keywords_stay_labels(db):
    db.execute("CREATE (:Where {a: 1})-[:Where]->(:Is {a: 2})")
    assert one(db, "MATCH (n:Where WHERE n.a = 1)-[:Where]->(m:Is) RETURN m.a") == 2
    assert one(db, "MATCH (n:Where|Is WHERE n.a > 1) RETURN n.a") == 2
    assert one(db, "MATCH (x IS Where) RETURN x.a") == 1
