#encoding: utf-8
# Quantified path patterns ((a)-[r]->(b)){m,n}, +, *, quantified relationships -[:R]->{m,n},
# group variables (lists outside the quantifier), trail semantics, and the syntax rules.
# The graph is a line of five stops a -> b -> c -> d -> e with leg lengths 1, 2, 3, 4.

Feature: Quantified path patterns

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (a:Stop {name: 'a'})-[:LEG {km: 1}]->(b:Stop {name: 'b'})-[:LEG {km: 2}]->(c:Stop {name: 'c'}),
             (c)-[:LEG {km: 3}]->(d:Stop {name: 'd'})-[:LEG {km: 4}]->(e:Stop {name: 'e'})
      """

  @qpp
  Scenario: An exact quantifier walks that many hops
    When executing query:
      """
      MATCH (:Stop {name: 'a'}) ((x)-[:LEG]->(y)){2} (end)
      RETURN end.name AS stop
      """
    Then the result should be, in any order:
      | stop |
      | 'c'  |
    And no side effects

  @qpp
  Scenario: A range quantifier gives one row per length
    When executing query:
      """
      MATCH (:Stop {name: 'a'}) ((x)-[:LEG]->(y)){1,3} (end)
      RETURN end.name AS stop
      """
    Then the result should be, in any order:
      | stop |
      | 'b'  |
      | 'c'  |
      | 'd'  |
    And no side effects

  @qpp
  Scenario: The plus quantifier means one or more
    When executing query:
      """
      MATCH (:Stop {name: 'b'}) ((x)-[:LEG]->(y))+ (end)
      RETURN end.name AS stop
      """
    Then the result should be, in any order:
      | stop |
      | 'c'  |
      | 'd'  |
      | 'e'  |
    And no side effects

  @qpp
  Scenario: The star quantifier includes the zero-hop match
    When executing query:
      """
      MATCH (s:Stop {name: 'd'}) ((x)-[:LEG]->(y))* (end)
      RETURN end.name AS stop
      """
    Then the result should be, in any order:
      | stop |
      | 'd'  |
      | 'e'  |
    And no side effects

  @qpp
  Scenario: A lower bound without an upper bound
    When executing query:
      """
      MATCH (:Stop {name: 'b'}) ((x)-[:LEG]->(y)){2,} (end)
      RETURN end.name AS stop
      """
    Then the result should be, in any order:
      | stop |
      | 'd'  |
      | 'e'  |
    And no side effects

  @qpp
  Scenario: An upper bound without a lower bound starts at zero
    When executing query:
      """
      MATCH (:Stop {name: 'c'}) ((x)-[:LEG]->(y)){,2} (end)
      RETURN end.name AS stop
      """
    Then the result should be, in any order:
      | stop |
      | 'c'  |
      | 'd'  |
      | 'e'  |
    And no side effects

  @qpp-group-variables
  Scenario: Node variables inside the quantifier are lists outside it
    When executing query:
      """
      MATCH (:Stop {name: 'a'}) ((x)-[:LEG]->(y)){3} (:Stop)
      RETURN [n IN x | n.name] AS froms, [n IN y | n.name] AS tos
      """
    Then the result should be, in any order:
      | froms           | tos             |
      | ['a', 'b', 'c'] | ['b', 'c', 'd'] |
    And no side effects

  @qpp-group-variables
  Scenario: A relationship group variable can be folded
    When executing query:
      """
      MATCH (:Stop {name: 'b'}) (()-[r:LEG]->()){1,3} (end:Stop)
      RETURN end.name AS stop, reduce(total = 0, leg IN r | total + leg.km) AS km
      """
    Then the result should be, in any order:
      | stop | km |
      | 'c'  | 2  |
      | 'd'  | 5  |
      | 'e'  | 9  |
    And no side effects

  @qpp-group-variables
  Scenario: A group variable filtered after the match
    When executing query:
      """
      MATCH (:Stop {name: 'a'}) ((x)-[:LEG]->(y))+ (end)
      WHERE none(n IN y WHERE n.name = 'c')
      RETURN end.name AS stop
      """
    Then the result should be, in any order:
      | stop |
      | 'b'  |
    And no side effects

  @qpp-group-variables
  Scenario: The size of a group variable is the number of iterations
    When executing query:
      """
      MATCH (:Stop {name: 'a'}) ((x)-[:LEG]->(y)){2,3} (end)
      RETURN end.name AS stop, size(x) AS hops
      """
    Then the result should be, in any order:
      | stop | hops |
      | 'c'  | 2    |
      | 'd'  | 3    |
    And no side effects

  @qpp-where
  Scenario: A WHERE inside the quantified pattern applies to every iteration
    When executing query:
      """
      MATCH (:Stop {name: 'b'}) ((x)-[r:LEG]->(y) WHERE r.km >= 2){1,2} (end)
      RETURN end.name AS stop
      """
    Then the result should be, in any order:
      | stop |
      | 'c'  |
      | 'd'  |
    And no side effects

  @qpp-where
  Scenario: A WHERE inside the quantified pattern that the first hop fails gives no rows
    When executing query:
      """
      MATCH (:Stop {name: 'a'}) ((x)-[r:LEG]->(y) WHERE r.km > 1)+ (end)
      RETURN end.name AS stop
      """
    Then the result should be, in any order:
      | stop |
    And no side effects

  @qpp-where
  Scenario: Inline predicates on the inner nodes
    When executing query:
      """
      MATCH (:Stop {name: 'a'}) ((:Stop)-[:LEG]->(m:Stop WHERE m.name <> 'd')){1,4} (end)
      RETURN end.name AS stop
      """
    Then the result should be, in any order:
      | stop |
      | 'b'  |
      | 'c'  |
    And no side effects

  @qpp-path
  Scenario: A path variable over a quantified pattern
    When executing query:
      """
      MATCH p = (:Stop {name: 'c'}) ((x)-[:LEG]->(y)){2} (:Stop)
      RETURN length(p) AS len, [n IN nodes(p) | n.name] AS stops
      """
    Then the result should be, in any order:
      | len | stops           |
      | 2   | ['c', 'd', 'e'] |
    And no side effects

  @qpp-path
  Scenario: The quantified pattern can run against the arrows
    When executing query:
      """
      MATCH (:Stop {name: 'd'}) ((x)<-[:LEG]-(y)){3} (start)
      RETURN start.name AS stop
      """
    Then the result should be, in any order:
      | stop |
      | 'a'  |
    And no side effects

  @qpp-path
  Scenario: Undirected quantified patterns never reuse a relationship
    When executing query:
      """
      MATCH (:Stop {name: 'c'}) ((x)-[:LEG]-(y)){2} (end)
      RETURN end.name AS stop
      """
    Then the result should be, in any order:
      | stop |
      | 'a'  |
      | 'e'  |
    And no side effects

  @qpp-path
  Scenario: Two quantified patterns in sequence
    When executing query:
      """
      MATCH (:Stop {name: 'a'}) ((p)-[:LEG]->(q)){1} (mid) ((s)-[:LEG]->(t)){2} (end)
      RETURN mid.name AS mid, end.name AS stop
      """
    Then the result should be, in any order:
      | mid | stop |
      | 'b' | 'd'  |
    And no side effects

  @quantified-relationship
  Scenario: A quantified relationship with an exact count
    When executing query:
      """
      MATCH (:Stop {name: 'b'})-[:LEG]->{3}(end)
      RETURN end.name AS stop
      """
    Then the result should be, in any order:
      | stop |
      | 'e'  |
    And no side effects

  @quantified-relationship
  Scenario: A quantified relationship with a range and a plus
    When executing query:
      """
      MATCH (s:Stop)-[:LEG]->+(:Stop {name: 'c'})
      RETURN s.name AS stop
      """
    Then the result should be, in any order:
      | stop |
      | 'a'  |
      | 'b'  |
    And no side effects

  @quantified-relationship
  Scenario: A quantified relationship variable is a list of relationships
    When executing query:
      """
      MATCH (:Stop {name: 'a'})-[r:LEG]->{2,3}(end)
      RETURN end.name AS stop, [leg IN r | leg.km] AS kms
      """
    Then the result should be, in any order:
      | stop | kms       |
      | 'c'  | [1, 2]    |
      | 'd'  | [1, 2, 3] |
    And no side effects

  @quantified-relationship
  Scenario: A quantified relationship with an inline WHERE
    When executing query:
      """
      MATCH (:Stop {name: 'b'})-[r:LEG WHERE r.km < 4]->{1,5}(end)
      RETURN end.name AS stop
      """
    Then the result should be, in any order:
      | stop |
      | 'c'  |
      | 'd'  |
    And no side effects

  @qpp-semantics
  Scenario: Around a cycle, each relationship is used once per path
    And having executed:
      """
      CREATE (p:Ring {n: 1})-[:R]->(q:Ring {n: 2})-[:R]->(r:Ring {n: 3})-[:R]->(p)
      """
    When executing query:
      """
      MATCH (s:Ring {n: 1}) ((x)-[:R]->(y))+ (s)
      RETURN size(x) AS hops
      """
    Then the result should be, in any order:
      | hops |
      | 3    |
    And no side effects

  @qpp-semantics
  Scenario: Every distinct path through a diamond is a row
    And having executed:
      """
      CREATE (top:Gem {n: 'top'}), (l:Gem {n: 'l'}), (r:Gem {n: 'r'}), (bot:Gem {n: 'bot'}),
             (top)-[:F]->(l), (top)-[:F]->(r), (l)-[:F]->(bot), (r)-[:F]->(bot)
      """
    When executing query:
      """
      MATCH (:Gem {n: 'top'}) ((a)-[:F]->(b)){2} (:Gem {n: 'bot'})
      RETURN [g IN b | g.n] AS via
      """
    Then the result should be, in any order:
      | via          |
      | ['l', 'bot'] |
      | ['r', 'bot'] |
    And no side effects

  @qpp-semantics
  Scenario: Variable-length relationships keep working beside the new syntax
    When executing query:
      """
      MATCH (:Stop {name: 'a'})-[:LEG*2..3]->(end)
      RETURN end.name AS stop
      """
    Then the result should be, in any order:
      | stop |
      | 'c'  |
      | 'd'  |
    And no side effects

  @qpp-errors
  Scenario: A quantifier whose lower bound exceeds its upper bound is refused
    When executing query:
      """
      MATCH (:Stop) ((x)-[:LEG]->(y)){3,1} (:Stop)
      RETURN x
      """
    Then a SyntaxError should be raised at compile time: *

  @qpp-errors
  Scenario: A quantified pattern must contain a relationship
    When executing query:
      """
      MATCH ((x:Stop)){1,2}
      RETURN x
      """
    Then a SyntaxError should be raised at compile time: *

  @qpp-errors
  Scenario: Quantified path patterns cannot nest
    When executing query:
      """
      MATCH (:Stop) (((x)-[:LEG]->(y)){1,2}){1,2} (:Stop)
      RETURN x
      """
    Then a SyntaxError should be raised at compile time: *

  @qpp-errors
  Scenario: Variable-length relationships and quantified patterns do not mix in one pattern
    When executing query:
      """
      MATCH (:Stop {name: 'a'})-[:LEG*1..2]->(m) ((x)-[:LEG]->(y)){1} (:Stop)
      RETURN m
      """
    Then a SyntaxError should be raised at compile time: *

  @qpp-errors
  Scenario: A group variable cannot be used as a single node in the same MATCH
    When executing query:
      """
      MATCH (:Stop) ((x)-[:LEG]->(y)){1,2} (:Stop), (x)-[:LEG]->()
      RETURN x
      """
    Then a SyntaxError should be raised at compile time: *
