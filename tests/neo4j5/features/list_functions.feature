#encoding: utf-8
# List concatenation with ||, the list functions of Neo4j 5 (reverse, tail, range, the
# to*List conversions, isEmpty, ...) and list predicates.

Feature: List functions

  @list-functions
  Scenario Outline: List expression <expr> gives <r>
    Given any graph
    When executing query:
      """
      RETURN <expr> AS r
      """
    Then the result should be, in any order:
      | r   |
      | <r> |
    And no side effects

    Examples:
      | expr                                          | r                           |
      | [1, 2] \|\| [3]                               | [1, 2, 3]                   |
      | [] \|\| ['x']                                 | ['x']                       |
      | [1] \|\| null                                 | null                        |
      | [[1]] \|\| [[2]]                              | [[1], [2]]                  |
      | reverse([1, 'two', null])                     | [null, 'two', 1]            |
      | tail([9, 8, 7])                               | [8, 7]                      |
      | tail([])                                      | []                          |
      | head([])                                      | null                        |
      | last(['p', 'q'])                              | 'q'                         |
      | range(2, 11, 4)                               | [2, 6, 10]                  |
      | range(6, 0, -3)                               | [6, 3, 0]                   |
      | range(4, 1)                                   | []                          |
      | toIntegerList(['7', 'seven', 3.9, null])      | [7, null, 3, null]          |
      | toFloatList(['0.5', 4])                       | [0.5, 4.0]                  |
      | toStringList([5, 0.25, false])                | ['5', '0.25', 'false']      |
      | toBooleanList(['true', 'maybe', 'FALSE'])     | [true, null, false]         |
      | toBooleanList([0, 3])                         | [false, true]               |
      | toIntegerList(null)                           | null                        |
      | toStringList([])                              | []                          |
      | isEmpty([])                                   | true                        |
      | isEmpty([null])                               | false                       |
      | isEmpty('')                                   | true                        |
      | isEmpty({})                                   | true                        |
      | isEmpty(null)                                 | null                        |
      | size([null, null])                            | 2                           |
      | reduce(acc = '', s IN ['x', 'y', 'z'] \| acc + s) | 'xyz'                   |
      | [v IN range(1, 6) WHERE v % 3 = 0 \| v * v]   | [9, 36]                     |
      | [1, 2, 3, 4][1..3]                            | [2, 3]                      |
      | [1, 2, 3][-1]                                 | 3                           |
      | all(v IN [2, 4] WHERE v % 2 = 0)              | true                        |
      | any(v IN [] WHERE v > 0)                      | false                       |
      | none(v IN [1, 3] WHERE v = 2)                 | true                        |
      | single(v IN [1, 2, 2] WHERE v = 2)            | false                       |
      | 3 IN [1, 2, null]                             | null                        |

  @list-functions
  Scenario: || on list properties
    Given an empty graph
    And having executed:
      """
      CREATE (:Bag {items: ['pen', 'cup']}), (:Bag {items: ['key']})
      """
    When executing query:
      """
      MATCH (b:Bag)
      WITH b.items || ['map'] AS items
      RETURN size(items) AS n
      ORDER BY n
      """
    Then the result should be, in order:
      | n |
      | 2 |
      | 3 |
    And no side effects
