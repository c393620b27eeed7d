"""Malformed relationship lengths and number literals: their own kinds (as openCypher's TCK names
them), raised before anything runs, pointing at the mistake rather than at a later token."""
from __future__ import annotations

import pytest

from relate.errors import CypherSyntaxError

# statement, kind, the text at the offset the error points to
CASES = [
    ("MATCH (a)-[:R..]->(b) RETURN a", "InvalidRelationshipPattern", "..]->(b)"),
    ("MATCH (a)-[*-2]->(b) RETURN a", "InvalidRelationshipPattern", "-2]"),
    ("MATCH (a)-[*..-1]->(b) RETURN a", "InvalidRelationshipPattern", "-1]"),
    ("MATCH (a)-[:R*1..2..3]->(b) RETURN a", "InvalidRelationshipPattern", "..3]"),
    ("MATCH (a)<-[r:R *1..2..]-(b) RETURN a", "InvalidRelationshipPattern", "..]"),
    ("RETURN 1e", "InvalidNumberLiteral", "1e"),
    ("RETURN 9223372h54775808 AS literal", "InvalidNumberLiteral", "9223372h54775808 AS"),
    ("RETURN 1_000", "InvalidNumberLiteral", "1_000"),
    ("RETURN [1.]", "InvalidNumberLiteral", "1.]"),
    ("RETURN 0x", "InvalidNumberLiteral", "0x"),
    ("RETURN 0o8", "InvalidNumberLiteral", "0o8"),
    ("RETURN 9223372036854775808", "IntegerOverflow", "9223372036854775808"),
    ("RETURN 1e999", "FloatingPointOverflow", "1e999"),
]


@pytest.mark.parametrize("query,kind,at", CASES)
def test_malformed_token_gets_its_kind_at_its_position(db, query, kind, at):
    with pytest.raises(CypherSyntaxError) as e:
        db.execute(query)
    assert e.value.kind == kind
    assert query[e.value.position.offset:].startswith(at)


@pytest.mark.parametrize("query", [
    "MATCH (a)-[r:R*1..2 WHERE r.x = ]->(b) RETURN a",  # the mistake is in the expression
    "RETURN 1 e",  # a word after a number, not glued to it
    "RETURN [1..2]",
])
def test_other_mistakes_near_numbers_stay_parse_errors(db, query):
    with pytest.raises(CypherSyntaxError) as e:
        db.execute(query)
    assert e.value.kind == "ParseError"


def test_well_formed_lengths_and_numbers_still_run(db):
    rows = db.execute("MATCH (a)-[:R*1..2]->(b) RETURN count(*) AS n").cypher_rows
    assert rows == [(0,)]
    assert db.execute("RETURN 1.5e3 AS x, .5 AS y, 0x1F AS z, 0o17 AS w").cypher_rows == [(1500.0, 0.5, 31, 15)]
