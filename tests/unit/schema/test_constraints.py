"""Constraints on every store kind: enforced on each write (the statement fails whole, typed,
naming the constraint), checked against existing data when created, durable across a reopen,
counted, listed by SHOW CONSTRAINTS / SHOW INDEXES, and visible to get_schema."""
from __future__ import annotations

import pytest

from relate.errors import RelateError


def fails(db, text, kind, params=None):
    with pytest.raises(RelateError) as info:
        db.execute(text, params)
    assert info.value.kind == kind, str(info.value)
    return info.value


def count(db, text):
    return db.execute(text).rows[0][0]


def test_unique_constraint_survives_reopen_and_is_enforced(db, reopen):
    r = db.execute("CREATE CONSTRAINT team_code FOR (t:Team) REQUIRE t.code IS UNIQUE")
    assert (r.stats.constraints_added, r.stats.indexes_added) == (1, 0)
    db.execute("CREATE (:Team {code: 'RED'})")
    db = reopen(db)
    err = fails(db, "CREATE (:Team {code: 'RED'})", "UniquenessConstraintViolation")
    assert err.tck_type == "ConstraintValidationFailed" and "team_code" in str(err)
    assert count(db, "MATCH (t:Team) RETURN count(t)") == 1
    fails(db, "UNWIND ['a', 'b', 'a'] AS c CREATE (:Team {code: c})", "UniquenessConstraintViolation")
    assert count(db, "MATCH (t:Team) RETURN count(t)") == 1          # nothing of the statement stayed
    fails(db, "CREATE (:Draft {code: 'RED'}) WITH 1 AS x MATCH (d:Draft) SET d:Team",
          "UniquenessConstraintViolation")
    assert count(db, "MATCH (d:Draft) RETURN count(d)") == 0
    assert db.execute("CREATE (:Team {code: 1}), (:Team {code: 2})").stats.nodes_created == 2
    fails(db, "CREATE (:Team {code: 1.0})", "UniquenessConstraintViolation")   # 1 = 1.0
    db = reopen(db)
    rows = db.execute("SHOW CONSTRAINTS YIELD name, type, ownedIndex").rows
    assert rows == [("team_code", "UNIQUENESS", "team_code")]
    assert db.execute("SHOW INDEXES YIELD name, owningConstraint").rows == [("team_code", "team_code")]
    r = db.execute("DROP CONSTRAINT team_code")
    assert r.stats.constraints_removed == 1
    db = reopen(db)
    assert db.execute("SHOW INDEXES").rows == [] and db.execute("SHOW CONSTRAINTS").rows == []
    assert db.execute("CREATE (:Team {code: 'RED'})").stats.nodes_created == 1


def test_existence_key_and_type_constraints_after_reopen(db, reopen):
    db.execute("CREATE CONSTRAINT pilot_licence FOR (p:Pilot) REQUIRE p.licence IS NOT NULL")
    db.execute("CREATE CONSTRAINT flight_key FOR (f:Flight) REQUIRE (f.carrier, f.number) IS NODE KEY")
    db.execute("CREATE CONSTRAINT sensor FOR (s:Sensor) REQUIRE s.reading IS :: FLOAT | LIST<FLOAT NOT NULL>")
    db.execute("CREATE CONSTRAINT rated FOR ()-[r:RATED]-() REQUIRE r.score IS NOT NULL")
    db.execute("CREATE CONSTRAINT booked FOR ()-[b:BOOKED]-() REQUIRE b.code IS RELATIONSHIP KEY")
    db = reopen(db)
    fails(db, "CREATE (:Pilot {name: 'Ada'})", "ExistenceConstraintViolation")
    db.execute("CREATE (p:Pilot {name: 'Grace'}) SET p.licence = 'L-1'")     # checked at the end
    fails(db, "MATCH (p:Pilot) REMOVE p.licence", "ExistenceConstraintViolation")
    fails(db, "MATCH (p:Pilot) SET p.licence = null", "ExistenceConstraintViolation")
    fails(db, "CREATE (:Flight {carrier: 'SK'})", "ExistenceConstraintViolation")
    db.execute("CREATE (:Flight {carrier: 'SK', number: 1}), (:Flight {carrier: 'SK', number: 2})")
    fails(db, "CREATE (:Flight {number: 1, carrier: 'SK'})", "UniquenessConstraintViolation")
    fails(db, "MATCH (f:Flight {number: 2}) SET f.number = 1", "UniquenessConstraintViolation")
    fails(db, "CREATE (:Sensor {reading: 20})", "TypeConstraintViolation")
    fails(db, "CREATE (:Sensor {reading: [1.5, 2]})", "TypeConstraintViolation")
    db.execute("CREATE (:Sensor {reading: 2.5}), (:Sensor {reading: [1.5]}), (:Sensor {site: 'roof'})")
    fails(db, "CREATE (:Critic)-[:RATED]->(:Film)", "ExistenceConstraintViolation")
    db.execute("CREATE (:Critic)-[:RATED {score: 4}]->(:Film)")
    fails(db, "MATCH ()-[r:RATED]->() REMOVE r.score", "ExistenceConstraintViolation")
    db.execute("CREATE (:Guest)-[:BOOKED {code: 'x'}]->(:Room)")
    fails(db, "MATCH (g:Guest), (r:Room) CREATE (g)-[:BOOKED {code: 'x'}]->(r)", "UniquenessConstraintViolation")
    fails(db, "MATCH (g:Guest), (r:Room) CREATE (g)-[:BOOKED]->(r)", "ExistenceConstraintViolation")
    db = reopen(db)
    assert count(db, "MATCH (n) RETURN count(n)") == 10
    rows = db.execute("SHOW CONSTRAINTS YIELD name, type, propertyType ORDER BY name").rows
    assert rows == [("booked", "RELATIONSHIP_KEY", None), ("flight_key", "NODE_KEY", None),
                    ("pilot_licence", "NODE_PROPERTY_EXISTENCE", None),
                    ("rated", "RELATIONSHIP_PROPERTY_EXISTENCE", None),
                    ("sensor", "NODE_PROPERTY_TYPE", "FLOAT | LIST<FLOAT NOT NULL>")]


