"""The golden cases (EXPLAIN plans, error texts, parse trees) -> their rendered text, without pytest.

`all_cases()` lists every case with its golden file and a function that renders it: the text the
file must hold, the plan document (EXPLAIN cases) and the error record (error cases).  Used by
test_golden.py natively and by tests/pyodide/verdicts.py natively and inside Pyodide.
"""
from __future__ import annotations

import json
from pathlib import Path

DATA = Path(__file__).with_name("data")

PLANS = {
    "expand_with_inline_filter": "MATCH (p:Person)-[w:WORKS_ON]->(:Project {name: $project}) "
                                 "RETURN p.name AS name, w.since AS since ORDER BY since",
    "unwind": "UNWIND ['Ada', 'Grace', 'Noor'] AS name RETURN name",
    "create_node": "CREATE (:Person {name: $name, role: $role})",
    "label_scan_aggregate": "MATCH (p:Person) WITH p.role AS role, count(*) AS n "
                            "RETURN role, n ORDER BY n DESC LIMIT 1",
    "optional_two_hops": "MATCH (a:Person) OPTIONAL MATCH (a)-[:KNOWS]->(b)-[:WORKS_ON]->(p) RETURN a, p",
    "delete": "MATCH (p:Person {name: $name}) DETACH DELETE p",
    "schema": "CREATE INDEX person_name FOR (p:Person) ON (p.name)",
    "schema_constraint": "CREATE CONSTRAINT person_key FOR (p:Person) REQUIRE (p.name, p.role) IS NODE KEY",
    "schema_show": "SHOW CONSTRAINTS YIELD name, type WHERE type = 'NODE_KEY' RETURN name",
    "call_subquery": "MATCH (p:Person) OPTIONAL CALL (p) { MATCH (p)-[:KNOWS]->(f) RETURN f.name AS friend "
                     "UNION MATCH (f)-[:KNOWS]->(p) RETURN f.name AS friend } RETURN p.name, friend",
    "in_transactions": "MATCH (p:Person) CALL (p) { SET p.seen = true } IN TRANSACTIONS OF 2 ROWS "
                       "ON ERROR CONTINUE REPORT STATUS AS s RETURN p.name, s.committed",
    "collect_subquery": "MATCH (p:Person) ORDER BY p.name LIMIT 2 "
                        "RETURN p.name, COLLECT { MATCH (p)-->(x) RETURN x.name } AS near",
    "label_expression_scan": "MATCH (p:(Person|Project)&!Admin)-[r:!KNOWS]->(x:%) RETURN p, x",
    "dynamic_label_match": "MATCH (p:$($kind) WHERE p.age > 30)-[:$any(['KNOWS', 'WORKS_ON'])]->(x) RETURN x",
    "load_csv": "LOAD CSV WITH HEADERS FROM 'file:///people.csv' AS row FIELDTERMINATOR ';' "
                "CREATE (:Person {name: row.name, line: linenumber()})",
    "quantified_path": "MATCH (a:Person {name: 'Ada'}) ((x)-[:KNOWS]->(y)){1,2} (b) RETURN [n IN y | n.name] AS names",
    "counted_trails": "MATCH (p:Person {name: $name})-[:KNOWS*1..3]->(f:Person) RETURN count(f) AS n",
    "distinct_ends": "MATCH (p:Person {name: $name})-[:KNOWS]->(:Person)-[:KNOWS]->(f:Person) "
                     "WHERE f.name <> $name RETURN count(DISTINCT f) AS n",
    "shortest_selector": "MATCH p = SHORTEST 2 (a:Person)-[:KNOWS]->+(b:Person) RETURN length(p) AS len",
    # run with the indexes of INDEXES below
    "index_equality_seek": "MATCH (p:Person {name: $name})-[:WORKS_ON]->(x) RETURN x.name",
    "index_range_seek": "MATCH (p:Project) WHERE 'a' <= p.name < $high AND p.language <> 'Rust' RETURN p.name",
    "index_prefix_seek": "MATCH (p:Person) WHERE p.name STARTS WITH 'G' RETURN p",
    "index_in_seek": "MATCH (p:Person)-[w:WORKS_ON]->(x) WHERE w.since > 2022 AND p.name IN ['Ada', $who] "
                     "RETURN x.name, count(*)",
    "relationship_index_seek": "MATCH (p)-[w:WORKS_ON {since: 2024}]->(x) RETURN p.name, x.name",
}
INDEXES = ("CREATE INDEX person_name FOR (p:Person) ON (p.name)",
           "CREATE INDEX project_name FOR (p:Project) ON (p.name)",
           "CREATE INDEX works_on_since FOR ()-[w:WORKS_ON]-() ON (w.since)")

