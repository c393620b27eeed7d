#encoding: utf-8
# Path selectors (SHORTEST k, ALL SHORTEST, ANY SHORTEST, ANY k, SHORTEST k GROUPS, ALL) and the
# legacy shortestPath() / allShortestPaths() functions.
# Roads from s to t: s-a-t and s-d-t (two legs each) and s-b-c-t (three legs).
# As the manual documents, a WHERE of the MATCH is a post-filter (applied after the selection);
# a WHERE inside the pattern (inline, or in a parenthesized path pattern) is a pre-filter.
# Ambiguity: where a selector keeps one of several tied paths, the manual does not say which;
# those cases return only what every tie has in common (the length).

Feature: Path selectors and shortest paths

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (s:Town {n: 's'}), (a:Town {n: 'a'}), (b:Town {n: 'b'}), (c:Town {n: 'c'}),
             (d:Town {n: 'd'}), (t:Town {n: 't'}),
             (s)-[:ROAD {km: 4}]->(a), (a)-[:ROAD {km: 4}]->(t),
             (s)-[:ROAD {km: 1}]->(b), (b)-[:ROAD {km: 1}]->(c), (c)-[:ROAD {km: 1}]->(t),
             (s)-[:ROAD {km: 2}]->(d), (d)-[:ROAD {km: 9}]->(t)
      """

  @shortest
  Scenario: SHORTEST 1 keeps one shortest path
    When executing query:
      """
      MATCH p = SHORTEST 1 (:Town {n: 's'})-[:ROAD]->+(:Town {n: 't'})
      RETURN length(p) AS len
      """
    Then the result should be, in any order:
      | len |
      | 2   |
    And no side effects

  @shortest
  Scenario: SHORTEST 2 keeps both tied shortest paths
    When executing query:
      """
      MATCH p = SHORTEST 2 (:Town {n: 's'})-[:ROAD]->+(:Town {n: 't'})
      RETURN [x IN nodes(p) | x.n] AS route
      """
    Then the result should be, in any order:
      | route           |
      | ['s', 'a', 't'] |
      | ['s', 'd', 't'] |
    And no side effects

  @shortest
  Scenario: SHORTEST 3 reaches into the longer paths
    When executing query:
      """
      MATCH p = SHORTEST 3 (:Town {n: 's'})-[:ROAD]->+(:Town {n: 't'})
      RETURN length(p) AS len, count(*) AS paths
      ORDER BY len
      """
    Then the result should be, in order:
      | len | paths |
      | 2   | 2     |
      | 3   | 1     |
    And no side effects

  @shortest
  Scenario: SHORTEST k never returns more paths than exist
    When executing query:
      """
      MATCH p = SHORTEST 10 (:Town {n: 's'})-[:ROAD]->+(:Town {n: 't'})
      RETURN count(p) AS paths
      """
    Then the result should be, in any order:
      | paths |
      | 3     |
    And no side effects

  @shortest
  Scenario: ALL SHORTEST returns every path of the shortest length
    When executing query:
      """
      MATCH p = ALL SHORTEST (:Town {n: 's'})-[:ROAD]->+(:Town {n: 't'})
      RETURN [x IN nodes(p) | x.n] AS route
      """
    Then the result should be, in any order:
      | route           |
      | ['s', 'a', 't'] |
      | ['s', 'd', 't'] |
    And no side effects

  @shortest
  Scenario: ANY SHORTEST returns a single path of the shortest length
    When executing query:
      """
      MATCH p = ANY SHORTEST (:Town {n: 's'})-[:ROAD]->+(:Town {n: 't'})
      RETURN length(p) AS len, count(*) AS paths
      """
    Then the result should be, in any order:
      | len | paths |
      | 2   | 1     |
    And no side effects

  @shortest-groups
  Scenario: SHORTEST 2 GROUPS returns the two shortest lengths with all their paths
    When executing query:
      """
      MATCH p = SHORTEST 2 GROUPS (:Town {n: 's'})-[:ROAD]->+(:Town {n: 't'})
      RETURN length(p) AS len, count(*) AS paths
      ORDER BY len
      """
    Then the result should be, in order:
      | len | paths |
      | 2   | 2     |
      | 3   | 1     |
    And no side effects

  @shortest-groups
  Scenario: SHORTEST 1 GROUPS is the same as ALL SHORTEST
    When executing query:
      """
      MATCH p = SHORTEST 1 GROUPS (:Town {n: 's'})-[:ROAD]->+(:Town {n: 't'})
      RETURN count(p) AS paths, min(length(p)) AS len
      """
    Then the result should be, in any order:
      | paths | len |
      | 2     | 2   |
    And no side effects

  @any-path
  Scenario: ANY returns one path per pair of end nodes
    When executing query:
      """
      MATCH p = ANY (:Town {n: 's'})-[:ROAD]->+(:Town {n: 't'})
      RETURN count(p) AS paths
      """
    Then the result should be, in any order:
      | paths |
      | 1     |
    And no side effects

  @any-path
  Scenario: ANY 2 returns two paths
    When executing query:
      """
      MATCH p = ANY 2 (:Town {n: 's'})-[:ROAD]->+(:Town {n: 't'})
      RETURN count(p) AS paths
      """
    Then the result should be, in any order:
      | paths |
      | 2     |
    And no side effects

  @any-path
  Scenario: ALL as a selector is the same as no selector
    When executing query:
      """
      MATCH p = ALL (:Town {n: 's'})-[:ROAD]->+(:Town {n: 't'})
      RETURN count(p) AS paths
      """
    Then the result should be, in any order:
      | paths |
      | 3     |
    And no side effects

  @shortest
  Scenario: A selector partitions by the pair of end nodes
    When executing query:
      """
      MATCH p = SHORTEST 1 (:Town {n: 's'})-[:ROAD]->+(x)
      RETURN x.n AS town, length(p) AS hops
      """
    Then the result should be, in any order:
      | town | hops |
      | 'a'  | 1    |
      | 'b'  | 1    |
      | 'c'  | 2    |
      | 'd'  | 1    |
      | 't'  | 2    |
    And no side effects

  @shortest
  Scenario: A star quantifier lets the shortest path be empty
    When executing query:
      """
      MATCH p = SHORTEST 1 (x:Town {n: 's'})-[:ROAD]->*(y:Town {n: 's'})
      RETURN length(p) AS len
      """
    Then the result should be, in any order:
      | len |
      | 0   |
    And no side effects

  @shortest
  Scenario: A predicate inside the selected pattern filters before selection
    When executing query:
      """
      MATCH p = SHORTEST 1 (:Town {n: 's'})-[r:ROAD WHERE r.km < 3]->+(:Town {n: 't'})
      RETURN [x IN nodes(p) | x.n] AS route
      """
    Then the result should be, in any order:
      | route                |
      | ['s', 'b', 'c', 't'] |
    And no side effects

  @shortest
  Scenario: A parenthesized pattern with WHERE filters before selection
    When executing query:
      """
      MATCH p = SHORTEST 1 ((:Town {n: 's'})-[r:ROAD]->+(:Town {n: 't'})
                            WHERE reduce(km = 0, x IN r | km + x.km) < 8)
      RETURN [x IN nodes(p) | x.n] AS route
      """
    Then the result should be, in any order:
      | route                |
      | ['s', 'b', 'c', 't'] |
    And no side effects

  @shortest
  Scenario: A WHERE of the MATCH filters after selection
    When executing query:
      """
      MATCH p = SHORTEST 1 (:Town {n: 's'})-[r:ROAD]->+(:Town {n: 't'})
      WHERE all(x IN r WHERE x.km < 3)
      RETURN p
      """
    Then the result should be, in any order:
      | p |
    And no side effects

  @shortest
  Scenario: A path variable declared inside the parentheses can be pre-filtered
    When executing query:
      """
      MATCH SHORTEST 1 (p = (:Town {n: 's'})-[:ROAD]->+(x:Town) WHERE length(p) >= 2)
      RETURN x.n AS town, length(p) AS hops
      """
    Then the result should be, in any order:
      | town | hops |
      | 'c'  | 2    |
      | 't'  | 2    |
    And no side effects

  @shortest
  Scenario: A selective path pattern must be alone in its MATCH
    When executing query:
      """
      MATCH p = SHORTEST 1 (:Town {n: 's'})-[:ROAD]->+(:Town {n: 't'}), (extra:Town {n: 'a'})
      RETURN p, extra
      """
    Then a SyntaxError should be raised at compile time: *

  @shortest
  Scenario: A selector with a quantified path pattern and group variables
    When executing query:
      """
      MATCH ALL SHORTEST (:Town {n: 's'}) ((u)-[r:ROAD]->(v))+ (:Town {n: 't'})
      RETURN [x IN u | x.n] AS froms
      """
    Then the result should be, in any order:
      | froms      |
      | ['s', 'a'] |
      | ['s', 'd'] |
    And no side effects

  @shortest
  Scenario: No path means no rows
    When executing query:
      """
      MATCH p = SHORTEST 1 (:Town {n: 't'})-[:ROAD]->+(:Town {n: 's'})
      RETURN p
      """
    Then the result should be, in any order:
      | p |
    And no side effects

  @shortest-path-function
  Scenario: shortestPath finds a path of the least length
    When executing query:
      """
      MATCH (s:Town {n: 's'}), (t:Town {n: 't'})
      MATCH p = shortestPath((s)-[:ROAD*]->(t))
      RETURN length(p) AS len
      """
    Then the result should be, in any order:
      | len |
      | 2   |
    And no side effects

  @shortest-path-function
  Scenario: allShortestPaths finds every path of the least length
    When executing query:
      """
      MATCH (s:Town {n: 's'}), (t:Town {n: 't'})
      MATCH p = allShortestPaths((s)-[:ROAD*]->(t))
      RETURN [x IN nodes(p) | x.n] AS route
      """
    Then the result should be, in any order:
      | route           |
      | ['s', 'a', 't'] |
      | ['s', 'd', 't'] |
    And no side effects

  @shortest-path-function
  Scenario: A WHERE on the path's relationships applies during the shortestPath search
    When executing query:
      """
      MATCH (s:Town {n: 's'}), (t:Town {n: 't'})
      MATCH p = shortestPath((s)-[:ROAD*]->(t))
      WHERE all(r IN relationships(p) WHERE r.km < 3)
      RETURN [x IN nodes(p) | x.n] AS route
      """
    Then the result should be, in any order:
      | route                |
      | ['s', 'b', 'c', 't'] |
    And no side effects

  @shortest-path-function
  Scenario: shortestPath within an upper bound too small finds nothing
    When executing query:
      """
      MATCH (s:Town {n: 's'}), (t:Town {n: 't'})
      MATCH p = shortestPath((s)-[:ROAD*..1]->(t))
      RETURN p
      """
    Then the result should be, in any order:
      | p |
    And no side effects

  @shortest-path-function
  Scenario: OPTIONAL MATCH of a shortestPath that does not exist gives null
    When executing query:
      """
      MATCH (s:Town {n: 's'}), (t:Town {n: 't'})
      OPTIONAL MATCH p = shortestPath((t)-[:ROAD*]->(s))
      RETURN p
      """
    Then the result should be, in any order:
      | p    |
      | null |
    And no side effects

  @shortest-path-function
  Scenario: shortestPath ignoring direction
    When executing query:
      """
      MATCH (a:Town {n: 'a'}), (d:Town {n: 'd'})
      MATCH p = shortestPath((a)-[:ROAD*]-(d))
      RETURN length(p) AS len
      """
    Then the result should be, in any order:
      | len |
      | 2   |
    And no side effects

  @shortest-path-function
  Scenario: shortestPath takes a single relationship pattern only
    When executing query:
      """
      MATCH (s:Town {n: 's'}), (t:Town {n: 't'})
      MATCH p = shortestPath((s)-[:ROAD]->(:Town)-[:ROAD]->(t))
      RETURN p
      """
    Then a SyntaxError should be raised at compile time: *

  @shortest-path-function
  Scenario: shortestPath refuses a minimal length above one
    When executing query:
      """
      MATCH (s:Town {n: 's'}), (t:Town {n: 't'})
      MATCH p = shortestPath((s)-[:ROAD*2..5]->(t))
      RETURN p
      """
    Then a SyntaxError should be raised at compile time: *

  @any-path
  Scenario: ANY 2 keeps at most two paths for each end node
    When executing query:
      """
      MATCH p = ANY 2 (:Town {n: 's'})-[:ROAD]->+(x)
      RETURN x.n AS town, count(p) AS paths
      ORDER BY town
      """
    Then the result should be, in order:
      | town | paths |
      | 'a'  | 1     |
      | 'b'  | 1     |
      | 'c'  | 1     |
      | 'd'  | 1     |
      | 't'  | 2     |
    And no side effects

  @shortest-groups
  Scenario: SHORTEST 2 GROUPS partitions by end node
    When executing query:
      """
      MATCH p = SHORTEST 2 GROUPS (:Town {n: 's'})-[:ROAD]->+(x)
      RETURN x.n AS town, count(p) AS paths
      ORDER BY town
      """
    Then the result should be, in order:
      | town | paths |
      | 'a'  | 1     |
      | 'b'  | 1     |
      | 'c'  | 1     |
      | 'd'  | 1     |
      | 't'  | 3     |
    And no side effects

  @shortest
  Scenario: SHORTEST k counts only paths within the quantifier's lower bound
    When executing query:
      """
      MATCH p = SHORTEST 2 (:Town {n: 's'})-[:ROAD]->{3,}(:Town {n: 't'})
      RETURN [x IN nodes(p) | x.n] AS route
      """
    Then the result should be, in any order:
      | route                |
      | ['s', 'b', 'c', 't'] |
    And no side effects

  @shortest-groups
  Scenario: SHORTEST k GROUPS follows paths that pass a node twice but no relationship twice
    And having executed:
      """
      MATCH (t:Town {n: 't'}), (s:Town {n: 's'})
      CREATE (t)-[:ROAD {km: 5}]->(s)
      """
    When executing query:
      """
      MATCH p = SHORTEST 4 GROUPS (:Town {n: 's'})-[:ROAD]->+(:Town {n: 't'})
      RETURN length(p) AS len, count(*) AS paths
      ORDER BY len
      """
    Then the result should be, in order:
      | len | paths |
      | 2   | 2     |
      | 3   | 1     |
      | 5   | 2     |
      | 6   | 4     |
    And no side effects

  @shortest
  Scenario: SHORTEST k from a node back to itself
    And having executed:
      """
      MATCH (t:Town {n: 't'}), (s:Town {n: 's'})
      CREATE (t)-[:ROAD {km: 5}]->(s)
      """
    When executing query:
      """
      MATCH p = SHORTEST 3 (s:Town {n: 's'})-[:ROAD]->+(s)
      RETURN length(p) AS len
      ORDER BY len
      """
    Then the result should be, in order:
      | len |
      | 3   |
      | 3   |
      | 4   |
    And no side effects
