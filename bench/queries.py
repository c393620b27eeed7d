"""The benchmark's queries -> their Cypher text per dialect and the canonical form of an answer.

Every engine answers with rows; `canonical` turns those rows into one plain value (a sorted id
list, a count, an ordered list of pairs) so that an engine's answer can be compared with the floor's
before it is timed.  Standard openCypher serves relate, graphdblite and grand-cypher; Kuzu and
LadybugDB spell three things their own way (trail semantics for `*1..3`, `SHORTEST` for
shortestPath, and `count(*)` needs no change), and grand-cypher supports only a subset.
"""
from __future__ import annotations

READ_QUERIES = ("Q1i", "Q1s", "Q2", "Q3", "Q4", "Q5", "Q6", "Q7")
# writes between reads (issue 22): each call is one single-node write, then the scan.  `_w`: the
# write creates a node of another label (a :Post); `_wu` (the update variant, in the details file
# only): it sets a property of one :Person, the scanned label, to the value it holds (a real write
# that leaves every answer as the plain query's, so answers are still checked against the floor's)
MIXED_QUERIES = ("Q1s_w", "Q4_w", "Q5_w")
UPDATE_QUERIES = ("Q1s_wu", "Q4_wu", "Q5_wu")
ALL_QUERIES = READ_QUERIES + MIXED_QUERIES + ("Q8_one", "Q8_unwind", "load")

TITLES = {
    "Q1i": "lookup by indexed property",
    "Q1s": "lookup by property, no index (scan)",
    "Q2": "1-hop neighbours",
    "Q3": "distinct friends-of-friends count",
    "Q4": "count per city, ordered",
    "Q5": "filtered scan, ORDER BY ... LIMIT 10",
    "Q6": "variable-length *1..3 path count",
    "Q7": "shortestPath length",
    "Q1s_w": "Q1s after a one-node write of another label",
    "Q4_w": "Q4 after a one-node write of another label",
    "Q5_w": "Q5 after a one-node write of another label",
    "Q1s_wu": "Q1s after a property update on :Person",
    "Q4_wu": "Q4 after a property update on :Person",
    "Q5_wu": "Q5 after a property update on :Person",
    "Q8_one": "1,000 single-node writes, one statement each (total)",
    "Q8_unwind": "1,000 nodes in one UNWIND statement",
    "load": "(the whole graph, once)",
}
KIND = {"Q1i": "point", "Q2": "point", "Q3": "point", "Q6": "point", "Q7": "point",
        "Q1s": "scan", "Q4": "scan", "Q5": "scan", "Q8_one": "write", "Q8_unwind": "write",
        "load": "write", "Q1s_w": "mixed", "Q4_w": "mixed", "Q5_w": "mixed", "Q1s_wu": "mixed",
        "Q4_wu": "mixed", "Q5_wu": "mixed"}

CYPHER = {
    "Q1i": "MATCH (p:Person {id: $id}) RETURN p.name AS name",
    "Q1s": "MATCH (p:Person {name: $name}) RETURN p.id AS id",
    "Q2": "MATCH (p:Person {id: $id})-[:KNOWS]->(f:Person) RETURN f.id AS id",
    "Q3": "MATCH (p:Person {id: $id})-[:KNOWS]->(:Person)-[:KNOWS]->(f:Person) "
          "WHERE f.id <> $id RETURN count(DISTINCT f) AS n",
    "Q4": "MATCH (p:Person) RETURN p.city AS city, count(*) AS n ORDER BY n DESC, city",
    "Q5": "MATCH (p:Person) WHERE p.city = $city AND p.age >= $age "
          "RETURN p.id AS id, p.age AS age ORDER BY age DESC, id LIMIT 10",
    "Q6": "MATCH (p:Person {id: $id})-[:KNOWS*1..3]->(f:Person) RETURN count(f) AS n",
    "Q7": "MATCH p = shortestPath((a:Person {id: $a})-[:KNOWS*..10]->(b:Person {id: $b})) "
          "RETURN length(p) AS len",
}
KUZU = dict(CYPHER)
KUZU.update({
    "Q6": "MATCH (p:Person {id: $id})-[:KNOWS* TRAIL 1..3]->(f:Person) RETURN count(f) AS n",
    "Q7": "MATCH p = (a:Person {id: $a})-[:KNOWS* SHORTEST 1..10]->(b:Person {id: $b}) "
          "RETURN length(p) AS len",
})

CREATE_ONE = "CREATE (:Person {id: $id, name: $name, age: $age, city: $city})"
CREATE_UNWIND = ("UNWIND $rows AS r "
                 "CREATE (:Person {id: r.id, name: r.name, age: r.age, city: r.city})")
CREATE_OTHER = "CREATE (:Post {id: $id, title: $title})"
UPDATE_SCANNED = "MATCH (p:Person {id: $id}) SET p.age = $age"
COUNT_RANGE = "MATCH (p:Person) WHERE p.id >= $lo AND p.id < $hi RETURN count(*) AS n"


def mixed_base(query: str) -> tuple[str, str]:
    """A writes-between-reads query -> (the read it times, "other" or "update")."""
    base, _, variant = query.partition("_")
    return base, "other" if variant == "w" else "update"


def canonical(query: str, rows: list[tuple]):
    """Rows (tuples in RETURN order) -> the comparable answer of `query`."""
    if query in ("Q1i", "Q1s", "Q2"):
        return sorted(r[0] for r in rows)
    if query in ("Q3", "Q6"):
        return rows[0][0] if rows else 0
    if query == "Q7":
        return rows[0][0] if rows else None
    if query in ("Q4", "Q5"):
        return [list(r) for r in rows]
    raise KeyError(query)
