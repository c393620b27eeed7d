#encoding: utf-8
# Inline WHERE inside node and relationship patterns, where they are allowed and where not.

Feature: Pattern predicates

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (k:Kid {name: 'Kim', age: 7}), (l:Kid {name: 'Lou', age: 12}), (m:Kid {name: 'Max', age: 15}),
             (k)-[:PLAYS {since: 2021}]->(l), (l)-[:PLAYS {since: 2019}]->(m), (m)-[:PLAYS {since: 2023}]->(k)
      """

  @inline-where
  Scenario: A WHERE inside a node pattern
    When executing query:
      """
      MATCH (k:Kid WHERE k.age > 10)
      RETURN k.name AS name
      """
    Then the result should be, in any order:
      | name  |
      | 'Lou' |
      | 'Max' |
    And no side effects

  @inline-where
  Scenario: A WHERE inside a relationship pattern
    When executing query:
      """
      MATCH (a)-[p:PLAYS WHERE p.since < 2022]->(b)
      RETURN a.name AS a, b.name AS b
      """
    Then the result should be, in any order:
      | a     | b     |
      | 'Kim' | 'Lou' |
      | 'Lou' | 'Max' |
    And no side effects

  @inline-where
  Scenario: A property map and a WHERE in the same node pattern
    When executing query:
      """
      MATCH (k:Kid {name: 'Max'} WHERE k.age >= 15)-[:PLAYS]->(other)
      RETURN other.name AS friend
      """
    Then the result should be, in any order:
      | friend |
      | 'Kim'  |
    And no side effects

  @inline-where
  Scenario: An inline WHERE can use a parameter
    And parameters are:
      | min | 10 |
    When executing query:
      """
      MATCH (k:Kid WHERE k.age < $min)
      RETURN k.name AS name
      """
    Then the result should be, in any order:
      | name  |
      | 'Kim' |
    And no side effects

  @inline-where
  Scenario: An inline WHERE combined with a MATCH WHERE
    When executing query:
      """
      MATCH (a:Kid WHERE a.age > 5)-[:PLAYS]->(b:Kid)
      WHERE b.age > a.age
      RETURN a.name AS younger, b.name AS older
      """
    Then the result should be, in any order:
      | younger | older |
      | 'Kim'   | 'Lou' |
      | 'Lou'   | 'Max' |
    And no side effects

  @inline-where
  Scenario: An inline WHERE in OPTIONAL MATCH keeps the row with nulls
    When executing query:
      """
      MATCH (k:Kid {name: 'Kim'})
      OPTIONAL MATCH (k)-[:PLAYS]->(f WHERE f.age > 20)
      RETURN k.name AS name, f
      """
    Then the result should be, in any order:
      | name  | f    |
      | 'Kim' | null |
    And no side effects

  @inline-where
  Scenario: An inline WHERE inside an EXISTS pattern
    When executing query:
      """
      MATCH (k:Kid)
      WHERE EXISTS { (k)-[:PLAYS]->(:Kid WHERE k.age > 10) }
      RETURN k.name AS name
      """
    Then the result should be, in any order:
      | name  |
      | 'Lou' |
      | 'Max' |
    And no side effects

  @inline-where
  Scenario: An inline WHERE in a pattern comprehension
    When executing query:
      """
      MATCH (k:Kid {name: 'Lou'})
      RETURN [(k)-[p:PLAYS WHERE p.since > 2000]-(o) | o.name] AS mates
      """
    Then the result should be (ignoring element order for lists):
      | mates          |
      | ['Kim', 'Max'] |
    And no side effects

  @inline-where-errors
  Scenario: CREATE refuses a node pattern predicate
    When executing query:
      """
      CREATE (n:Kid WHERE n.age > 1)
      """
    Then a SyntaxError should be raised at compile time: *

  @inline-where-errors
  Scenario: MERGE refuses a relationship pattern predicate
    When executing query:
      """
      MATCH (a:Kid {name: 'Kim'}), (b:Kid {name: 'Max'})
      MERGE (a)-[r:PLAYS WHERE r.since > 0]->(b)
      """
    Then a SyntaxError should be raised at compile time: *

  @inline-where-errors
  Scenario: A variable-length relationship refuses an inline predicate
    When executing query:
      """
      MATCH (a:Kid)-[r:PLAYS*1..2 WHERE r.since > 2000]->(b)
      RETURN b
      """
    Then a SyntaxError should be raised at compile time: *
