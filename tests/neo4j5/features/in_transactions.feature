#encoding: utf-8
# CALL { } IN TRANSACTIONS [OF n ROWS] [ON ERROR CONTINUE | BREAK | FAIL] [REPORT STATUS AS s].
# Batches that committed before a failure stay committed (ON ERROR FAIL, the default, still fails
# the statement); the error step is then followed by the side effects that remain.

Feature: CALL IN TRANSACTIONS

  Background:
    Given an empty graph

  @in-transactions
  Scenario: A unit subquery in transactions of two rows creates every node
    When executing query:
      """
      UNWIND range(1, 5) AS i
      CALL (i) {
        CREATE (:Batch {i: i})
      } IN TRANSACTIONS OF 2 ROWS
      """
    Then the result should be empty
    And the side effects should be:
      | +nodes      | 5 |
      | +labels     | 1 |
      | +properties | 5 |

  @in-transactions
  Scenario: OF 1 ROW is accepted in the singular
    When executing query:
      """
      UNWIND ['u', 'v'] AS s
      CALL (s) {
        CREATE (:Letter {s: s})
      } IN TRANSACTIONS OF 1 ROW
      """
    Then the result should be empty
    And the side effects should be:
      | +nodes      | 2 |
      | +labels     | 1 |
      | +properties | 2 |

  @in-transactions
  Scenario: Without OF the default batch size applies
    When executing query:
      """
      UNWIND range(1, 3) AS i
      CALL (i) {
        CREATE (:Plain {i: i})
      } IN TRANSACTIONS
      """
    Then the result should be empty
    And the side effects should be:
      | +nodes      | 3 |
      | +labels     | 1 |
      | +properties | 3 |

  @in-transactions
  Scenario: The batch size can be a parameter
    And parameters are:
      | size | 2 |
    When executing query:
      """
      UNWIND range(1, 3) AS i
      CALL (i) {
        CREATE (:P {i: i})
      } IN TRANSACTIONS OF $size ROWS
      """
    Then the result should be empty
    And the side effects should be:
      | +nodes      | 3 |
      | +labels     | 1 |
      | +properties | 3 |

  @in-transactions
  Scenario: A returning subquery in transactions streams its rows
    When executing query:
      """
      UNWIND [1, 2, 3] AS i
      CALL (i) {
        CREATE (b:Box {i: i})
        RETURN b.i * 2 AS doubled
      } IN TRANSACTIONS OF 2 ROWS
      RETURN doubled
      """
    Then the result should be, in any order:
      | doubled |
      | 2       |
      | 4       |
      | 6       |
    And the side effects should be:
      | +nodes      | 3 |
      | +labels     | 1 |
      | +properties | 3 |

  @in-transactions
  Scenario: Deleting in batches
    And having executed:
      """
      UNWIND range(1, 7) AS i
      CREATE (:Stale {i: i})-[:LINK]->(:Keep)
      """
    When executing query:
      """
      MATCH (s:Stale)
      CALL (s) {
        DETACH DELETE s
      } IN TRANSACTIONS OF 3 ROWS
      """
    Then the result should be empty
    And the side effects should be:
      | -nodes         | 7 |
      | -relationships | 7 |
      | -labels        | 1 |
      | -properties    | 7 |

  @in-transactions-errors
  Scenario: ON ERROR FAIL (the default) fails the statement but keeps committed batches
    When executing query:
      """
      UNWIND [1, 0, 2] AS x
      CALL (x) {
        CREATE (:Ratio {v: 10 / x})
      } IN TRANSACTIONS OF 1 ROW
      """
    Then a ArithmeticError should be raised at runtime: *
    And the side effects should be:
      | +nodes      | 1 |
      | +labels     | 1 |
      | +properties | 1 |

  @in-transactions-errors
  Scenario: ON ERROR CONTINUE skips a failing batch and goes on
    When executing query:
      """
      UNWIND [1, 0, 2] AS x
      CALL (x) {
        CREATE (:Ratio {v: 10 / x})
      } IN TRANSACTIONS OF 1 ROW ON ERROR CONTINUE
      """
    Then the result should be empty
    And the side effects should be:
      | +nodes      | 2 |
      | +labels     | 1 |
      | +properties | 2 |

  @in-transactions-errors
  Scenario: ON ERROR BREAK stops after the failing batch without failing
    When executing query:
      """
      UNWIND [1, 0, 2] AS x
      CALL (x) {
        CREATE (:Ratio {v: 10 / x})
      } IN TRANSACTIONS OF 1 ROW ON ERROR BREAK
      """
    Then the result should be empty
    And the side effects should be:
      | +nodes      | 1 |
      | +labels     | 1 |
      | +properties | 1 |

  @in-transactions-errors
  Scenario: REPORT STATUS gives each row its transaction's outcome
    When executing query:
      """
      UNWIND [5, 0, 1] AS x
      CALL (x) {
        CREATE (:Ratio {v: 10 / x})
      } IN TRANSACTIONS OF 1 ROW ON ERROR CONTINUE REPORT STATUS AS s
      RETURN x, s.started AS started, s.committed AS committed, s.errorMessage IS NULL AS clean
      """
    Then the result should be, in any order:
      | x | started | committed | clean |
      | 5 | true    | true      | true  |
      | 0 | true    | false     | false |
      | 1 | true    | true      | true  |
    And the side effects should be:
      | +nodes      | 2 |
      | +labels     | 1 |
      | +properties | 2 |

  @in-transactions-errors
  Scenario: After ON ERROR BREAK the later rows report a transaction that never started
    When executing query:
      """
      UNWIND [5, 0, 1] AS x
      CALL (x) {
        CREATE (:Ratio {v: 10 / x})
      } IN TRANSACTIONS OF 1 ROW ON ERROR BREAK REPORT STATUS AS s
      RETURN x, s.started AS started, s.committed AS committed
      """
    Then the result should be, in any order:
      | x | started | committed |
      | 5 | true    | true      |
      | 0 | true    | false     |
      | 1 | false   | false     |
    And the side effects should be:
      | +nodes      | 1 |
      | +labels     | 1 |
      | +properties | 1 |

  @in-transactions-errors
  Scenario: REPORT STATUS needs ON ERROR CONTINUE or BREAK
    When executing query:
      """
      UNWIND [1] AS x
      CALL (x) {
        CREATE (:T {x: x})
      } IN TRANSACTIONS ON ERROR FAIL REPORT STATUS AS s
      RETURN s
      """
    Then a SyntaxError should be raised at compile time: *

  @in-transactions-errors
  Scenario: IN TRANSACTIONS inside another subquery is refused
    When executing query:
      """
      CALL () {
        UNWIND [1, 2] AS x
        CALL (x) {
          CREATE (:T {x: x})
        } IN TRANSACTIONS
      }
      RETURN 1 AS done
      """
    Then a SyntaxError should be raised at compile time: *

  @in-transactions-errors
  Scenario: A batch size of zero is refused
    # The manual asks for a positive integer; the family (SyntaxError for a literal, ArgumentError
    # for a parameter) is not pinned down, so any error passes.
    When executing query:
      """
      UNWIND [1, 2] AS x
      CALL (x) {
        CREATE (:T {x: x})
      } IN TRANSACTIONS OF 0 ROWS
      """
    Then a Error should be raised at any time: *

  @in-transactions
  Scenario: Concurrent transactions create the same nodes
    When executing query:
      """
      UNWIND range(1, 4) AS i
      CALL (i) {
        CREATE (:Par {i: i})
      } IN 2 CONCURRENT TRANSACTIONS OF 1 ROW
      """
    Then the result should be empty
    And the side effects should be:
      | +nodes      | 4 |
      | +labels     | 1 |
      | +properties | 4 |
