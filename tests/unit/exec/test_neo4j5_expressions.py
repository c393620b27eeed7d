"""Neo4j 5 expressions and functions as a user sees them: type predicates and valueType(), `||`,
IS NORMALIZED and normalize(), trim(... FROM ...), nullIf(), elementId(), timestamp(),
randomUUID(), round() with precision and mode; their null rules and their refusals (kind, phase and
the place the error points at)."""
from __future__ import annotations

import pytest

from tests.unit.answers import fails, one


@pytest.mark.parametrize("expr, expected", [
    ("1 IS :: INT", True), ("1 IS :: SIGNED INTEGER NOT NULL", True), ("1.0 IS :: INTEGER", False),
    ("null IS :: STRING", True), ("null IS :: STRING NOT NULL", False), ("null IS :: NOTHING", False),
    ("null IS :: NULL", True), ("'a' IS :: NULL", False), ("null IS NOT :: DATE", False),
    ("null IS NOT :: DATE NOT NULL", True), ("1 IS NOT TYPED BOOL", True), ("1 :: INTEGER | STRING", True),
    ("true IS :: ANY<INTEGER | STRING>", False), ("[1, 'a'] IS :: LIST<ANY>", True),
    ("[1, 'a'] IS :: ARRAY<INTEGER | STRING>", True), ("[1, 2] IS :: INTEGER LIST", True),
    ("[[1]] IS :: LIST<LIST<INTEGER NOT NULL>>", True), ("[[null]] IS :: LIST<INTEGER LIST>", True),
    ("[1, null] IS :: LIST<INTEGER NOT NULL>", False), ("[] IS :: LIST<NOTHING>", True),
    ("[1, 2] IS :: PROPERTY VALUE", True), ("[1, 'a'] IS :: PROPERTY VALUE", False),
    ("[1, null] IS :: ANY PROPERTY VALUE", False), ("{} IS :: ANY MAP", True),
    ("date('2020-01-01') IS :: DATE NOT NULL", True), ("localtime('10:00') IS :: TIME WITHOUT TIME ZONE", True),
    ("time('10:00Z') IS :: TIME WITH TIMEZONE", True),
    ("localdatetime('2020-01-01T10:00') IS :: TIMESTAMP WITHOUT TIME ZONE", True),
    ("datetime('2020-01-01T10:00Z') IS :: LOCAL DATETIME", False),
    ("point({x: 1, y: 2}) IS :: POINT", True), ("duration('P1D') IS :: DURATION", True),
    ("1 IS :: INT!", True), ("null IS :: BOOLEAN!", False),
])
def test_type_predicates(db, expr, expected):
    assert one(db, f"RETURN {expr} AS r") is expected


def test_type_predicates_on_graph_values(db):
    db.execute("CREATE (:A)-[:R]->(:B)")
    row = one(db, "MATCH p = (a)-[r]->(b) RETURN a IS :: NODE, r IS :: EDGE, p IS :: PATH, "
                  "a IS :: ANY VERTEX, r IS :: NODE, [a, b] IS :: LIST<NODE NOT NULL>")
    assert row == (True, True, True, True, False, True)


def test_a_type_predicate_filters_missing_properties_only_when_not_null(db):
    db.execute("CREATE (:R {v: 3}), (:R {v: 'x'}), (:R)")
    rows = db.execute("MATCH (r:R) WHERE r.v IS :: INTEGER RETURN r.v AS v ORDER BY v").rows
    assert rows == [(3,), (None,)]
    assert db.execute("MATCH (r:R) WHERE r.v IS :: INTEGER NOT NULL RETURN r.v").rows == [(3,)]


def test_a_union_bar_does_not_swallow_a_comprehension_projection(db):
    assert one(db, "RETURN [x IN [1, 'a', 2] WHERE x :: INT | x * 10] AS r") == [10, 20]
    assert one(db, "RETURN [x IN [1, 'a'] WHERE x :: INT | toString(x)] AS r") == ["1"]


