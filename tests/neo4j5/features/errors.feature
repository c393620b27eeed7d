#encoding: utf-8
# Neo4j 5 error families for everyday mistakes, as the status-code pages file them: compile-time
# refusals are Neo.ClientError.Statement.SyntaxError (semantic checks included); runtime value
# problems are TypeError / ArgumentError / ArithmeticError; writes that break a rule are
# Neo.ClientError.Schema.ConstraintValidationFailed.

Feature: Errors

  Background:
    Given an empty graph

  @errors-compile
  Scenario: An undefined variable
    When executing query:
      """
      MATCH (a:Boat)
      RETURN b.name
      """
    Then a SyntaxError should be raised at compile time: UndefinedVariable

  @errors-compile
  Scenario: A misspelt keyword
    When executing query:
      """
      MATCH (a:Boat)
      RETRUN a
      """
    Then a SyntaxError should be raised at compile time: *

  @errors-compile
  Scenario: An unknown function
    When executing query:
      """
      RETURN toUppercase('x') AS y
      """
    Then a SyntaxError should be raised at compile time: *

  @errors-compile
  Scenario: An aggregate in WHERE
    When executing query:
      """
      MATCH (a:Boat)
      WHERE count(a) > 1
      RETURN a
      """
    Then a SyntaxError should be raised at compile time: *

  @errors-compile
  Scenario: UNION branches with different columns
    When executing query:
      """
      RETURN 1 AS a
      UNION
      RETURN 2 AS b
      """
    Then a SyntaxError should be raised at compile time: *

  @errors-compile
  Scenario: A variable bound as a node and then used as a relationship
    When executing query:
      """
      MATCH (x)
      MATCH ()-[x]->()
      RETURN x
      """
    Then a SyntaxError should be raised at compile time: *

  @errors-compile
  Scenario: A WITH expression without an alias
    When executing query:
      """
      MATCH (a:Boat)
      WITH a.name
      RETURN 1 AS one
      """
    Then a SyntaxError should be raised at compile time: *

  @errors-compile
  Scenario: Two result columns with one name
    When executing query:
      """
      RETURN 1 AS same, 2 AS same
      """
    Then a SyntaxError should be raised at compile time: *

  @errors-compile
  Scenario: A relationship without a type in CREATE
    When executing query:
      """
      CREATE (:Boat)-[:]->(:Dock)
      """
    Then a SyntaxError should be raised at compile time: *

  @errors-compile
  Scenario: A variable-length relationship in CREATE
    When executing query:
      """
      CREATE (:Boat)-[:MOORED*2]->(:Dock)
      """
    Then a SyntaxError should be raised at compile time: *

  @errors-compile
  Scenario: A missing parameter
    When executing query:
      """
      MATCH (b:Boat {name: $boatName})
      RETURN b
      """
    Then a ParameterMissing should be raised at compile time: MissingParameter

  @errors-runtime
  Scenario: Subtracting a number from a string at runtime
    When executing query:
      """
      UNWIND [3, 'three'] AS v
      RETURN v - 1 AS w
      """
    Then a TypeError should be raised at runtime: *

  @errors-runtime
  Scenario: A property of a non-map value
    And parameters are:
      | xs | [1, 2] |
    When executing query:
      """
      UNWIND $xs AS x
      RETURN x.size AS s
      """
    Then a TypeError should be raised at runtime: *

  @errors-runtime
  Scenario: Storing a map as a property
    When executing query:
      """
      WITH {k: 1} AS m
      CREATE (:Boat {spec: m})
      """
    Then a TypeError should be raised at runtime: *

  @errors-runtime
  Scenario: Deleting a node that still has relationships
    And having executed:
      """
      CREATE (:Boat {name: 'Ida'})-[:MOORED]->(:Dock)
      """
    When executing query:
      """
      MATCH (b:Boat)
      DELETE b
      """
    Then a ConstraintValidationFailed should be raised at runtime: *

  @errors-runtime
  Scenario: MERGE with a null property value
    When executing query:
      """
      WITH null AS n
      MERGE (:Boat {name: n})
      """
    Then a SemanticError should be raised at runtime: *

  @errors-runtime
  Scenario: An out-of-range day in a date
    When executing query:
      """
      WITH 31 AS d
      RETURN date({year: 2023, month: 2, day: d}) AS x
      """
    Then a Error should be raised at runtime: *

  @errors-runtime
  Scenario: A list index that is not an integer
    When executing query:
      """
      WITH [1, 2, 3] AS xs, 'one' AS i
      RETURN xs[i] AS x
      """
    Then a TypeError should be raised at runtime: *

  @errors-runtime
  Scenario: A failed statement leaves no partial writes
    And having executed:
      """
      CREATE (:Boat {n: 1}), (:Boat {n: 0})
      """
    When executing query:
      """
      MATCH (b:Boat)
      CREATE (:Log {v: 10 / b.n})
      """
    Then a ArithmeticError should be raised at runtime: *
