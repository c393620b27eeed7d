#encoding: utf-8
# Neo4j 5 constraints: CREATE / DROP / SHOW CONSTRAINTS, enforced on every write, checked
# against existing data at creation, counted in constraints_added / constraints_removed.
# Written for relate from the documented behaviour of the Neo4j 5 Cypher manual; the graphs,
# names and values are our own.
# Ambiguity: the manual for 5.x lists a node uniqueness constraint's type as 'UNIQUENESS' (later
# manuals, Cypher 25, say 'NODE_PROPERTY_UNIQUENESS'); these cases follow the 5.x pages.

Feature: Constraints

  @constraint-unique
  Scenario: Creating a named node uniqueness constraint counts one constraint
    Given an empty graph
    When executing query:
      """
      CREATE CONSTRAINT team_code FOR (t:Team) REQUIRE t.code IS UNIQUE
      """
    Then the result should be empty
    And the side effects should be:
      | +constraints | 1 |

  @constraint-unique
  Scenario: A second node with the same unique value is refused
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT team_code FOR (t:Team) REQUIRE t.code IS UNIQUE
      """
    And having executed:
      """
      CREATE (:Team {code: 'RED'})
      """
    When executing query:
      """
      CREATE (:Team {code: 'RED'})
      """
    Then a ConstraintValidationFailed should be raised at runtime: *

  @constraint-unique
  Scenario: Nodes without the constrained property are not subject to uniqueness
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT team_code FOR (t:Team) REQUIRE t.code IS UNIQUE
      """
    When executing query:
      """
      CREATE (:Team {town: 'Oslo'}), (:Team {town: 'Oslo'})
      """
    Then the result should be empty
    And the side effects should be:
      | +nodes      | 2 |
      | +labels     | 1 |
      | +properties | 2 |

  @constraint-unique
  Scenario: The same value under another label does not conflict
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT team_code FOR (t:Team) REQUIRE t.code IS UNIQUE
      """
    And having executed:
      """
      CREATE (:Team {code: 'BLUE'})
      """
    When executing query:
      """
      CREATE (c:Club {code: 'BLUE'})
      RETURN c.code AS code
      """
    Then the result should be, in any order:
      | code   |
      | 'BLUE' |
    And the side effects should be:
      | +nodes      | 1 |
      | +labels     | 1 |
      | +properties | 1 |

  @constraint-unique
  Scenario: SET that duplicates a unique value is refused and nothing changes
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT team_code FOR (t:Team) REQUIRE t.code IS UNIQUE
      """
    And having executed:
      """
      CREATE (:Team {code: 'A1'}), (:Team {code: 'B2'})
      """
    When executing query:
      """
      MATCH (t:Team {code: 'B2'})
      SET t.code = 'A1'
      """
    Then a ConstraintValidationFailed should be raised at runtime: *

  @constraint-unique
  Scenario: Adding the label to a node with a taken value is refused
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT team_code FOR (t:Team) REQUIRE t.code IS UNIQUE
      """
    And having executed:
      """
      CREATE (:Team {code: 'Q'}), (:Draft {code: 'Q'})
      """
    When executing query:
      """
      MATCH (d:Draft)
      SET d:Team
      """
    Then a ConstraintValidationFailed should be raised at runtime: *

  @constraint-unique
  Scenario: A violation in the last row of a CREATE rolls back the whole statement
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT sku_unique FOR (p:Product) REQUIRE p.sku IS UNIQUE
      """
    When executing query:
      """
      UNWIND ['s1', 's2', 's3', 's1'] AS s
      CREATE (:Product {sku: s})
      """
    Then a ConstraintValidationFailed should be raised at runtime: *

  @constraint-unique
  Scenario: MERGE on the unique property matches the existing node instead of failing
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT sku_unique FOR (p:Product) REQUIRE p.sku IS UNIQUE
      """
    And having executed:
      """
      CREATE (:Product {sku: 'k9', stock: 3})
      """
    When executing query:
      """
      MERGE (p:Product {sku: 'k9'})
      RETURN p.stock AS stock
      """
    Then the result should be, in any order:
      | stock |
      | 3     |
    And no side effects

  @constraint-unique
  Scenario: Creating a uniqueness constraint over duplicated data fails and adds nothing
    Given an empty graph
    And having executed:
      """
      CREATE (:Badge {serial: 7}), (:Badge {serial: 7})
      """
    When executing query:
      """
      CREATE CONSTRAINT badge_serial FOR (b:Badge) REQUIRE b.serial IS UNIQUE
      """
    Then a ConstraintCreationFailed should be raised at any time: *

  @constraint-unique
  Scenario: After a failed creation no constraint is listed
    Given an empty graph
    And having executed:
      """
      CREATE (:Badge {serial: 7}), (:Badge {serial: 7})
      """
    When executing query:
      """
      SHOW CONSTRAINTS YIELD name
      RETURN name
      """
    Then the result should be, in any order:
      | name |
    And no side effects

  @constraint-unique
  Scenario: Composite uniqueness allows a shared first property
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT seat_unique FOR (s:Seat) REQUIRE (s.row, s.num) IS UNIQUE
      """
    And having executed:
      """
      CREATE (:Seat {row: 'F', num: 1})
      """
    When executing query:
      """
      CREATE (:Seat {row: 'F', num: 2})
      """
    Then the result should be empty
    And the side effects should be:
      | +nodes      | 1 |
      | +properties | 2 |

  @constraint-unique
  Scenario: Composite uniqueness refuses the same combination
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT seat_unique FOR (s:Seat) REQUIRE (s.row, s.num) IS UNIQUE
      """
    And having executed:
      """
      CREATE (:Seat {row: 'F', num: 1})
      """
    When executing query:
      """
      CREATE (:Seat {num: 1, row: 'F'})
      """
    Then a ConstraintValidationFailed should be raised at runtime: *

  @constraint-unique
  Scenario: Composite uniqueness ignores nodes that lack one of the properties
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT seat_unique FOR (s:Seat) REQUIRE (s.row, s.num) IS UNIQUE
      """
    And having executed:
      """
      CREATE (:Seat {row: 'G'})
      """
    When executing query:
      """
      CREATE (:Seat {row: 'G'})
      """
    Then the result should be empty
    And the side effects should be:
      | +nodes      | 1 |
      | +properties | 1 |

  @constraint-unique
  Scenario: Relationship uniqueness refuses a second relationship with the same value
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT payment_ref FOR ()-[p:PAID]-() REQUIRE p.ref IS UNIQUE
      """
    And having executed:
      """
      CREATE (:Acct {n: 1})-[:PAID {ref: 'tx-1'}]->(:Acct {n: 2})
      """
    When executing query:
      """
      MATCH (a:Acct {n: 2}), (b:Acct {n: 1})
      CREATE (a)-[:PAID {ref: 'tx-1'}]->(b)
      """
    Then a ConstraintValidationFailed should be raised at runtime: *

  @constraint-unique
  Scenario: Relationship uniqueness allows the value on another relationship type
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT payment_ref FOR ()-[p:PAID]-() REQUIRE p.ref IS UNIQUE
      """
    And having executed:
      """
      CREATE (:Acct {n: 1})-[:PAID {ref: 'tx-1'}]->(:Acct {n: 2})
      """
    When executing query:
      """
      MATCH (a:Acct {n: 2}), (b:Acct {n: 1})
      CREATE (a)-[r:REFUNDED {ref: 'tx-1'}]->(b)
      RETURN type(r) AS t
      """
    Then the result should be, in any order:
      | t          |
      | 'REFUNDED' |
    And the side effects should be:
      | +relationships | 1 |
      | +properties    | 1 |

  @constraint-existence
  Scenario: A node property existence constraint refuses a node without the property
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT pilot_licence FOR (p:Pilot) REQUIRE p.licence IS NOT NULL
      """
    When executing query:
      """
      CREATE (:Pilot {name: 'Ada'})
      """
    Then a ConstraintValidationFailed should be raised at runtime: *

  @constraint-existence
  Scenario: Removing a required property is refused
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT pilot_licence FOR (p:Pilot) REQUIRE p.licence IS NOT NULL
      """
    And having executed:
      """
      CREATE (:Pilot {name: 'Ada', licence: 'L-77'})
      """
    When executing query:
      """
      MATCH (p:Pilot)
      REMOVE p.licence
      """
    Then a ConstraintValidationFailed should be raised at runtime: *

  @constraint-existence
  Scenario: Setting a required property to null is refused
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT pilot_licence FOR (p:Pilot) REQUIRE p.licence IS NOT NULL
      """
    And having executed:
      """
      CREATE (:Pilot {name: 'Ada', licence: 'L-77'})
      """
    When executing query:
      """
      MATCH (p:Pilot)
      SET p.licence = null
      """
    Then a ConstraintValidationFailed should be raised at runtime: *

  @constraint-existence
  Scenario: Existence is checked when the statement commits, so a later SET satisfies it
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT pilot_licence FOR (p:Pilot) REQUIRE p.licence IS NOT NULL
      """
    When executing query:
      """
      CREATE (p:Pilot {name: 'Grace'})
      SET p.licence = 'L-01'
      RETURN p.licence AS licence
      """
    Then the result should be, in any order:
      | licence |
      | 'L-01'  |
    And the side effects should be:
      | +nodes      | 1 |
      | +labels     | 1 |
      | +properties | 2 |

  @constraint-existence
  Scenario: An existence constraint over nodes that lack the property cannot be created
    Given an empty graph
    And having executed:
      """
      CREATE (:Pilot {name: 'Ada'})
      """
    When executing query:
      """
      CREATE CONSTRAINT pilot_licence FOR (p:Pilot) REQUIRE p.licence IS NOT NULL
      """
    Then a ConstraintCreationFailed should be raised at any time: *

  @constraint-existence
  Scenario: A relationship property existence constraint refuses a relationship without it
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT rated_score FOR ()-[r:RATED]-() REQUIRE r.score IS NOT NULL
      """
    When executing query:
      """
      CREATE (:Critic)-[:RATED]->(:Film)
      """
    Then a ConstraintValidationFailed should be raised at runtime: *

  @constraint-existence
  Scenario: A relationship existence constraint lets a relationship with the property in
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT rated_score FOR ()-[r:RATED]-() REQUIRE r.score IS NOT NULL
      """
    When executing query:
      """
      CREATE (:Critic)-[r:RATED {score: 4}]->(:Film)
      RETURN r.score AS score
      """
    Then the result should be, in any order:
      | score |
      | 4     |
    And the side effects should be:
      | +nodes         | 2 |
      | +relationships | 1 |
      | +labels        | 2 |
      | +properties    | 1 |

  @constraint-key
  Scenario: A node key refuses a node missing one of the key properties
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT flight_key FOR (f:Flight) REQUIRE (f.carrier, f.number) IS NODE KEY
      """
    When executing query:
      """
      CREATE (:Flight {carrier: 'SK'})
      """
    Then a ConstraintValidationFailed should be raised at runtime: *

  @constraint-key
  Scenario: A node key refuses a repeated key
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT flight_key FOR (f:Flight) REQUIRE (f.carrier, f.number) IS NODE KEY
      """
    And having executed:
      """
      CREATE (:Flight {carrier: 'SK', number: 1467})
      """
    When executing query:
      """
      CREATE (:Flight {carrier: 'SK', number: 1467, gate: 'B4'})
      """
    Then a ConstraintValidationFailed should be raised at runtime: *

  @constraint-key
  Scenario: A node key accepts distinct complete keys
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT flight_key FOR (f:Flight) REQUIRE (f.carrier, f.number) IS NODE KEY
      """
    When executing query:
      """
      UNWIND [['SK', 1], ['SK', 2], ['DY', 1]] AS k
      CREATE (f:Flight {carrier: k[0], number: k[1]})
      RETURN count(f) AS made
      """
    Then the result should be, in any order:
      | made |
      | 3    |
    And the side effects should be:
      | +nodes      | 3 |
      | +labels     | 1 |
      | +properties | 6 |

  @constraint-key
  Scenario: A relationship key refuses a relationship missing its key
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT booking_key FOR ()-[b:BOOKED]-() REQUIRE b.code IS RELATIONSHIP KEY
      """
    When executing query:
      """
      CREATE (:Guest)-[:BOOKED {nights: 2}]->(:Room)
      """
    Then a ConstraintValidationFailed should be raised at runtime: *

  @constraint-type
  Scenario: A property type constraint refuses a value of another type
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT sensor_reading FOR (s:Sensor) REQUIRE s.reading IS :: FLOAT
      """
    When executing query:
      """
      CREATE (:Sensor {reading: '21.5'})
      """
    Then a ConstraintValidationFailed should be raised at runtime: *

  @constraint-type
  Scenario: A property type constraint allows the property to be absent
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT sensor_reading FOR (s:Sensor) REQUIRE s.reading IS :: FLOAT
      """
    When executing query:
      """
      CREATE (s:Sensor {site: 'roof'}), (t:Sensor {reading: 19.25})
      RETURN t.reading AS r
      """
    Then the result should be, in any order:
      | r     |
      | 19.25 |
    And the side effects should be:
      | +nodes      | 2 |
      | +labels     | 1 |
      | +properties | 2 |

  @constraint-type
  Scenario: An integer is not a FLOAT for a property type constraint
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT sensor_reading FOR (s:Sensor) REQUIRE s.reading IS :: FLOAT
      """
    When executing query:
      """
      CREATE (:Sensor {reading: 20})
      """
    Then a ConstraintValidationFailed should be raised at runtime: *

  @constraint-type
  Scenario: IS TYPED is a synonym of IS :: in a property type constraint
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT part_qty FOR (p:Part) REQUIRE p.qty IS TYPED INTEGER
      """
    And having executed:
      """
      CREATE (:Part {qty: 4})
      """
    When executing query:
      """
      MATCH (p:Part)
      SET p.qty = 1.5
      """
    Then a ConstraintValidationFailed should be raised at runtime: *

  @constraint-type
  Scenario: A union type constraint accepts each member type
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT part_size FOR (p:Part) REQUIRE p.size IS :: INTEGER | LIST<INTEGER NOT NULL>
      """
    When executing query:
      """
      CREATE (:Part {size: 8}), (:Part {size: [4, 6]})
      """
    Then the result should be empty
    And the side effects should be:
      | +nodes      | 2 |
      | +labels     | 1 |
      | +properties | 2 |

  @constraint-type
  Scenario: A relationship property type constraint refuses a mistyped SET
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT link_weight FOR ()-[l:LINK]-() REQUIRE l.weight IS :: INTEGER
      """
    And having executed:
      """
      CREATE (:Hub)-[:LINK {weight: 3}]->(:Hub)
      """
    When executing query:
      """
      MATCH ()-[l:LINK]->()
      SET l.weight = 'heavy'
      """
    Then a ConstraintValidationFailed should be raised at runtime: *

  @constraint-type
  Scenario: A property type constraint over data of another type cannot be created
    Given an empty graph
    And having executed:
      """
      CREATE (:Sensor {reading: 'n/a'})
      """
    When executing query:
      """
      CREATE CONSTRAINT sensor_reading FOR (s:Sensor) REQUIRE s.reading IS :: FLOAT
      """
    Then a ConstraintCreationFailed should be raised at any time: *

  @constraint-ddl
  Scenario: IF NOT EXISTS makes a repeated creation a no-op
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT team_code FOR (t:Team) REQUIRE t.code IS UNIQUE
      """
    When executing query:
      """
      CREATE CONSTRAINT team_code IF NOT EXISTS FOR (t:Team) REQUIRE t.code IS UNIQUE
      """
    Then the result should be empty
    And the side effects should be:
      | +constraints | 0 |

  @constraint-ddl
  Scenario: Creating an equivalent constraint a second time is an error
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT FOR (t:Team) REQUIRE t.code IS UNIQUE
      """
    When executing query:
      """
      CREATE CONSTRAINT FOR (t:Team) REQUIRE t.code IS UNIQUE
      """
    Then a EquivalentSchemaRuleAlreadyExists should be raised at any time: *

  @constraint-ddl
  Scenario: Reusing a constraint name for another schema is an error
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT ident FOR (t:Team) REQUIRE t.code IS UNIQUE
      """
    When executing query:
      """
      CREATE CONSTRAINT ident FOR (c:Club) REQUIRE c.code IS UNIQUE
      """
    Then a ConstraintWithNameAlreadyExists should be raised at any time: *

  @constraint-ddl
  Scenario: A constraint cannot take the name of an index
    Given an empty graph
    And having executed:
      """
      CREATE INDEX lookup_code FOR (c:Club) ON (c.code)
      """
    When executing query:
      """
      CREATE CONSTRAINT lookup_code FOR (t:Team) REQUIRE t.code IS UNIQUE
      """
    Then a IndexWithNameAlreadyExists should be raised at any time: *

  @constraint-ddl
  Scenario: The same schema under another name is refused as an existing constraint
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT first_rule FOR (t:Team) REQUIRE t.code IS UNIQUE
      """
    When executing query:
      """
      CREATE CONSTRAINT second_rule FOR (t:Team) REQUIRE t.code IS UNIQUE
      """
    Then a ConstraintAlreadyExists should be raised at any time: *

  @constraint-ddl
  Scenario: A node key cannot join a uniqueness constraint on the same schema
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT tag_unique FOR (b:Badge) REQUIRE b.serial IS UNIQUE
      """
    When executing query:
      """
      CREATE CONSTRAINT tag_key FOR (b:Badge) REQUIRE b.serial IS NODE KEY
      """
    Then a ConstraintAlreadyExists should be raised at any time: *

  @constraint-ddl
  Scenario: Two property type constraints with different types on one property conflict
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT reading_float FOR (s:Sensor) REQUIRE s.reading IS :: FLOAT
      """
    When executing query:
      """
      CREATE CONSTRAINT reading_text FOR (s:Sensor) REQUIRE s.reading IS :: STRING
      """
    Then a ConstraintAlreadyExists should be raised at any time: *

  @constraint-ddl
  Scenario: Uniqueness and existence may share a schema
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT serial_unique FOR (b:Badge) REQUIRE b.serial IS UNIQUE
      """
    When executing query:
      """
      CREATE CONSTRAINT serial_present FOR (b:Badge) REQUIRE b.serial IS NOT NULL
      """
    Then the result should be empty
    And the side effects should be:
      | +constraints | 1 |

  @constraint-ddl
  Scenario: IF NOT EXISTS is a no-op when only the name is taken
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT taken FOR (p:Pilot) REQUIRE p.licence IS NOT NULL
      """
    When executing query:
      """
      CREATE CONSTRAINT taken IF NOT EXISTS FOR ()-[r:FLEW]-() REQUIRE r.log IS UNIQUE
      """
    Then the result should be empty
    And the side effects should be:
      | +constraints | 0 |

  @constraint-ddl
  Scenario: A constraint name can be a parameter
    Given an empty graph
    And parameters are:
      | cname | 'from_param' |
    When executing query:
      """
      CREATE CONSTRAINT $cname FOR (h:Harbour) REQUIRE h.code IS UNIQUE
      """
    Then the result should be empty
    And the side effects should be:
      | +constraints | 1 |
    When executing control query:
      """
      SHOW CONSTRAINTS YIELD name
      RETURN name
      """
    Then the result should be, in any order:
      | name         |
      | 'from_param' |

  @constraint-ddl
  Scenario: A property type constraint on a list with nullable elements is refused
    Given an empty graph
    When executing query:
      """
      CREATE CONSTRAINT bad_list FOR (p:Part) REQUIRE p.sizes IS :: LIST<INTEGER>
      """
    Then a SyntaxError should be raised at any time: *

  @constraint-ddl
  Scenario: An existence constraint cannot span two properties
    Given an empty graph
    When executing query:
      """
      CREATE CONSTRAINT two_props FOR (p:Pilot) REQUIRE (p.licence, p.rank) IS NOT NULL
      """
    Then a SyntaxError should be raised at any time: *

  @constraint-ddl
  Scenario: Dropping a constraint counts it and lifts its rule
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT team_code FOR (t:Team) REQUIRE t.code IS UNIQUE
      """
    And having executed:
      """
      CREATE (:Team {code: 'Z'})
      """
    When executing query:
      """
      DROP CONSTRAINT team_code
      """
    Then the result should be empty
    And the side effects should be:
      | -constraints | 1 |
    When executing control query:
      """
      CREATE (:Team {code: 'Z'})
      WITH 1 AS one
      MATCH (t:Team {code: 'Z'})
      RETURN count(t) AS n
      """
    Then the result should be, in any order:
      | n |
      | 2 |

  @constraint-ddl
  Scenario: Dropping a constraint that does not exist is an error
    Given an empty graph
    When executing query:
      """
      DROP CONSTRAINT no_such_rule
      """
    Then a ConstraintDropFailed should be raised at any time: *

  @constraint-ddl
  Scenario: DROP CONSTRAINT IF EXISTS on a missing name does nothing
    Given an empty graph
    When executing query:
      """
      DROP CONSTRAINT no_such_rule IF EXISTS
      """
    Then the result should be empty
    And the side effects should be:
      | -constraints | 0 |

  @constraint-ddl
  Scenario: A constraint accepts an OPTIONS map naming the range index provider
    Given an empty graph
    When executing query:
      """
      CREATE CONSTRAINT isbn_unique FOR (b:Book) REQUIRE b.isbn IS UNIQUE OPTIONS {indexProvider: 'range-1.0'}
      """
    Then the result should be empty
    And the side effects should be:
      | +constraints | 1 |

  @constraint-ddl
  Scenario: The Neo4j 4 ON ... ASSERT constraint syntax is gone in Neo4j 5
    Given an empty graph
    When executing query:
      """
      CREATE CONSTRAINT ON (b:Book) ASSERT b.isbn IS UNIQUE
      """
    Then a SyntaxError should be raised at compile time: *

  @show-constraints
  Scenario: SHOW CONSTRAINTS on a database without constraints has the default columns and no rows
    Given an empty graph
    When executing query:
      """
      SHOW CONSTRAINTS
      """
    Then the result should be, in any order:
      | id | name | type | entityType | labelsOrTypes | properties | ownedIndex | propertyType |
    And no side effects

  @show-constraints
  Scenario: SHOW CONSTRAINTS describes each kind of constraint
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT c1 FOR (t:Team) REQUIRE t.code IS UNIQUE
      """
    And having executed:
      """
      CREATE CONSTRAINT c2 FOR (p:Pilot) REQUIRE p.licence IS NOT NULL
      """
    And having executed:
      """
      CREATE CONSTRAINT c3 FOR (f:Flight) REQUIRE (f.carrier, f.number) IS NODE KEY
      """
    And having executed:
      """
      CREATE CONSTRAINT c4 FOR ()-[r:RATED]-() REQUIRE r.score IS NOT NULL
      """
    And having executed:
      """
      CREATE CONSTRAINT c5 FOR ()-[p:PAID]-() REQUIRE p.ref IS UNIQUE
      """
    When executing query:
      """
      SHOW CONSTRAINTS YIELD name, type, entityType, labelsOrTypes, properties
      RETURN name, type, entityType, labelsOrTypes, properties
      ORDER BY name
      """
    Then the result should be, in order:
      | name | type                              | entityType     | labelsOrTypes | properties            |
      | 'c1' | 'UNIQUENESS'                      | 'NODE'         | ['Team']      | ['code']              |
      | 'c2' | 'NODE_PROPERTY_EXISTENCE'         | 'NODE'         | ['Pilot']     | ['licence']           |
      | 'c3' | 'NODE_KEY'                        | 'NODE'         | ['Flight']    | ['carrier', 'number'] |
      | 'c4' | 'RELATIONSHIP_PROPERTY_EXISTENCE' | 'RELATIONSHIP' | ['RATED']     | ['score']             |
      | 'c5' | 'RELATIONSHIP_UNIQUENESS'         | 'RELATIONSHIP' | ['PAID']      | ['ref']               |
    And no side effects

  @show-constraints
  Scenario: SHOW CONSTRAINTS names the owned index of a uniqueness constraint only
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT code_u FOR (t:Team) REQUIRE t.code IS UNIQUE
      """
    And having executed:
      """
      CREATE CONSTRAINT town_nn FOR (t:Team) REQUIRE t.town IS NOT NULL
      """
    When executing query:
      """
      SHOW CONSTRAINTS YIELD name, ownedIndex
      RETURN name, ownedIndex
      ORDER BY name
      """
    Then the result should be, in order:
      | name      | ownedIndex |
      | 'code_u'  | 'code_u'   |
      | 'town_nn' | null       |
    And no side effects

  @show-constraints
  Scenario: SHOW CONSTRAINTS shows the normalized property type of a type constraint
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT t1 FOR (s:Sensor) REQUIRE s.reading IS :: FLOAT | INT
      """
    And having executed:
      """
      CREATE CONSTRAINT t2 FOR ()-[l:LINK]-() REQUIRE l.weight IS :: INTEGER
      """
    When executing query:
      """
      SHOW CONSTRAINTS YIELD name, type, propertyType
      RETURN name, type, propertyType
      ORDER BY name
      """
    Then the result should be, in order:
      | name | type                         | propertyType        |
      | 't1' | 'NODE_PROPERTY_TYPE'         | 'INTEGER \| FLOAT'  |
      | 't2' | 'RELATIONSHIP_PROPERTY_TYPE' | 'INTEGER'           |
    And no side effects

  @show-constraints
  Scenario: SHOW CONSTRAINTS takes WHERE or YIELD, not WHERE before YIELD
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT k1 FOR (f:Flight) REQUIRE (f.carrier, f.number) IS NODE KEY
      """
    And having executed:
      """
      CREATE CONSTRAINT u1 FOR (t:Team) REQUIRE t.code IS UNIQUE
      """
    When executing query:
      """
      SHOW CONSTRAINTS WHERE type = 'NODE_KEY'
      YIELD name, labelsOrTypes
      RETURN name, labelsOrTypes
      """
    Then a SyntaxError should be raised at compile time: *

  @show-constraints
  Scenario: SHOW CONSTRAINTS YIELD ... WHERE filters rows
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT k1 FOR (f:Flight) REQUIRE (f.carrier, f.number) IS NODE KEY
      """
    And having executed:
      """
      CREATE CONSTRAINT u1 FOR (t:Team) REQUIRE t.code IS UNIQUE
      """
    When executing query:
      """
      SHOW CONSTRAINTS YIELD name, type, labelsOrTypes WHERE type = 'NODE_KEY'
      RETURN name, labelsOrTypes
      """
    Then the result should be, in any order:
      | name | labelsOrTypes |
      | 'k1' | ['Flight']    |
    And no side effects

  @show-constraints
  Scenario: SHOW UNIQUE CONSTRAINTS lists only uniqueness constraints
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT u1 FOR (t:Team) REQUIRE t.code IS UNIQUE
      """
    And having executed:
      """
      CREATE CONSTRAINT e1 FOR (t:Team) REQUIRE t.town IS NOT NULL
      """
    When executing query:
      """
      SHOW UNIQUE CONSTRAINTS YIELD name
      RETURN name
      """
    Then the result should be, in any order:
      | name |
      | 'u1' |
    And no side effects

  @show-constraints
  Scenario: Dropping a uniqueness constraint drops its backing index too
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT dock_code FOR (d:Dock) REQUIRE d.code IS UNIQUE
      """
    And having executed:
      """
      DROP CONSTRAINT dock_code
      """
    When executing query:
      """
      SHOW INDEXES YIELD name, type
      WHERE type <> 'LOOKUP'
      RETURN count(*) AS indexes
      """
    Then the result should be, in any order:
      | indexes |
      | 0       |
    And no side effects

  @show-constraints
  Scenario: A dropped constraint is no longer listed
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT gone FOR (t:Team) REQUIRE t.code IS UNIQUE
      """
    And having executed:
      """
      CREATE CONSTRAINT kept FOR (t:Team) REQUIRE t.town IS NOT NULL
      """
    And having executed:
      """
      DROP CONSTRAINT gone
      """
    When executing query:
      """
      SHOW CONSTRAINTS YIELD name
      RETURN collect(name) AS names
      """
    Then the result should be, in any order:
      | names    |
      | ['kept'] |
    And no side effects