@pytest.mark.parametrize("expr, expected", [
    ("1", "INTEGER NOT NULL"), ("1.5", "FLOAT NOT NULL"), ("'a'", "STRING NOT NULL"),
    ("false", "BOOLEAN NOT NULL"), ("null", "NULL"), ("{a: 1}", "MAP NOT NULL"),
    ("[]", "LIST<NOTHING> NOT NULL"), ("[null]", "LIST<NULL> NOT NULL"),
    ("[1, 2]", "LIST<INTEGER NOT NULL> NOT NULL"), ("[1, null]", "LIST<INTEGER> NOT NULL"),
    ("[1, 'a', true]", "LIST<BOOLEAN NOT NULL | STRING NOT NULL | INTEGER NOT NULL> NOT NULL"),
    ("[[1]]", "LIST<LIST<INTEGER NOT NULL> NOT NULL> NOT NULL"),
    ("date('2020-02-02')", "DATE NOT NULL"), ("localtime('10:00')", "LOCAL TIME NOT NULL"),
    ("time('10:00Z')", "ZONED TIME NOT NULL"), ("localdatetime('2020-01-01T10:00')", "LOCAL DATETIME NOT NULL"),
    ("datetime('2020-01-01T10:00Z')", "ZONED DATETIME NOT NULL"), ("duration('P1D')", "DURATION NOT NULL"),
    ("point({x: 1, y: 2})", "POINT NOT NULL"),
])
def test_value_type(db, expr, expected):
    assert one(db, f"RETURN valueType({expr}) AS r") == expected


def test_value_type_of_graph_values(db):
    db.execute("CREATE (:A)-[:R]->(:B)")
    assert one(db, "MATCH p = (a)-[r]->() RETURN valueType(a), valueType(r), valueType(p)") == (
        "NODE NOT NULL", "RELATIONSHIP NOT NULL", "PATH NOT NULL")


@pytest.mark.parametrize("expr, expected", [
    ("'a' || 'b'", "ab"), ("'a' || null", None), ("null || [1]", None), ("[1] || [2, 3]", [1, 2, 3]),
    ("'a' || 'b' + 'c'", "abc"), ("[] || []", []),
])
def test_concatenation(db, expr, expected):
    assert one(db, f"RETURN {expr} AS r") == expected


def test_concatenation_of_mismatched_values_fails_at_run_time(db):
    e = fails(db, "UNWIND ['a', [1]] AS x WITH x, 'b' AS s RETURN s || x")
    assert (e.kind, e.phase) == ("InvalidArgumentType", "runtime")


@pytest.mark.parametrize("expr, expected", [
    ("trim(LEADING 'x' FROM 'xxaxx')", "axx"), ("trim(TRAILING 'x' FROM 'xxaxx')", "xxa"),
    ("trim(BOTH 'x' FROM 'xxaxx')", "a"), ("trim('x' FROM 'xxaxx')", "a"), ("trim(FROM '  a ')", "a"),
    ("trim(LEADING FROM '  a ')", "a "), ("trim(null)", None), ("trim(BOTH 'x' FROM null)", None),
    ("btrim('xyaxy', 'xy')", "a"), ("ltrim('00042', '0')", "42"), ("rtrim('a!!', '!')", "a"),
    ("lower('AbC')", "abc"), ("upper('AbC')", "ABC"), ("char_length('façade')", 6),
    ("character_length('')", 0), ("split('a-b_c', ['-', '_'])", ["a", "b", "c"]),
    ("normalize('A\\u030A') = '\\u00C5'", True), ("normalize('\\u00C5', NFD) = 'A\\u030A'", True),
    ("normalize('\\uFB01', nfkc)", "fi"), ("normalize(null, NFKD)", None),
    ("'A\\u030A' IS NORMALIZED", False), ("'A\\u030A' IS NFD NORMALIZED", True),
    ("'\\u00C5' IS NOT NFC NORMALIZED", False), ("null IS NOT NORMALIZED", None),
    ("nullIf(1, 1)", None), ("nullIf(1, 2)", 1), ("nullIf(null, null)", None), ("nullIf('a', null)", "a"),
    ("isEmpty('')", True), ("isEmpty({a: 1})", False),
])
def test_string_and_scalar_functions(db, expr, expected):
    assert one(db, f"RETURN {expr} AS r") == expected