def test_creation_checks_existing_data(db):
    db.execute("CREATE (:Badge {serial: 7}), (:Badge {serial: 7}), (:Pilot {name: 'A'}), (:Sensor {r: 'x'})")
    fails(db, "CREATE CONSTRAINT FOR (b:Badge) REQUIRE b.serial IS UNIQUE", "ConstraintCreationFailed")
    fails(db, "CREATE CONSTRAINT FOR (b:Badge) REQUIRE b.serial IS NODE KEY", "ConstraintCreationFailed")
    fails(db, "CREATE CONSTRAINT FOR (p:Pilot) REQUIRE p.licence IS NOT NULL", "ConstraintCreationFailed")
    fails(db, "CREATE CONSTRAINT FOR (s:Sensor) REQUIRE s.r IS :: INTEGER", "ConstraintCreationFailed")
    assert db.execute("SHOW CONSTRAINTS").rows == [] and db.execute("SHOW INDEXES").rows == []
    r = db.execute("CREATE CONSTRAINT FOR (s:Sensor) REQUIRE s.r IS :: STRING")
    assert r.stats.constraints_added == 1


def test_ddl_refusals_and_if_not_exists(db):
    db.execute("CREATE CONSTRAINT ident FOR (t:Team) REQUIRE t.code IS UNIQUE")
    db.execute("CREATE INDEX by_name FOR (c:City) ON (c.name)")
    fails(db, "CREATE CONSTRAINT ident FOR (t:Team) REQUIRE t.code IS UNIQUE", "EquivalentSchemaRuleAlreadyExists")
    fails(db, "CREATE CONSTRAINT ident FOR (c:Club) REQUIRE c.code IS UNIQUE", "ConstraintWithNameAlreadyExists")
    fails(db, "CREATE CONSTRAINT other FOR (t:Team) REQUIRE t.code IS NODE KEY", "ConstraintAlreadyExists")
    fails(db, "CREATE CONSTRAINT by_name FOR (t:Team) REQUIRE t.x IS UNIQUE", "IndexWithNameAlreadyExists")
    fails(db, "CREATE CONSTRAINT FOR (c:City) REQUIRE c.name IS UNIQUE", "IndexAlreadyExists")
    fails(db, "CREATE INDEX ident FOR (r:River) ON (r.name)", "ConstraintWithNameAlreadyExists")
    fails(db, "CREATE INDEX FOR (t:Team) ON (t.code)", "IndexAlreadyExists")
    fails(db, "DROP INDEX ident", "IndexDropFailed")
    fails(db, "DROP CONSTRAINT nope", "ConstraintDropFailed")
    fails(db, "CREATE CONSTRAINT $n FOR (x:X) REQUIRE x.k IS UNIQUE", "InvalidSchemaName", {"n": 3})
    for text in ("CREATE CONSTRAINT ident IF NOT EXISTS FOR (c:Club) REQUIRE c.code IS UNIQUE",
                 "CREATE CONSTRAINT other IF NOT EXISTS FOR (t:Team) REQUIRE t.code IS UNIQUE",
                 "DROP CONSTRAINT nope IF EXISTS"):
        s = db.execute(text).stats
        assert (s.constraints_added, s.constraints_removed) == (0, 0)
    r = db.execute("CREATE CONSTRAINT $n FOR (t:Team) REQUIRE t.code IS NOT NULL", {"n": "present"})
    assert r.stats.constraints_added == 1
    assert db.execute("DROP CONSTRAINT $n", {"n": "present"}).stats.constraints_removed == 1


