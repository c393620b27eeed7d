"""Schema commands parse into their AST nodes, and refuse what Neo4j 5 refuses, with typed errors."""
from __future__ import annotations

import pytest

from relate.errors import CypherSyntaxError
from relate.syntax import ast as A
from relate.syntax.parser import parse


def body(text):
    return parse(text).body


def test_create_constraint_forms():
    c = body("CREATE CONSTRAINT team_code IF NOT EXISTS FOR (t:Team) REQUIRE t.code IS UNIQUE")
    assert c == A.CreateConstraint("team_code", "Team", "t", ("code",), "unique", None, True, "NODE", 0)
    c = body("CREATE CONSTRAINT FOR (f:Flight) REQUIRE (f.carrier, f.number) IS NODE KEY")
    assert (c.name, c.kind, c.properties) == (None, "key", ("carrier", "number"))
    c = body("CREATE CONSTRAINT $n FOR ()-[r:PAID]->() REQUIRE r.ref IS RELATIONSHIP UNIQUE")
    assert c.name == A.Parameter("n", 18) and c.entity == "RELATIONSHIP" and c.label == "PAID"
    assert body("CREATE CONSTRAINT FOR ()-[r:R]-() REQUIRE r.k IS REL KEY").kind == "key"
    assert body("CREATE CONSTRAINT FOR (p:P) REQUIRE p.x IS NOT NULL").kind == "not_null"
    c = body("CREATE CONSTRAINT FOR (s:S) REQUIRE s.r IS :: FLOAT | INT | LIST<STRING NOT NULL> | int")
    assert (c.kind, c.property_type) == ("type", "INTEGER | FLOAT | LIST<STRING NOT NULL>")
    c = body("CREATE CONSTRAINT FOR (s:S) REQUIRE s.t IS TYPED TIMESTAMP WITH TIME ZONE")
    assert c.property_type == "ZONED DATETIME"
    c = body("CREATE CONSTRAINT c FOR (b:B) REQUIRE b.i IS UNIQUE OPTIONS {indexProvider: 'range-1.0'}")
    assert c.kind == "unique"


def test_create_index_forms():
    i = body("CREATE INDEX road_toll IF NOT EXISTS FOR ()-[r:ROAD]-() ON (r.toll)")
    assert (i.name, i.entity, i.label, i.properties, i.if_not_exists) == ("road_toll", "RELATIONSHIP", "ROAD",
                                                                          ("toll",), True)
    assert body("CREATE INDEX FOR (c:City) ON (c.country, c.name)").properties == ("country", "name")
    assert body("CREATE TEXT INDEX t FOR (n:Note) ON (n.body)").kind == "TEXT"
    assert body("CREATE POINT INDEX p FOR ()-[x:PING]-() ON (x.at)").kind == "POINT"
    assert body("CREATE RANGE INDEX r FOR (n:N) ON (n.a)").kind == "RANGE"
    f = body("CREATE FULLTEXT INDEX prose FOR (n:Essay|Letter) ON EACH [n.text, n.title]")
    assert (f.kind, f.label, f.more_labels, f.properties) == ("FULLTEXT", "Essay", ("Letter",), ("text", "title"))
    assert body("DROP INDEX $i IF EXISTS") == A.DropIndex(A.Parameter("i", 11), True, 0)
    assert body("DROP CONSTRAINT c") == A.DropConstraint("c", False, 0)


def test_show_is_a_query_over_the_listing_procedure():
    q = body("SHOW UNIQUE CONSTRAINTS YIELD name WHERE name <> 'x' RETURN name")
    assert isinstance(q, A.Query)
    call, with_, ret = q.parts[0].clauses
    assert call.procedure == "SHOW CONSTRAINTS" and call.args == (A.Literal("|UNIQUENESS", 0),)
    assert [i.alias or i.text for i in with_.projection.items] == ["name"] and with_.where is not None
    assert isinstance(ret, A.Return)
    assert isinstance(body("SHOW INDEXES"), A.Query)
    assert isinstance(body("SHOW RANGE INDEXES WHERE type = 'RANGE'"), A.Query)


