#encoding: utf-8
# LOAD CSV [WITH HEADERS] FROM 'file:///...' [FIELDTERMINATOR] over files of the import folder;
# every field is read as a string; linenumber() and file(); quoting; errors for missing files
# and for paths that leave the import folder.
# Ambiguity: the LOAD CSV page does not spell out empty fields; these cases follow Neo4j's CSV
# reader (since 3.0), which reads an empty unquoted field as null.  Backslash escaping in quoted
# fields (dbms.import.csv.legacy_quote_escaping) is left out: no file here contains a backslash.

Feature: LOAD CSV

  Background:
    Given an empty graph
    And the import file "crew.csv" contains:
      """
      name,role,years
      Nils,pilot,12
      Oona,navigator,3
      Pekka,cook,7
      """

  @load-csv
  Scenario: Without headers each row is a list of strings, the header line included
    When executing query:
      """
      LOAD CSV FROM 'file:///crew.csv' AS row
      RETURN row
      """
    Then the result should be, in order:
      | row                          |
      | ['name', 'role', 'years']    |
      | ['Nils', 'pilot', '12']      |
      | ['Oona', 'navigator', '3']   |
      | ['Pekka', 'cook', '7']       |
    And no side effects

  @load-csv
  Scenario: WITH HEADERS turns each row into a map keyed by the header
    When executing query:
      """
      LOAD CSV WITH HEADERS FROM 'file:///crew.csv' AS row
      RETURN row.name AS name, row.years AS years
      """
    Then the result should be, in order:
      | name    | years |
      | 'Nils'  | '12'  |
      | 'Oona'  | '3'   |
      | 'Pekka' | '7'   |
    And no side effects

  @load-csv
  Scenario: Loading rows into nodes with conversions
    When executing query:
      """
      LOAD CSV WITH HEADERS FROM 'file:///crew.csv' AS row
      CREATE (c:Crew {name: row.name, years: toInteger(row.years)})
      RETURN sum(c.years) AS total
      """
    Then the result should be, in any order:
      | total |
      | 22    |
    And the side effects should be:
      | +nodes      | 3 |
      | +labels     | 1 |
      | +properties | 6 |

  @load-csv
  Scenario: Fields stay strings until converted
    When executing query:
      """
      LOAD CSV WITH HEADERS FROM 'file:///crew.csv' AS row
      WITH row LIMIT 1
      RETURN row.years IS :: STRING AS text, row.years + 1 AS glued
      """
    Then the result should be, in any order:
      | text | glued |
      | true | '121' |
    And no side effects

  @load-csv
  Scenario: linenumber() counts file lines from one
    When executing query:
      """
      LOAD CSV WITH HEADERS FROM 'file:///crew.csv' AS row
      RETURN linenumber() AS line, row.name AS name
      """
    Then the result should be, in order:
      | line | name    |
      | 2    | 'Nils'  |
      | 3    | 'Oona'  |
      | 4    | 'Pekka' |
    And no side effects

  @load-csv
  Scenario: file() names the file being read
    When executing query:
      """
      LOAD CSV FROM 'file:///crew.csv' AS row
      WITH file() AS f LIMIT 1
      RETURN f ENDS WITH 'crew.csv' AS ok
      """
    Then the result should be, in any order:
      | ok   |
      | true |
    And no side effects

  @load-csv
  Scenario: The URL can be a parameter
    And parameters are:
      | url | 'file:///crew.csv' |
    When executing query:
      """
      LOAD CSV WITH HEADERS FROM $url AS row
      RETURN count(row) AS rows
      """
    Then the result should be, in any order:
      | rows |
      | 3    |
    And no side effects

  @load-csv-format
  Scenario: FIELDTERMINATOR sets the separator
    And the import file "scores.csv" contains:
      """
      team;points
      owls;14
      foxes;9
      """
    When executing query:
      """
      LOAD CSV WITH HEADERS FROM 'file:///scores.csv' AS row FIELDTERMINATOR ';'
      RETURN row.team AS team, toInteger(row.points) AS points
      ORDER BY points DESC
      """
    Then the result should be, in order:
      | team    | points |
      | 'owls'  | 14     |
      | 'foxes' | 9      |
    And no side effects

  @load-csv-format
  Scenario: A tab separator written as an escape
    And the import file "tabbed.tsv" contains:
      """
      k	v
      alpha	1
      """
    When executing query:
      """
      LOAD CSV WITH HEADERS FROM 'file:///tabbed.tsv' AS row FIELDTERMINATOR '\t'
      RETURN row.k AS k, row.v AS v
      """
    Then the result should be, in any order:
      | k       | v   |
      | 'alpha' | '1' |
    And no side effects

  @load-csv-format
  Scenario: Quoted fields keep separators and doubled quotes
    And the import file "quotes.csv" contains:
      """
      id,text
      1,"Hello, world"
      2,"She said ""go"""
      """
    When executing query:
      """
      LOAD CSV WITH HEADERS FROM 'file:///quotes.csv' AS row
      RETURN row.id AS id, row.text AS text
      """
    Then the result should be, in order:
      | id  | text             |
      | '1' | 'Hello, world'   |
      | '2' | 'She said "go"'  |
    And no side effects

  @load-csv-format
  Scenario: An empty field is read as null
    And the import file "gaps.csv" contains:
      """
      name,nick
      Vera,
      Wim,W
      """
    When executing query:
      """
      LOAD CSV WITH HEADERS FROM 'file:///gaps.csv' AS row
      RETURN row.name AS name, row.nick AS nick
      """
    Then the result should be, in order:
      | name   | nick |
      | 'Vera' | null |
      | 'Wim'  | 'W'  |
    And no side effects

  @load-csv-format
  Scenario: A file with only a header gives no rows WITH HEADERS
    And the import file "empty.csv" contains:
      """
      a,b
      """
    When executing query:
      """
      LOAD CSV WITH HEADERS FROM 'file:///empty.csv' AS row
      RETURN row
      """
    Then the result should be, in any order:
      | row |
    And no side effects

  @load-csv
  Scenario: LOAD CSV feeding CALL IN TRANSACTIONS
    When executing query:
      """
      LOAD CSV WITH HEADERS FROM 'file:///crew.csv' AS row
      CALL (row) {
        MERGE (:Role {name: row.role})
      } IN TRANSACTIONS OF 2 ROWS
      """
    Then the result should be empty
    And the side effects should be:
      | +nodes      | 3 |
      | +labels     | 1 |
      | +properties | 3 |

  @load-csv-errors
  Scenario: A missing file is an external resource failure
    When executing query:
      """
      LOAD CSV FROM 'file:///absent.csv' AS row
      RETURN row
      """
    Then a ExternalResourceFailed should be raised at any time: *

  @load-csv-errors
  Scenario: A path that climbs out of the import folder is refused
    When executing query:
      """
      LOAD CSV FROM 'file:///../../etc/passwd' AS row
      RETURN row
      """
    Then a ExternalResourceFailed should be raised at any time: *

  @load-csv-errors
  Scenario: LOAD CSV needs a string URL
    When executing query:
      """
      LOAD CSV FROM 42 AS row
      RETURN row
      """
    Then a Error should be raised at any time: *

  @load-csv
  Scenario: linenumber() and file() are null outside LOAD CSV
    When executing query:
      """
      RETURN linenumber() AS line, file() AS f
      """
    Then the result should be, in any order:
      | line | f    |
      | null | null |
    And no side effects