def test_a_failed_statement_in_a_transaction_block_keeps_the_earlier_ones(db):
    db.execute("CREATE CONSTRAINT FOR (t:Team) REQUIRE t.code IS UNIQUE")
    with db.transaction():
        db.execute("CREATE (:Team {code: 'a'})")
        with pytest.raises(RelateError):
            db.execute("CREATE (:Team {code: 'a'})")
        db.execute("CREATE (:Team {code: 'b'})")
    assert db.execute("MATCH (t:Team) RETURN t.code ORDER BY t.code").rows == [("a",), ("b",)]


def test_merge_matches_the_unique_node(db):
    db.execute("CREATE CONSTRAINT FOR (p:Product) REQUIRE p.sku IS UNIQUE")
    db.execute("CREATE (:Product {sku: 'k9', stock: 3})")
    r = db.execute("MERGE (p:Product {sku: 'k9'}) RETURN p.stock AS stock")
    assert r.rows == [(3,)] and r.stats.nodes_created == 0


def test_get_schema_shows_constraints_only_when_there_are_some(db):
    db.execute("CREATE (:P {name: 'a', age: 3})-[:K {since: 1}]->(:P {name: 'b'})")
    plain = db.schema()
    assert plain["P"]["properties"] == {"name": {"type": "String"}, "age": {"type": "Integer"}}
    db.execute("CREATE INDEX FOR (p:P) ON (p.age)")
    assert db.schema() == plain                                   # an index alone changes nothing
    db.execute("CREATE CONSTRAINT FOR (p:P) REQUIRE p.name IS UNIQUE")
    db.execute("CREATE CONSTRAINT FOR ()-[k:K]-() REQUIRE k.since IS NOT NULL")
    s = db.schema()
    assert s["P"]["properties"]["name"] == {"type": "String", "unique": True}
    assert s["P"]["relationships"]["K"]["properties"]["since"] == {"type": "Integer", "existence": True}


def test_stored_rows_keep_the_old_shape_and_snapshots_carry_the_new_kinds(tmp_path):
    import relate
    from relate.storage.copy import clone_store
    from relate.storage.schema_defs import (ConstraintDef, ConstraintKind, IndexDef, constraint_from_row,
                                            constraint_row, index_from_row, index_row)
    assert index_row(IndexDef("i", "L", "k")) == ["i", "L", "k"]                 # as the first stores wrote it
    assert constraint_row(ConstraintDef("c", ConstraintKind.KEY, "L", ("a", "b"))) == ["c", "key", "L", ["a", "b"]]
    for d in (IndexDef("r", "T", "k", "POINT", "RELATIONSHIP"),
              IndexDef("f", "A", "x", "FULLTEXT", "NODE", ("y",), ("B",))):
        assert index_from_row(index_row(d)) == d
    c = ConstraintDef("t", ConstraintKind.TYPE, "T", ("k",), "RELATIONSHIP", "INTEGER")
    assert constraint_from_row(constraint_row(c)) == c
    src = str(tmp_path / "src")
    db = relate.connect(src)
    db.execute("CREATE (:A {k: 1})-[:T {k: 2}]->(:A {k: 3})")
    db.execute("CREATE INDEX t_w FOR ()-[r:T]-() ON (r.w)")
    db.execute("CREATE CONSTRAINT t_u FOR ()-[r:T]-() REQUIRE r.k IS UNIQUE")
    db.close()
    clone_store(src, str(tmp_path / "copy.rl"))
    copy = relate.connect(str(tmp_path / "copy.rl"))
    assert copy.execute("SHOW INDEXES YIELD name, owningConstraint").rows == [("t_u", "t_u"), ("t_w", None)]
    with pytest.raises(RelateError):
        copy.execute("MATCH (a {k: 1}), (b {k: 3}) CREATE (b)-[:T {k: 2}]->(a)")
    assert copy.execute("MATCH ()-[r:T {k: 2}]->() RETURN count(r)").rows == [(1,)]