@pytest.mark.parametrize("text, kind", [
    ("CREATE CONSTRAINT ON (b:Book) ASSERT b.isbn IS UNIQUE", "RemovedSyntax"),
    ("CREATE INDEX ON :City(name)", "RemovedSyntax"),
    ("CREATE CONSTRAINT c FOR (p:P) REQUIRE (p.a, p.b) IS NOT NULL", "InvalidSchemaCommand"),
    ("CREATE CONSTRAINT c FOR (p:P) REQUIRE (p.a, p.b) IS :: INTEGER", "InvalidSchemaCommand"),
    ("CREATE CONSTRAINT c FOR (p:P) REQUIRE q.a IS UNIQUE", "InvalidSchemaCommand"),
    ("CREATE CONSTRAINT c FOR (p:P) REQUIRE p.a IS RELATIONSHIP KEY", "InvalidSchemaCommand"),
    ("CREATE CONSTRAINT c FOR ()-[r:R]-() REQUIRE r.a IS NODE KEY", "InvalidSchemaCommand"),
    ("CREATE CONSTRAINT c FOR (p:P|Q) REQUIRE p.a IS UNIQUE", "InvalidSchemaCommand"),
    ("CREATE CONSTRAINT c FOR (p:P) REQUIRE p.a IS :: LIST<INTEGER>", "InvalidConstraintType"),
    ("CREATE CONSTRAINT c FOR (p:P) REQUIRE p.a IS :: MAP", "InvalidConstraintType"),
    ("CREATE CONSTRAINT c FOR (p:P) REQUIRE p.a IS :: INTEGER NOT NULL", "InvalidConstraintType"),
    ("CREATE INDEX i FOR (n) ON (n.a)", "InvalidSchemaCommand"),
    ("CREATE INDEX i FOR (n:A) ON EACH [n.a]", "InvalidSchemaCommand"),
    ("CREATE FULLTEXT INDEX i FOR (n:A) ON (n.a)", "InvalidSchemaCommand"),
    ("CREATE LOOKUP INDEX i FOR (n) ON EACH labels(n)", "UnsupportedClause"),
    ("CREATE VECTOR INDEX v FOR (n:A) ON (n.e)", "UnsupportedClause"),
    ("SHOW CONSTRAINTS WHERE type = 'NODE_KEY' YIELD name", "InvalidSchemaCommand"),
    ("SHOW FUZZY INDEXES", "InvalidSchemaCommand"),
])
def test_refusals_are_typed_syntax_errors(text, kind):
    with pytest.raises(CypherSyntaxError) as info:
        parse(text)
    assert info.value.kind == kind, str(info.value)
    assert info.value.tck_type == "SyntaxError"


def test_new_keywords_still_serve_as_names():
    q = body("MATCH (node:Node {key: 1, unique: 2, text: 3}) "
             "RETURN node.point AS point, point({x: 1, y: 2}) AS p, range(1, 2) AS r, node.options")
    assert isinstance(q, A.Query)
    assert isinstance(body("WITH 1 AS text, 2 AS key, 3 AS rel RETURN text + key + rel AS n"), A.Query)


def test_property_types_from_the_expression_grammars_type_objects():
    # the type predicates' `cypher_type` builds objects (name, nullable, inner, members); the
    # constraints read those as well as their own word runs
    from types import SimpleNamespace

    from relate.storage.schema_types import TypeError_, normalize_type

    def t(name, nullable=True, inner=None, members=()):
        return SimpleNamespace(name=name, nullable=nullable, inner=inner, members=members)
    union = t("UNION", members=(t("FLOAT"), t("INTEGER"), t("LIST", inner=t("STRING", False))))
    assert normalize_type(union) == "INTEGER | FLOAT | LIST<STRING NOT NULL>"
    for bad in (t("LIST", inner=t("STRING")), t("MAP"), t("INTEGER", False)):
        with pytest.raises(TypeError_):
            normalize_type(bad)
