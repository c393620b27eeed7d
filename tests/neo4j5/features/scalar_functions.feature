#encoding: utf-8
# elementId(), nullIf(), timestamp(), randomUUID(), coalesce() and friends; the Neo4j 5 removal
# of exists(n.prop) and the refusal of length() on a string.
# elementId() texts are opaque: these cases compare them, never spell them.

Feature: Scalar functions

  Background:
    Given an empty graph

  @element-id
  Scenario: elementId() of a node is a string
    And having executed:
      """
      CREATE (:Tag {t: 'x'})
      """
    When executing query:
      """
      MATCH (n:Tag)
      RETURN elementId(n) IS :: STRING NOT NULL AS isText
      """
    Then the result should be, in any order:
      | isText |
      | true   |
    And no side effects

  @element-id
  Scenario: elementId() identifies the same node across clauses
    And having executed:
      """
      CREATE (:Tag {t: 'x'}), (:Tag {t: 'y'})
      """
    When executing query:
      """
      MATCH (n:Tag {t: 'y'})
      WITH elementId(n) AS id
      MATCH (m)
      WHERE elementId(m) = id
      RETURN m.t AS t
      """
    Then the result should be, in any order:
      | t   |
      | 'y' |
    And no side effects

  @element-id
  Scenario: elementId() differs between distinct nodes and between a node and a relationship
    And having executed:
      """
      CREATE (:Tag {t: 'x'})-[:NEAR]->(:Tag {t: 'y'})
      """
    When executing query:
      """
      MATCH (a)-[r]->(b)
      RETURN elementId(a) <> elementId(b) AS nodesDiffer, elementId(r) <> elementId(a) AS relDiffers
      """
    Then the result should be, in any order:
      | nodesDiffer | relDiffers |
      | true        | true       |
    And no side effects

  @element-id
  Scenario: elementId() can be passed back as a parameter
    And having executed:
      """
      CREATE (:Tag {t: 'x'}), (:Tag {t: 'y'})
      """
    When executing query:
      """
      MATCH (n:Tag {t: 'x'})
      WITH elementId(n) AS eid
      CALL (eid) {
        MATCH (m:Tag) WHERE elementId(m) = eid
        RETURN m.t AS found
      }
      RETURN found
      """
    Then the result should be, in any order:
      | found |
      | 'x'   |
    And no side effects

  @element-id
  Scenario: elementId(null) is null
    When executing query:
      """
      OPTIONAL MATCH (n:Missing)
      RETURN elementId(n) AS id
      """
    Then the result should be, in any order:
      | id   |
      | null |
    And no side effects

  @element-id
  Scenario: elementId() of a value that is not a node or relationship fails
    When executing query:
      """
      UNWIND ['not an entity'] AS v
      RETURN elementId(v) AS id
      """
    Then a Error should be raised at any time: *

  @null-if
  Scenario Outline: nullIf(<a>, <b>) is <r>
    When executing query:
      """
      RETURN nullIf(<a>, <b>) AS r
      """
    Then the result should be, in any order:
      | r   |
      | <r> |
    And no side effects

    Examples:
      | a      | b      | r      |
      | 9      | 9      | null   |
      | 9      | 5      | 9      |
      | 'Ab'   | 'ab'   | 'Ab'   |
      | null   | 1      | null   |
      | 1      | null   | 1      |
      | 2      | 2.0    | null   |
      | [1]    | [1]    | null   |

  @null-if
  Scenario: nullIf with coalesce turns empty strings into a default
    And having executed:
      """
      CREATE (:Form {email: ''}), (:Form {email: 'x@y.z'})
      """
    When executing query:
      """
      MATCH (f:Form)
      RETURN coalesce(nullIf(f.email, ''), 'none') AS email
      """
    Then the result should be, in any order:
      | email   |
      | 'none'  |
      | 'x@y.z' |
    And no side effects

  @timestamp
  Scenario: timestamp() is an integer fixed for the whole statement
    When executing query:
      """
      UNWIND range(1, 3) AS i
      WITH collect(timestamp()) AS stamps
      RETURN size(stamps) AS n, all(s IN stamps WHERE s = stamps[0]) AS same,
             stamps[0] IS :: INTEGER AS isInt, stamps[0] > 1600000000000 AS recent
      """
    Then the result should be, in any order:
      | n | same | isInt | recent |
      | 3 | true | true  | true   |
    And no side effects

  @random-uuid
  Scenario: randomUUID() stored as a key gives every created node its own value
    When executing query:
      """
      UNWIND range(1, 3) AS i
      CREATE (o:Order {uid: randomUUID()})
      WITH collect(o.uid) AS uids
      RETURN size(uids) AS n, size(uids[0]) AS len, uids[0] <> uids[1] AND uids[1] <> uids[2] AS fresh
      """
    Then the result should be, in any order:
      | n | len | fresh |
      | 3 | 36  | true  |
    And the side effects should be:
      | +nodes      | 3 |
      | +labels     | 1 |
      | +properties | 3 |

  @random-uuid
  Scenario: randomUUID() values are distinct and shaped like UUIDs
    When executing query:
      """
      UNWIND range(1, 4) AS i
      WITH randomUUID() AS id
      RETURN count(DISTINCT id) AS distinct, min(size(id)) AS len,
             all(x IN collect(id) WHERE x =~ '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}') AS shaped
      """
    Then the result should be, in any order:
      | distinct | len | shaped |
      | 4        | 36  | true   |
    And no side effects

  @neo4j5-removals
  Scenario: exists() on a property is no longer Cypher in Neo4j 5
    And having executed:
      """
      CREATE (:Tag {t: 'x'})
      """
    When executing query:
      """
      MATCH (n:Tag)
      WHERE exists(n.t)
      RETURN n
      """
    Then a SyntaxError should be raised at compile time: *

  @neo4j5-removals
  Scenario: IS NOT NULL is the Neo4j 5 property existence check
    And having executed:
      """
      CREATE (:Tag {t: 'x'}), (:Tag)
      """
    When executing query:
      """
      MATCH (n:Tag)
      WHERE n.t IS NOT NULL
      RETURN n.t AS t
      """
    Then the result should be, in any order:
      | t   |
      | 'x' |
    And no side effects

  @neo4j5-removals
  Scenario: length() of a string is refused in Neo4j 5
    When executing query:
      """
      RETURN length('abc') AS n
      """
    Then a SyntaxError should be raised at compile time: *

  @neo4j5-removals
  Scenario: size() of a pattern is refused in Neo4j 5
    And having executed:
      """
      CREATE (:Tag)-[:NEAR]->(:Tag)
      """
    When executing query:
      """
      MATCH (n:Tag)
      RETURN size((n)-->()) AS degree
      """
    Then a SyntaxError should be raised at compile time: *

  @neo4j5-removals
  Scenario: COUNT { } is the Neo4j 5 replacement for size() of a pattern
    And having executed:
      """
      CREATE (a:Tag {t: 'a'})-[:NEAR]->(:Tag {t: 'b'}), (a)-[:NEAR]->(:Tag {t: 'c'})
      """
    When executing query:
      """
      MATCH (n:Tag)
      RETURN n.t AS t, COUNT { (n)-->() } AS degree
      """
    Then the result should be, in any order:
      | t   | degree |
      | 'a' | 2      |
      | 'b' | 0      |
      | 'c' | 0      |
    And no side effects

  @neo4j5-removals
  Scenario: The old {param} parameter syntax is gone
    And parameters are:
      | p | 1 |
    When executing query:
      """
      RETURN {p} AS v
      """
    Then a SyntaxError should be raised at compile time: *

  @graph-functions
  Scenario: id() still answers an integer in Neo4j 5
    And having executed:
      """
      CREATE (:Tag)
      """
    When executing query:
      """
      MATCH (n:Tag)
      RETURN id(n) IS :: INTEGER NOT NULL AS isInt
      """
    Then the result should be, in any order:
      | isInt |
      | true  |
    And no side effects

  @graph-functions
  Scenario: labels(), type(), keys(), properties(), startNode() and endNode()
    And having executed:
      """
      CREATE (:Src:Node {k: 1})-[:PIPE {bar: 2}]->(:Dst {k: 3})
      """
    When executing query:
      """
      MATCH (a)-[r]->(b)
      RETURN labels(a) AS la, type(r) AS t, keys(r) AS kr, properties(b) AS pb,
             startNode(r).k AS s, endNode(r).k AS e
      """
    Then the result should be (ignoring element order for lists):
      | la              | t      | kr      | pb       | s | e |
      | ['Src', 'Node'] | 'PIPE' | ['bar'] | {k: 3}   | 1 | 3 |
    And no side effects
