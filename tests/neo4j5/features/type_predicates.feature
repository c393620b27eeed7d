#encoding: utf-8
# Type predicate expressions: x IS :: T, x IS NOT :: T, IS TYPED, the short x :: T, NOT NULL,
# closed dynamic unions, LIST<T>, ANY, NOTHING, NULL, PROPERTY VALUE, the type synonyms;
# and valueType().  The manual lists `IS TYPED`, `IS NOT TYPED` and a bare `::` as variations.  Every type is nullable unless NOT NULL says otherwise, so null IS :: T holds.

Feature: Type predicates

  @type-predicate
  Scenario Outline: Type predicate <expr> is <r>
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
      | expr                                                  | r     |
      | 42 IS :: INTEGER                                      | true  |
      | 4.2 IS :: INTEGER                                     | false |
      | 4.0 IS :: FLOAT                                       | true  |
      | 'x' IS :: STRING                                      | true  |
      | false IS :: BOOLEAN                                   | true  |
      | null IS :: INTEGER                                    | true  |
      | null IS :: INTEGER NOT NULL                           | false |
      | 7 IS :: INTEGER NOT NULL                              | true  |
      | 7 IS NOT :: STRING                                    | true  |
      | null IS NOT :: STRING                                 | false |
      | 'seven' IS NOT :: STRING NOT NULL                     | false |
      | 7 IS :: INTEGER \| FLOAT                              | true  |
      | 'q' IS :: INTEGER \| FLOAT                            | false |
      | 7 IS :: INT                                           | true  |
      | 7 IS :: SIGNED INTEGER                                | true  |
      | true IS :: BOOL                                       | true  |
      | 'v' IS :: VARCHAR                                     | true  |
      | 8 IS TYPED INTEGER                                    | true  |
      | 8 :: INTEGER                                          | true  |
      | 8 IS NOT TYPED STRING                                 | true  |
      | 5 IS :: NOTHING                                       | false |
      | [] IS :: LIST<STRING NOT NULL>                        | true  |
      | [3, 4] IS :: LIST<INTEGER>                            | true  |
      | [3, 'z'] IS :: LIST<INTEGER>                          | false |
      | [3, 'z'] IS :: LIST<INTEGER \| STRING>                | true  |
      | [3, null] IS :: LIST<INTEGER>                         | true  |
      | [3, null] IS :: LIST<INTEGER NOT NULL>                | false |
      | [] IS :: LIST<NOTHING>                                | true  |
      | [1] IS :: LIST<NOTHING>                               | false |
      | [[1, 2], [3]] IS :: LIST<LIST<INTEGER>>               | true  |
      | [1, 2] IS :: ARRAY<INTEGER>                           | true  |
      | {k: 1} IS :: MAP                                      | true  |
      | {k: 1} IS :: PROPERTY VALUE                           | false |
      | [1.5, 2.5] IS :: PROPERTY VALUE                       | true  |
      | null IS :: NULL                                       | true  |
      | 0 IS :: NULL                                          | false |
      | 'any' IS :: ANY                                       | true  |
      | null IS :: ANY NOT NULL                               | false |
      | date('2024-05-06') IS :: DATE                         | true  |
      | datetime('2024-05-06T10:00Z') IS :: ZONED DATETIME    | true  |
      | localdatetime('2024-05-06T10:00') IS :: LOCAL DATETIME | true |
      | localtime('10:00') IS :: LOCAL TIME                   | true  |
      | time('10:00Z') IS :: ZONED TIME                       | true  |
      | duration('PT5M') IS :: DURATION                       | true  |
      | point({x: 1, y: 2}) IS :: POINT                       | true  |
      | datetime('2024-05-06T10:00Z') IS :: TIMESTAMP WITH TIME ZONE | true |

  @type-predicate
  Scenario: Type predicates on graph elements
    Given an empty graph
    And having executed:
      """
      CREATE (:Cell)-[:WIRE]->(:Cell)
      """
    When executing query:
      """
      MATCH p = (a)-[w]->(b)
      RETURN a IS :: NODE AS n, w IS :: RELATIONSHIP AS r, p IS :: PATH AS path, a IS :: RELATIONSHIP AS wrong
      """
    Then the result should be, in any order:
      | n    | r    | path | wrong |
      | true | true | true | false |
    And no side effects

  @type-predicate
  Scenario: A union mixing nullable and NOT NULL member types is refused
    Given an empty graph
    And having executed:
      """
      CREATE (:Reading {v: 3}), (:Reading {v: 'high'}), (:Reading {v: 2.5}), (:Reading)
      """
    When executing query:
      """
      MATCH (r:Reading)
      WHERE r.v IS :: INTEGER | FLOAT NOT NULL
      RETURN r.v AS v
      """
    Then a SyntaxError should be raised at compile time: *

  @type-predicate
  Scenario: A type predicate with NOT NULL drops missing properties
    Given an empty graph
    And having executed:
      """
      CREATE (:Reading {v: 3}), (:Reading {v: 'high'}), (:Reading {v: 2.5}), (:Reading)
      """
    When executing query:
      """
      MATCH (r:Reading)
      WHERE r.v IS :: INTEGER NOT NULL | FLOAT NOT NULL
      RETURN r.v AS v
      """
    Then the result should be, in any order:
      | v   |
      | 3   |
      | 2.5 |
    And no side effects

  @type-predicate
  Scenario: Without NOT NULL a missing property passes a type predicate
    Given an empty graph
    And having executed:
      """
      CREATE (:Reading {v: 3}), (:Reading {v: 'high'}), (:Reading)
      """
    When executing query:
      """
      MATCH (r:Reading)
      WHERE r.v IS :: INTEGER
      RETURN r.v AS v
      """
    Then the result should be, in any order:
      | v    |
      | 3    |
      | null |
    And no side effects

  @type-predicate
  Scenario: An unknown type name is refused
    Given any graph
    When executing query:
      """
      RETURN 1 IS :: WHOLE NUMBER AS r
      """
    Then a SyntaxError should be raised at compile time: *

  @value-type
  Scenario Outline: valueType(<expr>) is <r>
    Given any graph
    When executing query:
      """
      RETURN valueType(<expr>) AS r
      """
    Then the result should be, in any order:
      | r   |
      | <r> |
    And no side effects

    Examples:
      | expr          | r                                 |
      | 12            | 'INTEGER NOT NULL'                |
      | 1.5           | 'FLOAT NOT NULL'                  |
      | 'text'        | 'STRING NOT NULL'                 |
      | true          | 'BOOLEAN NOT NULL'                |
      | null          | 'NULL'                            |
      | {a: 1}        | 'MAP NOT NULL'                    |
      | [1, 2]        | 'LIST<INTEGER NOT NULL> NOT NULL' |
      | date('2020-02-02') | 'DATE NOT NULL'              |
      | duration('P1D') | 'DURATION NOT NULL'             |