ERRORS = {
    "double_explain": "EXPLAIN EXPLAIN MATCH (n) RETURN n",
    "typo": "MATCH (n) RETRUN n",
    "unclosed_string": "RETURN 'abc",
    "unclosed_node": "MATCH (p:Person RETURN p",
    "unsupported_database": "CREATE DATABASE sales",
    "client_command": ":param name => 'Ada'",
    "two_statements": "RETURN 1; RETURN 2",
    "undefined": "MATCH (n) RETURN m",
    "missing_parameter": "RETURN $a + $b AS n",
    "overflow_literal": "RETURN 9223372036854775808",
    "overflow_arithmetic": "RETURN 9223372036854775807 + 1",
    "division_by_zero": "RETURN 1 / 0",
    "type_mismatch": "RETURN 'a' - 1",
    "unknown_function": "RETURN nope(1)",
    "delete_attached": "MATCH (p:Person {name: 'Ada'}) DELETE p",
    "aggregate_in_where": "MATCH (n) WHERE count(n) > 1 RETURN n",
    "with_needs_alias": "MATCH (n) WITH n.name RETURN 1",
    "unknown_type": "RETURN 1 IS :: WHOLE NUMBER AS r",
    "mixed_nullability_union": "RETURN 1 IS :: INTEGER NOT NULL | FLOAT",
    "concat_number": "RETURN 'n' || 1",
    "label_colon_mixed": "MATCH (x:Fox:Pet|Owl) RETURN x",
    "label_create_disjunction": "CREATE (:Bat|Pet)",
    "inline_where_in_merge": "MERGE (n:Kid WHERE n.age > 1)",
    "dynamic_label_literal": "MATCH (x:$([7])) RETURN x",
    "load_csv_disabled": "LOAD CSV FROM 'file:///x.csv' AS row RETURN row",
    "load_csv_terminator": "LOAD CSV FROM 'file:///x.csv' AS row FIELDTERMINATOR ';;' RETURN row",
    "load_csv_source_type": "LOAD CSV FROM 42 AS row RETURN row",
    "quantifier_bounds": "MATCH (a) ((x)-[:R]->(y)){3,1} (b) RETURN a",
    "quantified_paths_nested": "MATCH (a) (((x)-[:R]->(y)){1,2}){2} (b) RETURN a",
    "quantified_and_var_length": "MATCH (a)-[:R*1..2]->(m)-[:R]->+(b) RETURN a",
    "juxtaposed_nodes": "MATCH (a) (b) RETURN a",
}

