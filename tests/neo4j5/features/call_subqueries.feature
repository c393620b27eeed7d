#encoding: utf-8
# CALL subqueries as Neo4j 5 documents them: unit and returning subqueries, the variable scope
# clause CALL (x, y) { }, CALL () { }, CALL (*) { }, the (deprecated, still accepted) importing
# WITH, OPTIONAL CALL, UNION inside CALL, and the scoping errors.

Feature: CALL subqueries

  Background:
    Given an empty graph

  @call-unit
  Scenario: A unit subquery runs once per row and keeps the outer rows
    When executing query:
      """
      UNWIND [3, 5] AS x
      CALL (x) {
        CREATE (:Tick {n: x})
      }
      RETURN x
      """
    Then the result should be, in any order:
      | x |
      | 3 |
      | 5 |
    And the side effects should be:
      | +nodes      | 2 |
      | +labels     | 1 |
      | +properties | 2 |

  @call-unit
  Scenario: A query may end with a unit subquery
    When executing query:
      """
      UNWIND range(1, 3) AS i
      CALL (i) {
        MERGE (:Bucket {slot: i % 2})
      }
      """
    Then the result should be empty
    And the side effects should be:
      | +nodes      | 2 |
      | +labels     | 1 |
      | +properties | 2 |

  @call-returning
  Scenario: A returning subquery adds its columns to each outer row
    When executing query:
      """
      UNWIND [1, 2, 3] AS x
      CALL (x) {
        RETURN x * 10 AS tens
      }
      RETURN x, tens
      """
    Then the result should be, in any order:
      | x | tens |
      | 1 | 10   |
      | 2 | 20   |
      | 3 | 30   |
    And no side effects

  @call-returning
  Scenario: A subquery returning several rows multiplies the outer row
    When executing query:
      """
      UNWIND ['a', 'b'] AS letter
      CALL () {
        UNWIND [1, 2] AS digit
        RETURN digit
      }
      RETURN letter + toString(digit) AS code
      """
    Then the result should be, in any order:
      | code |
      | 'a1' |
      | 'a2' |
      | 'b1' |
      | 'b2' |
    And no side effects

  @call-returning
  Scenario: A subquery returning no rows removes the outer row
    And having executed:
      """
      CREATE (:Owner {name: 'Ivo'})-[:OWNS]->(:Boat {name: 'Wave'}), (:Owner {name: 'Lea'})
      """
    When executing query:
      """
      MATCH (o:Owner)
      CALL (o) {
        MATCH (o)-[:OWNS]->(b:Boat)
        RETURN b.name AS boat
      }
      RETURN o.name AS owner, boat
      """
    Then the result should be, in any order:
      | owner | boat   |
      | 'Ivo' | 'Wave' |
    And no side effects

  @call-returning
  Scenario: An aggregating subquery yields a row even when it matches nothing
    And having executed:
      """
      CREATE (:Owner {name: 'Ivo'})-[:OWNS]->(:Boat), (:Owner {name: 'Ivo2'})-[:OWNS]->(:Boat),
             (:Owner {name: 'Lea'})
      """
    When executing query:
      """
      MATCH (o:Owner)
      CALL (o) {
        MATCH (o)-[:OWNS]->(b:Boat)
        RETURN count(b) AS boats
      }
      RETURN o.name AS owner, boats
      ORDER BY owner
      """
    Then the result should be, in order:
      | owner  | boats |
      | 'Ivo'  | 1     |
      | 'Ivo2' | 1     |
      | 'Lea'  | 0     |
    And no side effects

  @call-returning
  Scenario: ORDER BY and LIMIT inside a subquery pick per outer row
    And having executed:
      """
      CREATE (s:Shop {name: 'north'}), (t:Shop {name: 'south'}),
             (s)-[:SELLS]->(:Item {price: 4}), (s)-[:SELLS]->(:Item {price: 9}),
             (t)-[:SELLS]->(:Item {price: 2}), (t)-[:SELLS]->(:Item {price: 7}), (t)-[:SELLS]->(:Item {price: 5})
      """
    When executing query:
      """
      MATCH (shop:Shop)
      CALL (shop) {
        MATCH (shop)-[:SELLS]->(i:Item)
        RETURN i.price AS top
        ORDER BY i.price DESC
        LIMIT 1
      }
      RETURN shop.name AS shop, top
      """
    Then the result should be, in any order:
      | shop    | top |
      | 'north' | 9   |
      | 'south' | 7   |
    And no side effects

  @call-returning
  Scenario: UNION inside a subquery, post-processed outside
    And having executed:
      """
      CREATE (:Cat {name: 'Mog', age: 9}), (:Dog {name: 'Rex', age: 4}), (:Dog {name: 'Bo', age: 12})
      """
    When executing query:
      """
      CALL () {
        MATCH (c:Cat) RETURN c.name AS name, c.age AS age
        UNION
        MATCH (d:Dog) RETURN d.name AS name, d.age AS age
      }
      RETURN name
      ORDER BY age DESC
      LIMIT 2
      """
    Then the result should be, in order:
      | name  |
      | 'Bo'  |
      | 'Mog' |
    And no side effects

  @call-returning
  Scenario: UNION inside a scoped subquery uses the imported variable in every branch
    When executing query:
      """
      UNWIND [2, 3] AS n
      CALL (n) {
        RETURN n * n AS v
        UNION
        RETURN n + n AS v
      }
      RETURN n, v
      """
    Then the result should be, in any order:
      | n | v |
      | 2 | 4 |
      | 3 | 9 |
      | 3 | 6 |
    And no side effects

  @call-returning
  Scenario: Clauses after a writing subquery see every row's writes
    When executing query:
      """
      UNWIND [1, 2, 3] AS i
      CALL (i) {
        CREATE (c:Counter {i: i})
        RETURN c
      }
      WITH i
      MATCH (all:Counter)
      RETURN i, count(all) AS seen
      """
    Then the result should be, in any order:
      | i | seen |
      | 1 | 3    |
      | 2 | 3    |
      | 3 | 3    |
    And the side effects should be:
      | +nodes      | 3 |
      | +labels     | 1 |
      | +properties | 3 |

  @call-returning
  Scenario: Nested subqueries import step by step
    When executing query:
      """
      WITH 2 AS a
      CALL (a) {
        WITH a * 3 AS b
        CALL (a, b) {
          RETURN a + b AS c
        }
        RETURN b, c
      }
      RETURN a, b, c
      """
    Then the result should be, in any order:
      | a | b | c |
      | 2 | 6 | 8 |
    And no side effects

  @call-scope
  Scenario: CALL (*) imports every outer variable
    When executing query:
      """
      WITH 'x' AS p, 'y' AS q
      CALL (*) {
        RETURN p + q AS pq
      }
      RETURN pq
      """
    Then the result should be, in any order:
      | pq   |
      | 'xy' |
    And no side effects

  @call-scope
  Scenario: CALL () imports nothing, so an outer variable is undefined inside
    When executing query:
      """
      WITH 5 AS k
      CALL () {
        RETURN k + 1 AS j
      }
      RETURN j
      """
    Then a SyntaxError should be raised at compile time: UndefinedVariable

  @call-scope
  Scenario: A scope clause naming an unknown variable is an error
    When executing query:
      """
      WITH 5 AS k
      CALL (m) {
        RETURN 1 AS one
      }
      RETURN one
      """
    Then a SyntaxError should be raised at compile time: UndefinedVariable

  @call-scope
  Scenario: A subquery may not return a name already bound outside
    When executing query:
      """
      WITH 1 AS v
      CALL () {
        RETURN 2 AS v
      }
      RETURN v
      """
    Then a SyntaxError should be raised at compile time: *

  @call-scope
  Scenario: An imported variable cannot be redeclared inside the subquery
    When executing query:
      """
      WITH 1 AS v
      CALL (v) {
        UNWIND [7, 8] AS v
        RETURN v AS w
      }
      RETURN w
      """
    Then a SyntaxError should be raised at compile time: *

  @call-scope
  Scenario: Without a scope clause or importing WITH, outer variables are not visible
    When executing query:
      """
      WITH 4 AS outer
      CALL {
        RETURN outer AS inner
      }
      RETURN inner
      """
    Then a SyntaxError should be raised at compile time: UndefinedVariable

  @call-scope
  Scenario: Expressions returned from a subquery must be aliased
    When executing query:
      """
      CALL () {
        RETURN 40 + 2
      }
      RETURN 1 AS one
      """
    Then a SyntaxError should be raised at compile time: *

  @call-scope
  Scenario: A subquery that ends in MATCH is not a valid subquery
    When executing query:
      """
      CALL () {
        MATCH (n)
      }
      RETURN 1 AS one
      """
    Then a SyntaxError should be raised at compile time: *

  @call-import-with
  Scenario: The importing WITH brings outer variables into an unscoped CALL
    When executing query:
      """
      UNWIND [4, 6] AS w
      CALL {
        WITH w
        RETURN w / 2 AS half
      }
      RETURN w, half
      """
    Then the result should be, in any order:
      | w | half |
      | 4 | 2    |
      | 6 | 3    |
    And no side effects

  @call-import-with
  Scenario: An importing WITH may not alias the imported variable
    When executing query:
      """
      WITH 4 AS w
      CALL {
        WITH w AS renamed
        RETURN renamed AS r
      }
      RETURN r
      """
    Then a SyntaxError should be raised at compile time: *

  @call-import-with
  Scenario: An importing WITH may not compute an expression
    When executing query:
      """
      WITH 4 AS w
      CALL {
        WITH w + 1 AS bumped
        RETURN bumped
      }
      RETURN bumped
      """
    Then a SyntaxError should be raised at compile time: *

  @call-import-with
  Scenario: CALL { } with no outer variables used needs no import
    When executing query:
      """
      CALL {
        UNWIND ['p', 'q'] AS s
        RETURN s
      }
      RETURN collect(s) AS all
      """
    Then the result should be (ignoring element order for lists):
      | all        |
      | ['p', 'q'] |
    And no side effects

  @optional-call
  Scenario: OPTIONAL CALL keeps outer rows the subquery does not match, with nulls
    And having executed:
      """
      CREATE (:Author {name: 'Ola'})-[:WROTE]->(:Book {title: 'Fjord'}), (:Author {name: 'Siv'})
      """
    When executing query:
      """
      MATCH (a:Author)
      OPTIONAL CALL (a) {
        MATCH (a)-[:WROTE]->(b:Book)
        RETURN b.title AS title
      }
      RETURN a.name AS author, title
      """
    Then the result should be, in any order:
      | author | title   |
      | 'Ola'  | 'Fjord' |
      | 'Siv'  | null    |
    And no side effects

  @optional-call
  Scenario: OPTIONAL CALL on an empty subquery for every row keeps every row
    When executing query:
      """
      UNWIND [1, 2] AS x
      OPTIONAL CALL (x) {
        WITH x WHERE x > 5
        RETURN x * 2 AS doubled
      }
      RETURN x, doubled
      """
    Then the result should be, in any order:
      | x | doubled |
      | 1 | null    |
      | 2 | null    |
    And no side effects

  @optional-call
  Scenario: OPTIONAL CALL with matches behaves like CALL
    When executing query:
      """
      UNWIND [1, 9] AS x
      OPTIONAL CALL (x) {
        WITH x WHERE x > 5
        RETURN x * 2 AS doubled
      }
      RETURN x, doubled
      """
    Then the result should be, in any order:
      | x | doubled |
      | 1 | null    |
      | 9 | 18      |
    And no side effects

  @optional-call
  Scenario: OPTIONAL CALL nulls a returned node and later property reads give null
    And having executed:
      """
      CREATE (:Town {name: 'Ry'}), (:Town {name: 'Ulm'})-[:HAS]->(:Park {size: 3})
      """
    When executing query:
      """
      MATCH (t:Town)
      OPTIONAL CALL (t) {
        MATCH (t)-[:HAS]->(p:Park)
        RETURN p
      }
      RETURN t.name AS town, p.size AS size
      ORDER BY town
      """
    Then the result should be, in order:
      | town  | size |
      | 'Ry'  | null |
      | 'Ulm' | 3    |
    And no side effects
