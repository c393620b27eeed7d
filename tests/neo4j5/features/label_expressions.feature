#encoding: utf-8
# Label and relationship type expressions: | (or), & (and), ! (not), % (any), parentheses,
# in MATCH, in WHERE and in RETURN; the IS form; where the new symbols are refused.

Feature: Label expressions

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (:Fox {n: 'red'}), (:Owl {n: 'snowy'}), (:Fox:Pet {n: 'tame'}), (:Owl:Pet {n: 'hoot'}),
             ({n: 'blank'}), (:Eel {n: 'slick'})
      """

  @label-or
  Scenario: A disjunction matches nodes with either label
    When executing query:
      """
      MATCH (x:Fox|Owl)
      RETURN x.n AS n
      """
    Then the result should be, in any order:
      | n       |
      | 'red'   |
      | 'snowy' |
      | 'tame'  |
      | 'hoot'  |
    And no side effects

  @label-and
  Scenario: A conjunction matches nodes with both labels
    When executing query:
      """
      MATCH (x:Owl&Pet)
      RETURN x.n AS n
      """
    Then the result should be, in any order:
      | n      |
      | 'hoot' |
    And no side effects

  @label-not
  Scenario: A negation matches nodes without the label, unlabelled ones included
    When executing query:
      """
      MATCH (x:!Pet)
      RETURN x.n AS n
      """
    Then the result should be, in any order:
      | n       |
      | 'red'   |
      | 'snowy' |
      | 'blank' |
      | 'slick' |
    And no side effects

  @label-wildcard
  Scenario: The wildcard matches any node with at least one label
    When executing query:
      """
      MATCH (x:%)
      RETURN count(x) AS labelled
      """
    Then the result should be, in any order:
      | labelled |
      | 5        |
    And no side effects

  @label-wildcard
  Scenario: A negated wildcard matches nodes with no label
    When executing query:
      """
      MATCH (x:!%)
      RETURN x.n AS n
      """
    Then the result should be, in any order:
      | n       |
      | 'blank' |
    And no side effects

  @label-and
  Scenario: Parentheses group a label expression
    When executing query:
      """
      MATCH (x:(Fox|Owl)&!Pet)
      RETURN x.n AS n
      """
    Then the result should be, in any order:
      | n       |
      | 'red'   |
      | 'snowy' |
    And no side effects

  @label-and
  Scenario: Conjunction binds tighter than disjunction
    When executing query:
      """
      MATCH (x:Eel|Owl&Pet)
      RETURN x.n AS n
      """
    Then the result should be, in any order:
      | n       |
      | 'slick' |
      | 'hoot'  |
    And no side effects

  @label-not
  Scenario: Two negations joined by a conjunction
    When executing query:
      """
      MATCH (x:!Fox&!Owl)
      RETURN x.n AS n
      """
    Then the result should be, in any order:
      | n       |
      | 'blank' |
      | 'slick' |
    And no side effects

  @label-where
  Scenario: A label expression as a predicate in WHERE
    When executing query:
      """
      MATCH (x)
      WHERE x:Eel|Pet
      RETURN x.n AS n
      """
    Then the result should be, in any order:
      | n       |
      | 'tame'  |
      | 'hoot'  |
      | 'slick' |
    And no side effects

  @label-where
  Scenario: A label expression as a value in RETURN
    When executing query:
      """
      MATCH (x:Fox)
      RETURN x.n AS n, x:Fox&Pet AS tameFox, x:% AS any
      """
    Then the result should be, in any order:
      | n      | tameFox | any  |
      | 'red'  | false   | true |
      | 'tame' | true    | true |
    And no side effects

  @label-where
  Scenario: The wildcard in WHERE
    When executing query:
      """
      MATCH (x)
      WHERE NOT x:%
      RETURN x.n AS n
      """
    Then the result should be, in any order:
      | n       |
      | 'blank' |
    And no side effects

  @label-is
  Scenario: IS stands for the colon in a node pattern
    When executing query:
      """
      MATCH (x IS Owl)
      RETURN x.n AS n
      """
    Then the result should be, in any order:
      | n       |
      | 'snowy' |
      | 'hoot'  |
    And no side effects

  @label-is
  Scenario: IS with a label expression in WHERE
    When executing query:
      """
      MATCH (x)
      WHERE x IS Fox&!Pet
      RETURN x.n AS n
      """
    Then the result should be, in any order:
      | n     |
      | 'red' |
    And no side effects

  @label-create
  Scenario: CREATE accepts a conjunction of labels
    When executing query:
      """
      CREATE (x:Bat&Pet {n: 'flap'})
      RETURN labels(x) AS labels
      """
    Then the result should be (ignoring element order for lists):
      | labels         |
      | ['Bat', 'Pet'] |
    And the side effects should be:
      | +nodes      | 1 |
      | +labels     | 1 |
      | +properties | 1 |

  @label-create
  Scenario: INSERT is a synonym of CREATE that joins labels with &
    When executing query:
      """
      INSERT (t:Tree&Oak {age: 80})
      RETURN labels(t) AS labels, t.age AS age
      """
    Then the result should be (ignoring element order for lists):
      | labels          | age |
      | ['Tree', 'Oak'] | 80  |
    And the side effects should be:
      | +nodes      | 1 |
      | +labels     | 2 |
      | +properties | 1 |

  @label-create
  Scenario: INSERT refuses colon-separated labels
    When executing query:
      """
      INSERT (:Tree:Oak)
      """
    Then a SyntaxError should be raised at compile time: *

  @label-create
  Scenario: CREATE refuses colons and ampersands mixed in one clause
    When executing query:
      """
      CREATE (:Tree:Oak), (:Fir&Pine)
      """
    Then a SyntaxError should be raised at compile time: *

  @label-create
  Scenario: CREATE refuses a disjunction of labels
    When executing query:
      """
      CREATE (:Bat|Pet)
      """
    Then a SyntaxError should be raised at compile time: *

  @label-create
  Scenario: MERGE refuses a disjunction of labels
    When executing query:
      """
      MERGE (:Fox|Owl {n: 'red'})
      """
    Then a SyntaxError should be raised at compile time: *

  @label-create
  Scenario: Mixing the colon conjunction with the new symbols is refused
    When executing query:
      """
      MATCH (x:Fox:Pet|Owl)
      RETURN x
      """
    Then a SyntaxError should be raised at compile time: *

  @type-expression
  Scenario: Relationship type disjunction, negation and wildcard
    And having executed:
      """
      CREATE (h:Hen {n: 'h'}), (h)-[:LAYS]->(:Egg), (h)-[:PECKS]->(:Seed), (h)-[:EYES]->(:Worm)
      """
    When executing query:
      """
      MATCH (:Hen)-[r:LAYS|PECKS]->(x)
      WITH collect(type(r)) AS chosen
      MATCH (:Hen)-[s:!LAYS]->()
      WITH chosen, collect(type(s)) AS notLaying
      MATCH (:Hen)-[u:%]->()
      RETURN chosen, notLaying, count(u) AS anyType
      """
    Then the result should be (ignoring element order for lists):
      | chosen             | notLaying          | anyType |
      | ['LAYS', 'PECKS']  | ['PECKS', 'EYES']  | 3       |
    And no side effects

  @type-expression
  Scenario: A conjunction of relationship types matches nothing
    And having executed:
      """
      CREATE (:Hen)-[:LAYS]->(:Egg)
      """
    When executing query:
      """
      MATCH ()-[r:LAYS&PECKS]->()
      RETURN count(r) AS n
      """
    Then the result should be, in any order:
      | n |
      | 0 |
    And no side effects

  @type-expression
  Scenario: The old colon-separated type alternatives still work
    And having executed:
      """
      CREATE (h:Hen), (h)-[:LAYS]->(:Egg), (h)-[:PECKS]->(:Seed), (h)-[:EYES]->(:Worm)
      """
    When executing query:
      """
      MATCH (:Hen)-[r:LAYS|:EYES]->()
      RETURN count(r) AS n
      """
    Then the result should be, in any order:
      | n |
      | 2 |
    And no side effects

  @type-expression
  Scenario: A type expression as a WHERE predicate on a relationship
    And having executed:
      """
      CREATE (h:Hen), (h)-[:LAYS]->(:Egg), (h)-[:PECKS]->(:Seed), (h)-[:EYES]->(:Worm)
      """
    When executing query:
      """
      MATCH (:Hen)-[r]->(x)
      WHERE r:PECKS|EYES
      RETURN labels(x)[0] AS target
      """
    Then the result should be, in any order:
      | target |
      | 'Seed' |
      | 'Worm' |
    And no side effects

  @type-expression
  Scenario: CREATE refuses a relationship type disjunction
    When executing query:
      """
      CREATE (:Hen)-[:LAYS|PECKS]->(:Egg)
      """
    Then a SyntaxError should be raised at compile time: *
