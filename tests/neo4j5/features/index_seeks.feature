#encoding: utf-8
# Indexes are used by the planner without changing what a predicate means (the manual's
# "Search-performance indexes"): a composite range index for equalities on its keys (then a range
# on the next key), a text index for CONTAINS and ENDS WITH on STRING values.  Each case runs with
# the index in place, including nodes the index does not hold (a key missing, a non-STRING value),
# and after writes that move nodes in and out of it.

Feature: Index seeks

  @composite-index-seek
  Scenario: Equalities on every key of a composite index find the matching nodes
    Given an empty graph
    And having executed:
      """
      CREATE INDEX stop_line_seq FOR (s:Stop) ON (s.line, s.seq)
      """
    And having executed:
      """
      UNWIND range(1, 9) AS i
      CREATE (:Stop {line: ['red', 'blue', 'green'][i % 3], seq: i / 3, name: 's' + toString(i)})
      """
    When executing query:
      """
      MATCH (s:Stop {line: 'blue', seq: 1})
      RETURN s.name AS name
      """
    Then the result should be, in any order:
      | name |
      | 's4' |
    And no side effects

  @composite-index-seek
  Scenario: A composite index with equalities written in WHERE in another order
    Given an empty graph
    And having executed:
      """
      CREATE INDEX stop_line_seq FOR (s:Stop) ON (s.line, s.seq)
      """
    And having executed:
      """
      UNWIND range(1, 9) AS i
      CREATE (:Stop {line: ['red', 'blue', 'green'][i % 3], seq: i / 3, name: 's' + toString(i)})
      """
    When executing query:
      """
      MATCH (s:Stop)
      WHERE s.seq = 2 AND s.line = 'red'
      RETURN s.name AS name
      """
    Then the result should be, in any order:
      | name |
      | 's6' |
    And no side effects

  @composite-index-seek
  Scenario: An equality on the first key and a range on the second
    Given an empty graph
    And having executed:
      """
      CREATE INDEX reading_sensor_at FOR (r:Reading) ON (r.sensor, r.at)
      """
    And having executed:
      """
      UNWIND range(1, 10) AS i
      CREATE (:Reading {sensor: 'k' + toString(i % 2), at: i})
      """
    When executing query:
      """
      MATCH (r:Reading)
      WHERE r.sensor = 'k0' AND 3 < r.at <= 8
      RETURN r.at AS at
      ORDER BY at
      """
    Then the result should be, in order:
      | at |
      | 4  |
      | 6  |
      | 8  |
    And no side effects

  @composite-index-seek
  Scenario: Nodes missing a key of a composite index are still found by the other keys
    Given an empty graph
    And having executed:
      """
      CREATE INDEX stop_line_seq FOR (s:Stop) ON (s.line, s.seq)
      """
    And having executed:
      """
      CREATE (:Stop {line: 'red', seq: 1, name: 'a'}), (:Stop {line: 'red', name: 'b'}),
             (:Stop {seq: 1, name: 'c'})
      """
    When executing query:
      """
      MATCH (s:Stop {line: 'red'})
      RETURN s.name AS name
      ORDER BY name
      """
    Then the result should be, in order:
      | name |
      | 'a'  |
      | 'b'  |
    And no side effects

  @composite-index-seek
  Scenario: A composite index follows property updates and removals
    Given an empty graph
    And having executed:
      """
      CREATE INDEX stop_line_seq FOR (s:Stop) ON (s.line, s.seq)
      """
    And having executed:
      """
      CREATE (:Stop {line: 'red', seq: 1, name: 'a'}), (:Stop {line: 'red', seq: 2, name: 'b'})
      """
    And having executed:
      """
      MATCH (s:Stop {name: 'a'}) SET s.seq = 2
      """
    And having executed:
      """
      MATCH (s:Stop {name: 'b'}) REMOVE s.line
      """
    When executing query:
      """
      MATCH (s:Stop {line: 'red', seq: 2})
      RETURN s.name AS name
      """
    Then the result should be, in any order:
      | name |
      | 'a'  |
    And no side effects

  @composite-index-seek
  Scenario: An integer and a float of the same value are equal through a composite index
    Given an empty graph
    And having executed:
      """
      CREATE INDEX box_w_h FOR (b:Box) ON (b.w, b.h)
      """
    And having executed:
      """
      CREATE (:Box {w: 2, h: 3.0, name: 'x'}), (:Box {w: 2.5, h: 3, name: 'y'})
      """
    When executing query:
      """
      MATCH (b:Box {w: 2.0, h: 3})
      RETURN b.name AS name
      """
    Then the result should be, in any order:
      | name |
      | 'x'  |
    And no side effects

  @composite-index-seek
  Scenario: A null equality on a composite index key matches nothing
    Given an empty graph
    And having executed:
      """
      CREATE INDEX stop_line_seq FOR (s:Stop) ON (s.line, s.seq)
      """
    And having executed:
      """
      CREATE (:Stop {line: 'red', seq: 1})
      """
    And parameters are:
      | seq | null |
    When executing query:
      """
      MATCH (s:Stop)
      WHERE s.line = 'red' AND s.seq = $seq
      RETURN count(s) AS n
      """
    Then the result should be, in any order:
      | n |
      | 0 |
    And no side effects

  @text-index-seek
  Scenario: CONTAINS with a text index finds the strings holding the substring
    Given an empty graph
    And having executed:
      """
      CREATE TEXT INDEX book_title FOR (b:Book) ON (b.title)
      """
    And having executed:
      """
      CREATE (:Book {title: 'The Graph Way'}), (:Book {title: 'Graphs'}), (:Book {title: 'Trees'}),
             (:Book {title: 42}), (:Book)
      """
    When executing query:
      """
      MATCH (b:Book)
      WHERE b.title CONTAINS 'Graph'
      RETURN b.title AS title
      ORDER BY title
      """
    Then the result should be, in order:
      | title           |
      | 'Graphs'        |
      | 'The Graph Way' |
    And no side effects

  @text-index-seek
  Scenario: ENDS WITH with a text index finds the strings with the suffix
    Given an empty graph
    And having executed:
      """
      CREATE TEXT INDEX file_name FOR (f:File) ON (f.name)
      """
    And having executed:
      """
      UNWIND ['a.txt', 'b.csv', 'c.txt', 'txt', 'd.TXT'] AS n
      CREATE (:File {name: n})
      """
    When executing query:
      """
      MATCH (f:File)
      WHERE f.name ENDS WITH '.txt'
      RETURN f.name AS name
      ORDER BY name
      """
    Then the result should be, in order:
      | name    |
      | 'a.txt' |
      | 'c.txt' |
    And no side effects

  @text-index-seek
  Scenario: A text index follows updates, and a string becoming a number leaves it
    Given an empty graph
    And having executed:
      """
      CREATE TEXT INDEX file_name FOR (f:File) ON (f.name)
      """
    And having executed:
      """
      CREATE (:File {name: 'a.txt', id: 1}), (:File {name: 'b.txt', id: 2}), (:File {name: 'c.md', id: 3})
      """
    And having executed:
      """
      MATCH (f:File) WHERE f.id = 1 SET f.name = 7
      """
    And having executed:
      """
      MATCH (f:File) WHERE f.id = 3 SET f.name = 'c.txt'
      """
    When executing query:
      """
      MATCH (f:File)
      WHERE f.name ENDS WITH 'txt'
      RETURN f.id AS id
      ORDER BY id
      """
    Then the result should be, in order:
      | id |
      | 2  |
      | 3  |
    And no side effects

  @text-index-seek
  Scenario: CONTAINS null through a text index matches nothing
    Given an empty graph
    And having executed:
      """
      CREATE TEXT INDEX book_title FOR (b:Book) ON (b.title)
      """
    And having executed:
      """
      CREATE (:Book {title: 'Graphs'})
      """
    And parameters are:
      | part | null |
    When executing query:
      """
      MATCH (b:Book)
      WHERE b.title CONTAINS $part
      RETURN count(b) AS n
      """
    Then the result should be, in any order:
      | n |
      | 0 |
    And no side effects

  @point-index-seek
  Scenario: point.withinBBox with a point index finds the points in the box
    Given an empty graph
    And having executed:
      """
      CREATE POINT INDEX shop_at FOR (s:Shop) ON (s.at)
      """
    And having executed:
      """
      UNWIND range(0, 9) AS i
      CREATE (:Shop {i: i, at: point({x: i, y: i % 3})})
      """
    When executing query:
      """
      MATCH (s:Shop)
      WHERE point.withinBBox(s.at, point({x: 2, y: 0}), point({x: 6, y: 1}))
      RETURN s.i AS i
      ORDER BY i
      """
    Then the result should be, in order:
      | i |
      | 3 |
      | 4 |
      | 6 |
    And no side effects

  @point-index-seek
  Scenario: point.distance with a point index finds the points within the radius
    Given an empty graph
    And having executed:
      """
      CREATE POINT INDEX shop_at FOR (s:Shop) ON (s.at)
      """
    And having executed:
      """
      UNWIND range(0, 9) AS i
      CREATE (:Shop {i: i, at: point({x: i, y: 0})})
      """
    When executing query:
      """
      MATCH (s:Shop)
      WHERE point.distance(s.at, point({x: 4.5, y: 0})) < 2
      RETURN s.i AS i
      ORDER BY i
      """
    Then the result should be, in order:
      | i |
      | 3 |
      | 4 |
      | 5 |
      | 6 |
    And no side effects

  @point-index-seek
  Scenario: A point index only answers for points of the same coordinate system
    Given an empty graph
    And having executed:
      """
      CREATE POINT INDEX shop_at FOR (s:Shop) ON (s.at)
      """
    And having executed:
      """
      CREATE (:Shop {i: 1, at: point({x: 12.5, y: 41.9})}),
             (:Shop {i: 2, at: point({longitude: 12.5, latitude: 41.9})}),
             (:Shop {i: 3, at: point({longitude: 12.6, latitude: 41.9})})
      """
    When executing query:
      """
      MATCH (s:Shop)
      WHERE point.distance(s.at, point({longitude: 12.5, latitude: 41.9})) <= 10000
      RETURN s.i AS i
      ORDER BY i
      """
    Then the result should be, in order:
      | i |
      | 2 |
      | 3 |
    And no side effects
