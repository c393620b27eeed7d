#encoding: utf-8
# Neo4j 5 index commands: CREATE [RANGE|TEXT|POINT|FULLTEXT] INDEX, IF NOT EXISTS, named DROP
# INDEX [IF EXISTS], SHOW INDEXES; counted in indexes_added / indexes_removed.
# A new Neo4j database holds two LOOKUP indexes of its own; every SHOW INDEXES case here filters
# them out (type <> 'LOOKUP') so that it holds whether or not relate lists such indexes.

Feature: Indexes

  @index-create
  Scenario: A named range index on a node property counts one index
    Given an empty graph
    When executing query:
      """
      CREATE INDEX city_name FOR (c:City) ON (c.name)
      """
    Then the result should be empty
    And the side effects should be:
      | +indexes | 1 |

  @index-create
  Scenario: An index on a relationship property
    Given an empty graph
    When executing query:
      """
      CREATE INDEX road_toll FOR ()-[r:ROAD]-() ON (r.toll)
      """
    Then the result should be empty
    And the side effects should be:
      | +indexes | 1 |

  @index-create
  Scenario: A composite index on two node properties
    Given an empty graph
    When executing query:
      """
      CREATE INDEX city_geo FOR (c:City) ON (c.country, c.name)
      """
    Then the result should be empty
    And the side effects should be:
      | +indexes | 1 |

  @index-create
  Scenario: An unnamed index is created too
    Given an empty graph
    When executing query:
      """
      CREATE INDEX FOR (w:Warehouse) ON (w.zone)
      """
    Then the result should be empty
    And the side effects should be:
      | +indexes | 1 |

  @index-create
  Scenario: IF NOT EXISTS with the name of an existing index does nothing
    Given an empty graph
    And having executed:
      """
      CREATE INDEX city_name FOR (c:City) ON (c.name)
      """
    When executing query:
      """
      CREATE INDEX city_name IF NOT EXISTS FOR (c:City) ON (c.name)
      """
    Then the result should be empty
    And the side effects should be:
      | +indexes | 0 |

  @index-create
  Scenario: An equivalent index is refused without IF NOT EXISTS
    Given an empty graph
    And having executed:
      """
      CREATE INDEX city_name FOR (c:City) ON (c.name)
      """
    When executing query:
      """
      CREATE INDEX other_name FOR (c:City) ON (c.name)
      """
    Then a EquivalentSchemaRuleAlreadyExists should be raised at any time: *

  @index-create
  Scenario: An index name already used by another index is refused
    Given an empty graph
    And having executed:
      """
      CREATE INDEX by_name FOR (c:City) ON (c.name)
      """
    When executing query:
      """
      CREATE INDEX by_name FOR (r:River) ON (r.name)
      """
    Then a IndexWithNameAlreadyExists should be raised at any time: *

  @index-create
  Scenario: An index cannot take the name of a constraint
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT river_id FOR (r:River) REQUIRE r.id IS UNIQUE
      """
    When executing query:
      """
      CREATE INDEX river_id FOR (r:River) ON (r.name)
      """
    Then a ConstraintWithNameAlreadyExists should be raised at any time: *

  @index-create
  Scenario: A text index
    Given an empty graph
    When executing query:
      """
      CREATE TEXT INDEX note_body FOR (n:Note) ON (n.body)
      """
    Then the result should be empty
    And the side effects should be:
      | +indexes | 1 |

  @index-create
  Scenario: A point index on a relationship property
    Given an empty graph
    When executing query:
      """
      CREATE POINT INDEX ping_at FOR ()-[p:PING]-() ON (p.at)
      """
    Then the result should be empty
    And the side effects should be:
      | +indexes | 1 |

  @index-create
  Scenario: The Neo4j 4 CREATE INDEX ON :Label(prop) syntax is gone in Neo4j 5
    Given an empty graph
    When executing query:
      """
      CREATE INDEX ON :City(name)
      """
    Then a SyntaxError should be raised at compile time: *

  @index-create
  Scenario: An index does not change what a query returns
    Given an empty graph
    And having executed:
      """
      UNWIND range(1, 6) AS i
      CREATE (:Crate {weight: i * 10, tag: 't' + toString(i % 2)})
      """
    And having executed:
      """
      CREATE INDEX crate_weight FOR (c:Crate) ON (c.weight)
      """
    When executing query:
      """
      MATCH (c:Crate)
      WHERE c.weight >= 30 AND c.tag = 't1'
      RETURN c.weight AS w
      ORDER BY w
      """
    Then the result should be, in order:
      | w  |
      | 30 |
      | 50 |
    And no side effects

  @index-drop
  Scenario: Dropping an index by name counts it
    Given an empty graph
    And having executed:
      """
      CREATE INDEX city_name FOR (c:City) ON (c.name)
      """
    When executing query:
      """
      DROP INDEX city_name
      """
    Then the result should be empty
    And the side effects should be:
      | -indexes | 1 |

  @index-drop
  Scenario: DROP INDEX takes its name from a parameter
    Given an empty graph
    And having executed:
      """
      CREATE INDEX by_depth FOR (w:Well) ON (w.depth)
      """
    And parameters are:
      | iname | 'by_depth' |
    When executing query:
      """
      DROP INDEX $iname
      """
    Then the result should be empty
    And the side effects should be:
      | -indexes | 1 |

  @index-create
  Scenario: CREATE INDEX takes its name from a parameter
    Given an empty graph
    And parameters are:
      | iname | 'well_owner' |
    When executing query:
      """
      CREATE INDEX $iname FOR (w:Well) ON (w.owner)
      """
    Then the result should be empty
    And the side effects should be:
      | +indexes | 1 |
    When executing control query:
      """
      SHOW INDEXES YIELD name, labelsOrTypes
      WHERE name = 'well_owner'
      RETURN labelsOrTypes
      """
    Then the result should be, in any order:
      | labelsOrTypes |
      | ['Well']      |

  @index-create
  Scenario: A composite range index on relationship properties
    Given an empty graph
    When executing query:
      """
      CREATE INDEX shipment_keys FOR ()-[s:SHIPPED]-() ON (s.carrier, s.week)
      """
    Then the result should be empty
    And the side effects should be:
      | +indexes | 1 |

  @index-drop
  Scenario: Dropping an index that does not exist is an error
    Given an empty graph
    When executing query:
      """
      DROP INDEX never_made
      """
    Then a IndexDropFailed should be raised at any time: *

  @index-drop
  Scenario: DROP INDEX IF EXISTS on a missing name does nothing
    Given an empty graph
    When executing query:
      """
      DROP INDEX never_made IF EXISTS
      """
    Then the result should be empty
    And the side effects should be:
      | -indexes | 0 |

  @index-drop
  Scenario: The index that backs a uniqueness constraint cannot be dropped as an index
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT river_id FOR (r:River) REQUIRE r.id IS UNIQUE
      """
    When executing query:
      """
      DROP INDEX river_id
      """
    Then a IndexDropFailed should be raised at any time: *

  @show-indexes
  Scenario: SHOW INDEXES describes range, text and point indexes
    Given an empty graph
    And having executed:
      """
      CREATE INDEX i_range FOR (c:City) ON (c.name)
      """
    And having executed:
      """
      CREATE TEXT INDEX i_text FOR (n:Note) ON (n.body)
      """
    And having executed:
      """
      CREATE POINT INDEX i_point FOR ()-[p:PING]-() ON (p.at)
      """
    When executing query:
      """
      SHOW INDEXES YIELD name, type, entityType, labelsOrTypes, properties
      WHERE type <> 'LOOKUP'
      RETURN name, type, entityType, labelsOrTypes, properties
      ORDER BY name
      """
    Then the result should be, in order:
      | name      | type    | entityType     | labelsOrTypes | properties |
      | 'i_point' | 'POINT' | 'RELATIONSHIP' | ['PING']      | ['at']     |
      | 'i_range' | 'RANGE' | 'NODE'         | ['City']      | ['name']   |
      | 'i_text'  | 'TEXT'  | 'NODE'         | ['Note']      | ['body']   |
    And no side effects

  @show-indexes
  Scenario: SHOW INDEXES lists a composite index's properties in order
    Given an empty graph
    And having executed:
      """
      CREATE INDEX city_geo FOR (c:City) ON (c.country, c.name)
      """
    When executing query:
      """
      SHOW INDEXES YIELD name, properties, state
      WHERE name = 'city_geo'
      RETURN properties, state
      """
    Then the result should be, in any order:
      | properties          | state    |
      | ['country', 'name'] | 'ONLINE' |
    And no side effects

  @show-indexes
  Scenario: A uniqueness constraint's backing index is listed with its owning constraint
    Given an empty graph
    And having executed:
      """
      CREATE CONSTRAINT river_id FOR (r:River) REQUIRE r.id IS UNIQUE
      """
    When executing query:
      """
      SHOW INDEXES YIELD name, type, owningConstraint
      WHERE type <> 'LOOKUP'
      RETURN name, type, owningConstraint
      """
    Then the result should be, in any order:
      | name       | type    | owningConstraint |
      | 'river_id' | 'RANGE' | 'river_id'       |
    And no side effects

  @show-indexes
  Scenario: An index that no constraint owns has a null owningConstraint
    Given an empty graph
    And having executed:
      """
      CREATE INDEX plain FOR (c:City) ON (c.name)
      """
    When executing query:
      """
      SHOW INDEXES YIELD name, owningConstraint
      WHERE name = 'plain'
      RETURN owningConstraint
      """
    Then the result should be, in any order:
      | owningConstraint |
      | null             |
    And no side effects

  @show-indexes
  Scenario: A dropped index is no longer listed
    Given an empty graph
    And having executed:
      """
      CREATE INDEX a_idx FOR (c:City) ON (c.name)
      """
    And having executed:
      """
      CREATE INDEX b_idx FOR (c:City) ON (c.size)
      """
    And having executed:
      """
      DROP INDEX a_idx
      """
    When executing query:
      """
      SHOW INDEXES YIELD name, type
      WHERE type <> 'LOOKUP'
      RETURN collect(name) AS names
      """
    Then the result should be, in any order:
      | names     |
      | ['b_idx'] |
    And no side effects

  @show-indexes
  Scenario: SHOW TEXT INDEXES lists only text indexes
    Given an empty graph
    And having executed:
      """
      CREATE INDEX r1 FOR (c:City) ON (c.name)
      """
    And having executed:
      """
      CREATE TEXT INDEX t1 FOR (c:City) ON (c.motto)
      """
    When executing query:
      """
      SHOW TEXT INDEXES YIELD name
      RETURN name
      """
    Then the result should be, in any order:
      | name |
      | 't1' |
    And no side effects

  @show-indexes
  Scenario: A full-text index spans several labels
    Given an empty graph
    And having executed:
      """
      CREATE FULLTEXT INDEX prose FOR (n:Essay|Letter) ON EACH [n.text, n.title]
      """
    When executing query:
      """
      SHOW INDEXES YIELD name, type, labelsOrTypes, properties
      WHERE name = 'prose'
      RETURN type, labelsOrTypes, properties
      """
    Then the result should be, in any order:
      | type       | labelsOrTypes       | properties        |
      | 'FULLTEXT' | ['Essay', 'Letter'] | ['text', 'title'] |
    And no side effects
