"""The graph -> a networkx DiGraph queried through grand-cypher, the pure-Python Cypher peer.

grand-cypher takes no parameters, so each query's literals are written into its text; it has no
`count(DISTINCT x)`, so Q3 returns the distinct friends and their number is the row count; it has
no shortestPath and no writes (Q7 and Q8 are unsupported; networkx's own calls would not be
Cypher).  Labels live in the `__labels__` set attribute, as grand-cypher expects.
"""
from __future__ import annotations

import json

import networkx as nx
from grandcypher import GrandCypher

from queries import canonical


def lit(value) -> str:
    return json.dumps(value)


TEXT = {
    "Q1i": lambda p: f"MATCH (p:Person {{id: {lit(p['id'])}}}) RETURN p.name",
    "Q1s": lambda p: f"MATCH (p:Person {{name: {lit(p['name'])}}}) RETURN p.id",
    "Q2": lambda p: f"MATCH (p:Person {{id: {lit(p['id'])}}})-[:KNOWS]->(f:Person) RETURN f.id",
    "Q3": lambda p: (f"MATCH (p:Person {{id: {lit(p['id'])}}})-[:KNOWS]->(m:Person)-[:KNOWS]->(f:Person) "
                     f"WHERE f.id <> {lit(p['id'])} RETURN DISTINCT f.id"),
    "Q4": lambda p: "MATCH (p:Person) RETURN p.city, COUNT(p)",
    "Q5": lambda p: (f"MATCH (p:Person) WHERE p.city = {lit(p['city'])} AND p.age >= {lit(p['age'])} "
                     "RETURN p.id, p.age ORDER BY p.age DESC, p.id LIMIT 10"),
    "Q6": lambda p: f"MATCH (p:Person {{id: {lit(p['id'])}}})-[:KNOWS*1..3]->(f:Person) RETURN f.id",
}


class Engine:
    name = "grand-cypher"
    supports = tuple(TEXT)

    def load(self, g) -> None:
        host = nx.DiGraph()
        host.add_nodes_from((i, {"__labels__": {"Person"}, "id": i, "name": n, "age": a, "city": c})
                            for i, n, a, c in g.persons)
        host.add_nodes_from((i, {"__labels__": {"Post"}, "id": i, "title": t}) for i, t in g.posts)
        host.add_edges_from((a, b, {"__labels__": {"KNOWS"}, "since": s}) for a, b, s in g.knows)
        host.add_edges_from((a, b, {"__labels__": {"CREATED"}}) for a, b in g.created)
        host.add_edges_from((a, b, {"__labels__": {"LIKES"}}) for a, b in g.likes)
        self.host = host

    def query(self, name: str, params: dict) -> list[tuple]:
        res = GrandCypher(self.host).run(TEXT[name](params))
        cols = list(res.values())
        rows = list(zip(*cols)) if cols else []
        if name == "Q3":
            return [(len(rows),)]
        if name == "Q6":
            return [(len(rows),)]
        if name == "Q4":
            return sorted(rows, key=lambda r: (-r[1], r[0]))
        return rows

    def write_one(self, rows):
        raise NotImplementedError("grand-cypher has no CREATE")

    write_unwind = write_one

    def count_range(self, lo, hi):
        raise NotImplementedError

    def close(self) -> None:
        pass