PARSES = {
    "precedence": "RETURN NOT a = 1 OR b < 2 <= c AND -x ^ 2 * 3 + 4 IN [1] IS NULL",
    "comprehensions": "RETURN [x IN l WHERE x > 1 | x], [(a)-->(b) | b.name], [p = (a)-[*1..2]-(b) | p]",
    "keywords_as_names": "MATCH (n:Match {end: 1}) RETURN n.count, n.end, db.labels()",
    "map_projection": "MATCH (n) RETURN n {.name, .*, k: 1, n}",
    "call_subquery": "UNWIND [1] AS x OPTIONAL CALL (x) { WITH x WHERE x > 0 RETURN x AS y UNION RETURN 0 AS y } "
                     "CALL { WITH x RETURN x AS z } CALL (*) { CREATE () } CALL () { FINISH } RETURN y, z",
    "in_transactions": "UNWIND $rows AS r CALL (r) { CREATE (:T {v: r}) } IN 2 CONCURRENT TRANSACTIONS "
                       "OF $n ROWS ON ERROR RETRY FOR 2.5 SECONDS THEN BREAK REPORT STATUS AS s RETURN s",
    "subquery_expressions": "MATCH (c) ORDER BY c.n SKIP 1 LIMIT 2 RETURN COLLECT { MATCH (c)-->(d) RETURN d.n }, "
                            "EXISTS { RETURN 1 AS a UNION RETURN 2 AS a }, COUNT { RETURN 1 AS b UNION ALL "
                            "RETURN 1 AS b } AS n",
    "type_predicates": "RETURN x IS :: INT NOT NULL, x IS NOT TYPED LIST<STRING NOT NULL | FLOAT NOT NULL>, "
                       "x :: TIMESTAMP WITH TIME ZONE, x IS :: ANY<BOOL | NODE>, x IS :: INTEGER LIST NOT NULL, "
                       "[y IN l WHERE y :: INT | y]",
    "neo4j5_string_forms": "RETURN a || b || [1], trim(LEADING 'x' FROM s), trim(BOTH FROM s), "
                           "s IS NOT NFKD NORMALIZED, normalize(s, NFD)",
    "schema_constraint": "CREATE CONSTRAINT $name IF NOT EXISTS FOR ()-[r:PAID]-() REQUIRE r.ref IS :: INT | STRING",
    "schema_show": "SHOW UNIQUE CONSTRAINTS YIELD name ORDER BY name LIMIT 2 WHERE name <> 'x'",
    "label_expressions": "MATCH (x:(Fox|Owl)&!Pet)-[r:A|:B]->(y:%), (z IS Eel)-[:!R&%]-() "
                         "WHERE y IS Fox&!Pet RETURN x:Fox&Pet, x:%, [z IN l WHERE z:A | z.n], [z IN l WHERE z:A|B]",
    "inline_where": "MATCH (k:Kid {n: 1} WHERE k.age > 10)-[p:PLAYS WHERE p.since < $y]->(o) WHERE o.x "
                    "RETURN [(k)-[q WHERE q.w > 1]-(m) | m], EXISTS { (k)-->(:Kid WHERE k.age > 1) }",
    "dynamic_labels": "MATCH (a:$($x))-[:$any(['a'])]->(:$all(l)) SET a:$(a.k):B REMOVE a:$('x') "
                      "INSERT (:T&U)-[:$(t)]->()",
    "dynamic_property": "MATCH (g) SET g[$key] = 1, g.a = 2, g[k][0] = 3",
    "is_labels_and_remove_key": "MATCH (g) SET g IS A, g IS $(k) REMOVE g IS B, g[$key], g.c",
    "load_csv": "LOAD CSV WITH HEADERS FROM $url AS row FIELDTERMINATOR '\\t' WITH row, linenumber() AS line "
                "load csv from 'file:///b.csv' AS other RETURN row, other, line, file()",
    "quantified_paths": "MATCH p = (a) ((x)-[r:R]->(y) WHERE r.w > 1){1,3} (b)-[:S]->{2,}(c)-->+(d)<-[e]-{,4}(f) "
                        "RETURN p",
    "quantified_inline_where": "MATCH (a)-[r:R WHERE r.w > 1]->{1,3}(b) ((x:A WHERE x.k)-->(y)){2} (c) "
                               "RETURN shortestPath((a)-[*]->(c)) AS p",
    "path_selectors": "MATCH SHORTEST 2 GROUPS (p = (a)-[:R]->*(b) WHERE length(p) > 1), "
                      "ANY 3 PATHS ((c)-[:R]-{2}(d)) RETURN p",
}


def team_db():
    import relate
    from tests.team import TEAM

    db = relate.connect()
    db.execute(TEAM)
    return db


def explain(db, name: str):
    if "index" in name:
        for text in INDEXES:
            db.execute(text)
    return db.execute("EXPLAIN " + PLANS[name])


def explain_json(name: str) -> tuple[str, dict, None]:
    r = explain(team_db(), name)
    doc = {"columns": list(r.columns), "notifications": [n.as_dict() for n in r.notifications],
           "plan": r.plan_json(), "query_type": r.query_type}
    return json.dumps(doc, indent=2, sort_keys=True) + "\n", doc["plan"], None


def explain_tree(name: str) -> tuple[str, dict, None]:
    # what `relate --mode table` prints for EXPLAIN: the operator tree, then the notifications
    from relate.output import render as render_output

    r = explain(team_db(), name)
    return render_output(r, "table").stdout, r.plan_json(), None


class NoError(AssertionError):
    """An error case whose statement ran without an error."""


def error_doc(name: str) -> tuple[str, None, dict]:
    from relate.errors import RelateError

    try:
        team_db().execute(ERRORS[name])
    except RelateError as err:
        pos = None if err.position is None else [err.position.line, err.position.column]
        doc = {"kind": err.kind, "message": err.message, "phase": err.phase, "position": pos,
               "tck_type": err.tck_type}
        return json.dumps(doc, indent=2, sort_keys=True) + "\n", None, doc
    raise NoError(f"{ERRORS[name]!r} raised no error")


def parse_tree(name: str) -> tuple[str, None, None]:
    from relate.syntax.parser import parse
    from tests.golden.tree import render

    return render(parse(PARSES[name]).body), None, None


def all_cases() -> list[tuple]:
    """(kind, name, golden path, render) for every case, in a fixed order."""
    out = []
    for name in sorted(PLANS):
        out.append(("explain", name, DATA / "explain" / f"{name}.json", lambda n=name: explain_json(n)))
        out.append(("explain-tree", name, DATA / "explain" / f"{name}.txt", lambda n=name: explain_tree(n)))
    for name in sorted(ERRORS):
        out.append(("error", name, DATA / "errors" / f"{name}.json", lambda n=name: error_doc(n)))
    for name in sorted(PARSES):
        out.append(("parse", name, DATA / "parse" / f"{name}.txt", lambda n=name: parse_tree(n)))
    return out
