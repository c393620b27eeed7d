#encoding: utf-8
# Clauses Neo4j 5 adds or changes: FINISH, OFFSET (synonym of SKIP), ORDER BY / SKIP / OFFSET /
# LIMIT as standalone clauses (GQL conformance, Neo4j 5.24+), LIMIT and SKIP with expressions.

Feature: Clauses

  Background:
    Given an empty graph
    And having executed:
      """
      UNWIND [['Oda', 41], ['Per', 29], ['Rut', 35], ['Sam', 52], ['Tor', 23]] AS p
      CREATE (:Runner {name: p[0], age: p[1]})
      """

  @finish
  Scenario: FINISH ends a read query with no columns and no rows
    When executing query:
      """
      MATCH (r:Runner)
      WHERE r.age > 30
      WITH r.name AS name
      FINISH
      """
    Then the result should be empty
    And no side effects

  @finish
  Scenario: FINISH after writes keeps the writes
    When executing query:
      """
      MATCH (r:Runner)
      WHERE r.age > 40
      SET r.veteran = true
      FINISH
      """
    Then the result should be empty
    And the side effects should be:
      | +properties | 2 |

  @finish
  Scenario: FINISH after a CREATE per row
    When executing query:
      """
      UNWIND ['Uma', 'Vik'] AS n
      CREATE (:Runner {name: n})
      FINISH
      """
    Then the result should be empty
    And the side effects should be:
      | +nodes      | 2 |
      | +properties | 2 |

  @finish
  Scenario: Nothing may follow FINISH
    When executing query:
      """
      MATCH (r:Runner)
      FINISH
      RETURN r
      """
    Then a SyntaxError should be raised at compile time: *

  @finish
  Scenario: FINISH inside a unit subquery
    When executing query:
      """
      UNWIND [1, 2] AS i
      CALL (i) {
        CREATE (:Lap {i: i})
        FINISH
      }
      RETURN count(*) AS rows
      """
    Then the result should be, in any order:
      | rows |
      | 2    |
    And the side effects should be:
      | +nodes      | 2 |
      | +labels     | 1 |
      | +properties | 2 |

  @offset
  Scenario: OFFSET is a synonym of SKIP
    When executing query:
      """
      MATCH (r:Runner)
      RETURN r.name AS name
      ORDER BY r.age
      OFFSET 3
      """
    Then the result should be, in order:
      | name  |
      | 'Oda' |
      | 'Sam' |
    And no side effects

  @offset
  Scenario: OFFSET with LIMIT
    When executing query:
      """
      MATCH (r:Runner)
      RETURN r.name AS name
      ORDER BY r.name DESC
      OFFSET 1 LIMIT 2
      """
    Then the result should be, in order:
      | name  |
      | 'Sam' |
      | 'Rut' |
    And no side effects

  @offset
  Scenario: OFFSET in WITH, from a parameter
    And parameters are:
      | skip | 4 |
    When executing query:
      """
      MATCH (r:Runner)
      WITH r ORDER BY r.age DESC OFFSET $skip
      RETURN r.name AS youngest
      """
    Then the result should be, in order:
      | youngest |
      | 'Tor'    |
    And no side effects

  @standalone-order-by
  Scenario: A standalone ORDER BY with LIMIT between MATCH and RETURN
    When executing query:
      """
      MATCH (r:Runner)
      ORDER BY r.age DESC
      LIMIT 2
      RETURN r.name AS name
      """
    Then the result should be, in order:
      | name  |
      | 'Sam' |
      | 'Oda' |
    And no side effects

  @standalone-order-by
  Scenario: A standalone OFFSET after a standalone ORDER BY
    When executing query:
      """
      MATCH (r:Runner)
      ORDER BY r.name
      OFFSET 3
      RETURN r.name AS name
      """
    Then the result should be, in order:
      | name  |
      | 'Sam' |
      | 'Tor' |
    And no side effects

  @standalone-order-by
  Scenario: A standalone LIMIT before a write limits the write
    When executing query:
      """
      MATCH (r:Runner)
      ORDER BY r.age
      LIMIT 1
      SET r.youngest = true
      RETURN r.name AS name
      """
    Then the result should be, in any order:
      | name  |
      | 'Tor' |
    And the side effects should be:
      | +properties | 1 |

  @standalone-order-by
  Scenario: A standalone SKIP then LIMIT
    When executing query:
      """
      UNWIND range(1, 10) AS x
      ORDER BY x % 4, x
      SKIP 1
      LIMIT 3
      RETURN collect(x) AS xs
      """
    Then the result should be, in any order:
      | xs        |
      | [8, 1, 5] |
    And no side effects

  @limit
  Scenario: LIMIT takes an expression without variables
    When executing query:
      """
      MATCH (r:Runner)
      RETURN r.name AS name
      ORDER BY name
      LIMIT toInteger(ceil(1.2))
      """
    Then the result should be, in order:
      | name  |
      | 'Oda' |
      | 'Per' |
    And no side effects

  @limit
  Scenario: LIMIT 0 gives no rows
    When executing query:
      """
      MATCH (r:Runner)
      RETURN r.name AS name
      LIMIT 0
      """
    Then the result should be, in any order:
      | name |
    And no side effects

  @limit
  Scenario: LIMIT may not read a variable
    When executing query:
      """
      MATCH (r:Runner)
      RETURN r.name AS name
      LIMIT r.age
      """
    Then a SyntaxError should be raised at compile time: *

  @limit
  Scenario: SKIP after LIMIT in RETURN is out of order
    When executing query:
      """
      MATCH (r:Runner)
      RETURN r.name AS name
      LIMIT 2 SKIP 1
      """
    Then a SyntaxError should be raised at compile time: *

  @limit
  Scenario: A negative SKIP is refused
    When executing query:
      """
      MATCH (r:Runner)
      RETURN r.name AS name
      SKIP -1
      """
    Then a SyntaxError should be raised at compile time: *

  @limit
  Scenario: LIMIT in the same query part does not stop the writes
    When executing query:
      """
      UNWIND [1, 2, 3] AS i
      CREATE (:Tick {i: i})
      RETURN i
      LIMIT 0
      """
    Then the result should be, in any order:
      | i |
    And the side effects should be:
      | +nodes      | 3 |
      | +labels     | 1 |
      | +properties | 3 |
