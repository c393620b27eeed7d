#encoding: utf-8
# Dynamic labels and types: n:$(expr), $any(...), $all(...), in MATCH, CREATE, MERGE, SET and
# REMOVE; dynamic relationship types; dynamic property keys n[$key].

Feature: Dynamic labels and types

  Background:
    Given an empty graph

  @dynamic-label-match
  Scenario: MATCH with a label given by a parameter
    And having executed:
      """
      CREATE (:Lamp {n: 1}), (:Desk {n: 2}), (:Lamp {n: 3})
      """
    And parameters are:
      | kind | 'Lamp' |
    When executing query:
      """
      MATCH (x:$($kind))
      RETURN x.n AS n
      """
    Then the result should be, in any order:
      | n |
      | 1 |
      | 3 |
    And no side effects

  @dynamic-label-match
  Scenario: A list of dynamic labels means all of them
    And having executed:
      """
      CREATE (:Lamp {n: 1}), (:Lamp:Sale {n: 2}), (:Sale {n: 3})
      """
    And parameters are:
      | want | ['Lamp', 'Sale'] |
    When executing query:
      """
      MATCH (x:$($want))
      RETURN x.n AS n
      """
    Then the result should be, in any order:
      | n |
      | 2 |
    And no side effects

  @dynamic-label-match
  Scenario: $any matches nodes with any of the labels
    And having executed:
      """
      CREATE (:Lamp {n: 1}), (:Lamp:Sale {n: 2}), (:Sale {n: 3}), (:Rug {n: 4})
      """
    When executing query:
      """
      MATCH (x:$any(['Lamp', 'Sale']))
      RETURN x.n AS n
      """
    Then the result should be, in any order:
      | n |
      | 1 |
      | 2 |
      | 3 |
    And no side effects

  @dynamic-label-match
  Scenario: A dynamic label computed from data
    And having executed:
      """
      CREATE (:Config {target: 'Rug'}), (:Rug {n: 4}), (:Lamp {n: 1})
      """
    When executing query:
      """
      MATCH (c:Config)
      MATCH (x:$(c.target))
      RETURN x.n AS n
      """
    Then the result should be, in any order:
      | n |
      | 4 |
    And no side effects

  @dynamic-label-match
  Scenario: Empty lists: $all([]) matches every node, $any([]) none
    And having executed:
      """
      CREATE (:Lamp), (:Desk), ()
      """
    When executing query:
      """
      MATCH (x:$all([]))
      WITH count(x) AS everyNode
      OPTIONAL MATCH (y:$any([]))
      RETURN everyNode, count(y) AS noNode
      """
    Then the result should be, in any order:
      | everyNode | noNode |
      | 3         | 0      |
    And no side effects

  @dynamic-label-match
  Scenario: A dynamic label combined with a static label expression
    And having executed:
      """
      CREATE (:Lamp {n: 1}), (:Lamp:Sale {n: 2}), (:Sale {n: 3})
      """
    When executing query:
      """
      MATCH (x:$('Lamp')&!Sale)
      RETURN x.n AS n
      """
    Then the result should be, in any order:
      | n |
      | 1 |
    And no side effects

  @dynamic-label-match
  Scenario: A dynamic label that is not a string or a list of strings is refused
    When executing query:
      """
      MATCH (x:$([7]))
      RETURN x
      """
    Then a SyntaxError should be raised at compile time: *

  @dynamic-label-write
  Scenario: CREATE with a dynamic label
    And parameters are:
      | l | 'Vase' |
    When executing query:
      """
      CREATE (x:$($l) {n: 9})
      RETURN labels(x) AS labels
      """
    Then the result should be, in any order:
      | labels   |
      | ['Vase'] |
    And the side effects should be:
      | +nodes      | 1 |
      | +labels     | 1 |
      | +properties | 1 |

  @dynamic-label-write
  Scenario: SET a label taken from a property
    And having executed:
      """
      CREATE ({n: 1, kind: 'Chair'}), ({n: 2, kind: 'Table'})
      """
    When executing query:
      """
      MATCH (x)
      SET x:$(x.kind)
      RETURN x.n AS n, labels(x) AS labels
      """
    Then the result should be, in any order:
      | n | labels    |
      | 1 | ['Chair'] |
      | 2 | ['Table'] |
    And the side effects should be:
      | +labels | 2 |

  @dynamic-label-write
  Scenario: SET with a list of dynamic labels adds each
    And having executed:
      """
      CREATE (:Item {n: 1})
      """
    When executing query:
      """
      MATCH (x:Item)
      SET x:$(['New', 'Hot'])
      RETURN size(labels(x)) AS count
      """
    Then the result should be, in any order:
      | count |
      | 3     |
    And the side effects should be:
      | +labels | 2 |

  @dynamic-label-write
  Scenario: REMOVE a dynamic label
    And having executed:
      """
      CREATE (:Item:Draft {n: 1}), (:Item {n: 2})
      """
    And parameters are:
      | gone | 'Draft' |
    When executing query:
      """
      MATCH (x:Item)
      REMOVE x:$($gone)
      RETURN x.n AS n, labels(x) AS labels
      """
    Then the result should be, in any order:
      | n | labels   |
      | 1 | ['Item'] |
      | 2 | ['Item'] |
    And the side effects should be:
      | -labels | 1 |

  @dynamic-label-write
  Scenario: MERGE with a dynamic label matches or creates
    And having executed:
      """
      CREATE (:Shelf {code: 'A'})
      """
    When executing query:
      """
      UNWIND ['A', 'B'] AS code
      MERGE (s:$('Shelf') {code: code})
      RETURN count(s) AS shelves
      """
    Then the result should be, in any order:
      | shelves |
      | 2       |
    And the side effects should be:
      | +nodes      | 1 |
      | +properties | 1 |

  @dynamic-type
  Scenario: CREATE a relationship with a dynamic type
    And having executed:
      """
      CREATE (:Node {n: 1}), (:Node {n: 2})
      """
    And parameters are:
      | rel | 'FEEDS' |
    When executing query:
      """
      MATCH (a:Node {n: 1}), (b:Node {n: 2})
      CREATE (a)-[r:$($rel)]->(b)
      RETURN type(r) AS t
      """
    Then the result should be, in any order:
      | t       |
      | 'FEEDS' |
    And the side effects should be:
      | +relationships | 1 |

  @dynamic-type
  Scenario: A dynamic relationship type from a list of two types cannot be created
    And having executed:
      """
      CREATE (:Node {n: 1}), (:Node {n: 2})
      """
    And parameters are:
      | rel | ['FEEDS', 'DRAINS'] |
    When executing query:
      """
      MATCH (a:Node {n: 1}), (b:Node {n: 2})
      CREATE (a)-[:$($rel)]->(b)
      """
    Then a Error should be raised at any time: *

  @dynamic-type
  Scenario: MATCH a relationship with a dynamic type
    And having executed:
      """
      CREATE (a:Node {n: 1})-[:FEEDS]->(b:Node {n: 2}), (b)-[:DRAINS]->(a)
      """
    When executing query:
      """
      UNWIND ['FEEDS', 'DRAINS'] AS t
      MATCH (x)-[:$(t)]->(y)
      RETURN t, x.n AS from, y.n AS to
      """
    Then the result should be, in any order:
      | t        | from | to |
      | 'FEEDS'  | 1    | 2  |
      | 'DRAINS' | 2    | 1  |
    And no side effects

  @dynamic-property
  Scenario: SET a property whose key is computed
    And having executed:
      """
      CREATE (:Gauge {n: 1})
      """
    And parameters are:
      | key | 'level' |
    When executing query:
      """
      MATCH (g:Gauge)
      SET g[$key] = 42
      RETURN g.level AS level
      """
    Then the result should be, in any order:
      | level |
      | 42    |
    And the side effects should be:
      | +properties | 1 |

  @dynamic-property
  Scenario: MATCH on a property whose key is computed
    And having executed:
      """
      CREATE (:Gauge {level: 3, depth: 7}), (:Gauge {level: 8, depth: 1})
      """
    When executing query:
      """
      WITH 'depth' AS k
      MATCH (g:Gauge)
      WHERE g[k] > 5
      RETURN g.level AS level
      """
    Then the result should be, in any order:
      | level |
      | 3     |
    And no side effects
