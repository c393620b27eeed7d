#encoding: utf-8
# EXISTS { }, COUNT { } and COLLECT { } subquery expressions, including UNION inside them,
# their short (pattern-only) forms, and the rules on shadowing, updates and column count.

Feature: Subquery expressions

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (ana:Cook {name: 'Ana'}), (ben:Cook {name: 'Ben'}), (cy:Cook {name: 'Cy'}),
             (soup:Dish {name: 'soup', mins: 30}), (stew:Dish {name: 'stew', mins: 90}),
             (tart:Dish {name: 'tart', mins: 45}),
             (ana)-[:MAKES]->(soup), (ana)-[:MAKES]->(stew), (ana)-[:MAKES]->(tart),
             (ben)-[:MAKES]->(tart), (ben)-[:TRAINS]->(cy)
      """

  @collect-subquery
  Scenario: COLLECT gathers the subquery's single column into a list
    When executing query:
      """
      MATCH (c:Cook)
      RETURN c.name AS cook, COLLECT { MATCH (c)-[:MAKES]->(d:Dish) RETURN d.name } AS dishes
      """
    Then the result should be (ignoring element order for lists):
      | cook  | dishes                   |
      | 'Ana' | ['soup', 'stew', 'tart'] |
      | 'Ben' | ['tart']                 |
      | 'Cy'  | []                       |
    And no side effects

  @collect-subquery
  Scenario: ORDER BY inside COLLECT orders the list
    When executing query:
      """
      MATCH (c:Cook {name: 'Ana'})
      RETURN COLLECT { MATCH (c)-[:MAKES]->(d:Dish) RETURN d.name ORDER BY d.mins DESC } AS slowest
      """
    Then the result should be, in order:
      | slowest                  |
      | ['stew', 'tart', 'soup'] |
    And no side effects

  @collect-subquery
  Scenario: COLLECT keeps duplicates unless the subquery returns DISTINCT
    When executing query:
      """
      RETURN COLLECT { MATCH (:Cook)-[:MAKES]->(d:Dish) WHERE d.name = 'tart' RETURN d.name } AS all,
             COLLECT { MATCH (:Cook)-[:MAKES]->(d:Dish) WHERE d.name = 'tart' RETURN DISTINCT d.name } AS once
      """
    Then the result should be, in any order:
      | all              | once     |
      | ['tart', 'tart'] | ['tart'] |
    And no side effects

  @collect-subquery
  Scenario: COLLECT with UNION removes duplicates across branches
    When executing query:
      """
      MATCH (c:Cook {name: 'Ben'})
      RETURN COLLECT {
        MATCH (c)-[:MAKES]->(d) RETURN d.name AS thing
        UNION
        MATCH (c)-[:TRAINS]->(p) RETURN p.name AS thing
        UNION
        MATCH (c)-[:MAKES]->(d) RETURN d.name AS thing
      } AS things
      """
    Then the result should be (ignoring element order for lists):
      | things       |
      | ['tart', 'Cy'] |
    And no side effects

  @collect-subquery
  Scenario: COLLECT with UNION ALL keeps duplicates
    When executing query:
      """
      RETURN size(COLLECT {
        MATCH (d:Dish {name: 'tart'}) RETURN d.mins AS m
        UNION ALL
        MATCH (d:Dish {name: 'tart'}) RETURN d.mins AS m
      }) AS n
      """
    Then the result should be, in any order:
      | n |
      | 2 |
    And no side effects

  @collect-subquery
  Scenario: COLLECT keeps nulls where the collect() aggregate drops them
    When executing query:
      """
      MATCH (c:Cook)
      WITH collect(c.nickname) AS aggregated
      RETURN aggregated, COLLECT { MATCH (k:Cook) RETURN k.nickname } AS subquery
      """
    Then the result should be, in any order:
      | aggregated | subquery           |
      | []         | [null, null, null] |
    And no side effects

  @collect-subquery
  Scenario: COLLECT can stand in WHERE
    When executing query:
      """
      MATCH (c:Cook)
      WHERE 'tart' IN COLLECT { MATCH (c)-[:MAKES]->(d) RETURN d.name }
      RETURN c.name AS name
      """
    Then the result should be, in any order:
      | name  |
      | 'Ana' |
      | 'Ben' |
    And no side effects

  @collect-subquery
  Scenario: COLLECT must return exactly one column
    When executing query:
      """
      MATCH (c:Cook)
      RETURN COLLECT { MATCH (c)-[:MAKES]->(d) RETURN d.name, d.mins } AS pairs
      """
    Then a SyntaxError should be raised at compile time: *

  @collect-subquery
  Scenario: COLLECT may not write
    When executing query:
      """
      MATCH (c:Cook)
      RETURN COLLECT { CREATE (x:Note) RETURN x } AS notes
      """
    Then a SyntaxError should be raised at compile time: *

  @collect-subquery
  Scenario: COLLECT must end with RETURN
    When executing query:
      """
      MATCH (c:Cook)
      RETURN COLLECT { MATCH (c)-[:MAKES]->(d) } AS dishes
      """
    Then a SyntaxError should be raised at compile time: *

  @count-subquery
  Scenario: COUNT with only a pattern counts its matches
    When executing query:
      """
      MATCH (c:Cook)
      RETURN c.name AS cook, COUNT { (c)-[:MAKES]->(:Dish) } AS n
      """
    Then the result should be, in any order:
      | cook  | n |
      | 'Ana' | 3 |
      | 'Ben' | 1 |
      | 'Cy'  | 0 |
    And no side effects

  @count-subquery
  Scenario: COUNT with a pattern and a WHERE
    When executing query:
      """
      MATCH (c:Cook)
      WHERE COUNT { (c)-[:MAKES]->(d:Dish) WHERE d.mins > 40 } >= 1
      RETURN c.name AS cook
      """
    Then the result should be, in any order:
      | cook  |
      | 'Ana' |
      | 'Ben' |
    And no side effects

  @count-subquery
  Scenario: COUNT over a full subquery with RETURN
    When executing query:
      """
      RETURN COUNT { MATCH (d:Dish) WHERE d.mins < 60 RETURN d.name } AS quick
      """
    Then the result should be, in any order:
      | quick |
      | 2     |
    And no side effects

  @count-subquery
  Scenario: COUNT over a UNION counts the distinct rows of the union
    When executing query:
      """
      MATCH (b:Cook {name: 'Ben'})
      RETURN COUNT {
        MATCH (b)-[:MAKES]->(x) RETURN x.name AS v
        UNION
        MATCH (b)-[:TRAINS]->(x) RETURN x.name AS v
      } AS links
      """
    Then the result should be, in any order:
      | links |
      | 2     |
    And no side effects

  @count-subquery
  Scenario: COUNT in SET stores the count
    When executing query:
      """
      MATCH (c:Cook {name: 'Ana'})
      SET c.repertoire = COUNT { (c)-->() }
      RETURN c.repertoire AS r
      """
    Then the result should be, in any order:
      | r |
      | 3 |
    And the side effects should be:
      | +properties | 1 |

  @count-subquery
  Scenario: COUNT on a pattern that matches nothing is zero, not null
    When executing query:
      """
      MATCH (d:Dish {name: 'soup'})
      RETURN COUNT { (d)-[:MAKES]->() } AS outgoing
      """
    Then the result should be, in any order:
      | outgoing |
      | 0        |
    And no side effects

  @exists-subquery
  Scenario: EXISTS with only a pattern
    When executing query:
      """
      MATCH (c:Cook)
      WHERE EXISTS { (c)-[:TRAINS]->() }
      RETURN c.name AS mentor
      """
    Then the result should be, in any order:
      | mentor |
      | 'Ben'  |
    And no side effects

  @exists-subquery
  Scenario: EXISTS with MATCH and WHERE
    When executing query:
      """
      MATCH (c:Cook)
      WHERE EXISTS {
        MATCH (c)-[:MAKES]->(d:Dish)
        WHERE d.mins > 60
      }
      RETURN c.name AS name
      """
    Then the result should be, in any order:
      | name  |
      | 'Ana' |
    And no side effects

  @exists-subquery
  Scenario: NOT EXISTS finds the cooks without dishes
    When executing query:
      """
      MATCH (c:Cook)
      WHERE NOT EXISTS { (c)-[:MAKES]->() }
      RETURN c.name AS name
      """
    Then the result should be, in any order:
      | name |
      | 'Cy' |
    And no side effects

  @exists-subquery
  Scenario: EXISTS with UNION is true when any branch has a row
    When executing query:
      """
      MATCH (c:Cook)
      RETURN c.name AS name, EXISTS {
        MATCH (c)-[:TRAINS]->(x) RETURN x
        UNION
        MATCH (x)-[:TRAINS]->(c) RETURN x
      } AS inMentoring
      """
    Then the result should be, in any order:
      | name  | inMentoring |
      | 'Ana' | false       |
      | 'Ben' | true        |
      | 'Cy'  | true        |
    And no side effects

  @exists-subquery
  Scenario: EXISTS as a value in RETURN
    When executing query:
      """
      MATCH (d:Dish)
      RETURN d.name AS dish, EXISTS { (:Cook {name: 'Ben'})-[:MAKES]->(d) } AS bensDish
      """
    Then the result should be, in any order:
      | dish   | bensDish |
      | 'soup' | false    |
      | 'stew' | false    |
      | 'tart' | true     |
    And no side effects

  @exists-subquery
  Scenario: EXISTS that ignores outer variables is true for every row when anything matches
    When executing query:
      """
      UNWIND [1, 2] AS i
      RETURN i, EXISTS { MATCH (:Cook)-[:TRAINS]->(:Cook) } AS anyTraining
      """
    Then the result should be, in any order:
      | i | anyTraining |
      | 1 | true        |
      | 2 | true        |
    And no side effects

  @subquery-expression-scope
  Scenario: A subquery expression may not shadow an outer variable
    When executing query:
      """
      MATCH (c:Cook)
      RETURN COUNT { WITH 1 AS c RETURN c } AS n
      """
    Then a SyntaxError should be raised at compile time: *

  @subquery-expression-scope
  Scenario: A subquery expression may not create data
    When executing query:
      """
      MATCH (c:Cook)
      WHERE EXISTS { CREATE (:Extra) }
      RETURN c
      """
    Then a SyntaxError should be raised at compile time: *

  @subquery-expression-scope
  Scenario: A variable introduced inside EXISTS is not visible after it
    When executing query:
      """
      MATCH (c:Cook)
      WHERE EXISTS { MATCH (c)-[:MAKES]->(inner:Dish) }
      RETURN inner
      """
    Then a SyntaxError should be raised at compile time: UndefinedVariable
