"""Valid Neo4j 5 commands relate does not serve, and Neo4j Browser's `:` commands: refused as
`UnsupportedClause`, naming the construct, at its first word (never "unexpected token")."""
from __future__ import annotations

import pytest

from relate.errors import CypherSyntaxError

# statement, the construct the message names, the text the error points at
REFUSED = [
    ("CREATE DATABASE sales", "CREATE DATABASE", "CREATE"),
    ("CREATE DATABASE sales IF NOT EXISTS", "CREATE DATABASE", "CREATE"),
    ("CREATE OR REPLACE DATABASE sales", "CREATE DATABASE", "CREATE"),
    ("CREATE COMPOSITE DATABASE both", "CREATE COMPOSITE DATABASE", "CREATE"),
    ("DROP DATABASE sales", "DROP DATABASE", "DROP"),
    ("ALTER DATABASE sales SET ACCESS READ ONLY", "ALTER DATABASE", "ALTER"),
    ("START DATABASE sales", "START DATABASE", "START"),
    ("STOP DATABASE sales", "STOP DATABASE", "STOP"),
    ("CREATE ALIAS shop FOR DATABASE sales", "CREATE ALIAS", "CREATE"),
    ("DROP ALIAS shop FOR DATABASE", "DROP ALIAS", "DROP"),
    ("CREATE USER alice SET PASSWORD 'secret'", "CREATE USER", "CREATE"),
    ("DROP USER alice", "DROP USER", "DROP"),
    ("ALTER USER alice SET PASSWORD 'other'", "ALTER USER", "ALTER"),
    ("ALTER CURRENT USER SET PASSWORD FROM 'a' TO 'b'", "ALTER CURRENT USER", "ALTER"),
    ("RENAME USER alice TO ada", "RENAME USER", "RENAME"),
    ("CREATE ROLE reader", "CREATE ROLE", "CREATE"),
    ("DROP ROLE reader", "DROP ROLE", "DROP"),
    ("GRANT ROLE reader TO alice", "GRANT", "GRANT"),
    ("GRANT MATCH {*} ON GRAPH * TO reader", "GRANT", "GRANT"),
    ("DENY WRITE ON GRAPH * TO reader", "DENY", "DENY"),
    ("REVOKE ROLE reader FROM alice", "REVOKE", "REVOKE"),
    ("ENABLE SERVER 'abc'", "ENABLE SERVER", "ENABLE"),
    ("SHOW DATABASES", "SHOW DATABASES", "SHOW"),
    ("SHOW DATABASE sales", "SHOW DATABASES", "SHOW"),
    ("SHOW DEFAULT DATABASE", "SHOW DATABASES", "SHOW"),
    ("SHOW USERS", "SHOW USERS", "SHOW"),
    ("SHOW CURRENT USER", "SHOW CURRENT USER", "SHOW"),
    ("SHOW ROLES", "SHOW ROLES", "SHOW"),
    ("SHOW ALL ROLES", "SHOW ROLES", "SHOW"),
    ("SHOW PRIVILEGES", "SHOW PRIVILEGES", "SHOW"),
    ("SHOW ROLE reader PRIVILEGES", "SHOW PRIVILEGES", "SHOW"),
    ("SHOW PROCEDURES", "SHOW PROCEDURES", "SHOW"),
    ("SHOW PROCEDURES YIELD name", "SHOW PROCEDURES", "SHOW"),
    ("SHOW FUNCTIONS", "SHOW FUNCTIONS", "SHOW"),
    ("SHOW BUILT IN FUNCTIONS", "SHOW FUNCTIONS", "SHOW"),
    ("SHOW USER DEFINED FUNCTIONS", "SHOW FUNCTIONS", "SHOW"),
    ("SHOW TRANSACTIONS", "SHOW TRANSACTIONS", "SHOW"),
    ("SHOW SETTINGS", "SHOW SETTINGS", "SHOW"),
    ("SHOW SERVERS", "SHOW SERVERS", "SHOW"),
    ("SHOW ALIASES", "SHOW ALIASES", "SHOW"),
    ("TERMINATE TRANSACTIONS 'neo4j-transaction-3'", "TERMINATE TRANSACTIONS", "TERMINATE"),
    ("USE sales MATCH (n) RETURN n", "USE", "USE"),
    ("USE `my graph` RETURN 1", "USE", "USE"),
    ("MATCH (n) RETURN n UNION USE sales RETURN 1 AS n", "USE", "USE sales RETURN"),
    ("CALL { USE sales MATCH (n) RETURN n } RETURN n", "USE", "USE sales MATCH"),
    ("EXPLAIN SHOW DATABASES", "SHOW DATABASES", "SHOW"),
    ("  // a comment first\n  show databases", "SHOW DATABASES", "show"),
]


@pytest.mark.parametrize("statement,construct,at", REFUSED, ids=[r[0] for r in REFUSED])
def test_refused_as_unsupported_naming_the_construct(db, statement, construct, at):
    with pytest.raises(CypherSyntaxError) as e:
        db.execute(statement)
    assert e.value.kind == "UnsupportedClause"
    assert e.value.message.startswith(f"syntax error: UnsupportedClause: {construct} is not supported by relate: ")
    assert statement[e.value.position.offset:].startswith(at)


@pytest.mark.parametrize("command,advice", [
    (":param name => 'Ada'", "--param NAME=VALUE"),
    (":params {name: 'Ada'}", "--param NAME=VALUE"),
    (":use sales", "one graph per store"),
    (":help", "run Cypher statements only"),
])
def test_client_commands_are_named(db, command, advice):
    with pytest.raises(CypherSyntaxError) as e:
        db.execute(command)
    assert e.value.kind == "UnsupportedClause"
    word = command.split()[0]
    assert e.value.message.startswith(
        f"syntax error: UnsupportedClause: {word} is a command of Neo4j Browser and cypher-shell, not Cypher: ")
    assert advice in e.value.message
    assert e.value.position.offset == 0


@pytest.mark.parametrize("statement", [
    "CREATE user = (a) RETURN user",  # a path named user
    "CREATE (database:Database) RETURN database",
    "MATCH (use) RETURN use",
    "WITH 1 AS grant RETURN grant",
])
def test_the_same_words_as_cypher_still_run(db, statement):
    db.execute(statement)


@pytest.mark.parametrize("statement", [
    "SHOW INDEXES WHERE",  # relate's own SHOW, malformed
    "SHOW",
    "DROP",
    "use = 1",
    "CREATE user = (a RETURN user",
])
def test_broken_cypher_stays_a_parse_error(db, statement):
    with pytest.raises(CypherSyntaxError) as e:
        db.execute(statement)
    assert e.value.kind == "ParseError"


def test_refused_statement_changes_nothing(db):
    with pytest.raises(CypherSyntaxError):
        db.execute("CREATE DATABASE sales")
    assert db.execute("MATCH (n) RETURN count(n) AS n").fetchall() == [(0,)]