@pytest.mark.parametrize("expr, expected", [
    ("round(-1.5)", -1.0), ("round(-1.5, 0)", -1.0), ("round(-1.55, 1)", -1.6), ("round(3.141592, 3)", 3.142),
    ("round(1.25, 1, 'UP')", 1.3), ("round(-1.35, 1, 'DOWN')", -1.3), ("round(-1.251, 1, 'CEILING')", -1.2),
    ("round(-1.35, 1, 'FLOOR')", -1.4), ("round(1.25, 1, 'HALF_DOWN')", 1.2), ("round(-1.35, 1, 'HALF_EVEN')", -1.4),
    ("round(-2.5, 0, 'HALF_UP')", -3.0), ("round(1234.5, -2)", 1200.0), ("round(3.14159, 2.0)", 3.14),
])
def test_round_follows_the_manual(db, expr, expected):
    assert one(db, f"RETURN {expr} AS r") == expected


def test_element_ids_are_distinct_strings_that_survive_a_restart(db, reopen):
    db.execute("CREATE (:A {k: 1})-[:R]->(:A {k: 2})")
    ids = one(db, "MATCH (a {k: 1})-[r]->(b) RETURN elementId(a), elementId(r), elementId(b)")
    assert len(set(ids)) == 3 and all(isinstance(i, str) for i in ids)
    assert ids[0] == "n0" and ids[1] == "r0" and ids[2] == "n1"  # the stable string ids (values/str_ids.py)
    db = reopen(db)
    assert one(db, "MATCH (n) WHERE elementId(n) = $id RETURN n.k", id=ids[1 - 1]) == 1
    assert one(db, "MATCH ()-[r]->() RETURN elementId(r)") == ids[1]
    assert one(db, "MATCH (n {k: 1}) RETURN id(n)") in (0, 1)  # id() is unchanged: an integer


def test_timestamp_is_one_value_per_statement(db):
    row = one(db, "UNWIND range(1, 50) AS i WITH collect(timestamp()) AS t RETURN size(t), t[0] = t[49], t[0]")
    assert row[:2] == (50, True) and isinstance(row[2], int) and row[2] > 1_600_000_000_000


def test_random_uuids_are_fresh(db):
    ids = one(db, "UNWIND range(1, 5) AS i RETURN collect(randomUUID()) AS ids")
    assert len(set(ids)) == 5 and all(len(i) == 36 and i.count("-") == 4 for i in ids)


@pytest.mark.parametrize("q, kind, offset", [
    ("RETURN 1 IS :: WHOLE NUMBER", "UnknownType", 15),
    ("RETURN 1 IS :: INTEGER NOT NULL | FLOAT", "InvalidTypeUnion", 15),
    ("RETURN 1 IS :: LIST", "UnknownType", 15),
    ("RETURN 1 IS :: INTEGER FLOAT", "UnknownType", 23),
    ("RETURN 1 IS :: ANY<INTEGER | STRING> NOT NULL", "InvalidTypeUnion", 15),
    ("RETURN normalize('a', NFX)", "UnknownNormalForm", 22),
    ("RETURN normalize('a', 'NFC')", "UnknownNormalForm", 22),
    ("RETURN 'a' IS NFZ NORMALIZED", "UnknownNormalForm", 14),
    ("RETURN {p} AS v", "RemovedParameterSyntax", 7),
    ("MATCH (n) WHERE exists(n.p) RETURN n", "RemovedPropertyExists", 16),
    ("RETURN length('abc')", "InvalidArgumentType", 14),
    ("RETURN length([1, 2])", "InvalidArgumentType", 14),
    ("RETURN 'a' || 1", "InvalidArgumentType", 14),
    ("RETURN [1] || 'a'", "InvalidArgumentType", 14),
    ("RETURN 1 IS NORMALIZED", "InvalidArgumentType", 7),
])
def test_refusals_are_typed_and_placed(db, q, kind, offset):
    e = fails(db, q)
    assert (e.kind, e.tck_type, e.phase) == (kind, "SyntaxError", "compile")
    assert e.position is not None and e.position.offset == offset


def test_exists_of_a_pattern_still_works(db):
    db.execute("CREATE (:A)-[:R]->(:B)")
    assert db.execute("MATCH (a:A) WHERE exists((a)-->()) RETURN count(*)").rows == [(1,)]
