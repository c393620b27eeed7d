"""The graph -> a kglite graph (Rust, PyO3; in memory, or a `.kgl` file with its write-ahead log), loaded in Cypher.

kglite documents Cypher `UNWIND` batches and its own `create_index(type, property)` as the way in;
that is what relate's engine does too, so load times compare like for like.  kglite gives every
node `id`, `title` and `type` properties of its own (`title` copied from `name`, `type` from the
label): the answers are compared on the benchmark's own properties only, which every query
returns, so nothing needs translating.  On disk, `kglite.open(path)` keeps its default
`durable="full"` (a barrier per commit), as relate's directory store syncs every commit.
"""
from __future__ import annotations

import os

import kglite

from queries import COUNT_RANGE, CREATE_ONE, CREATE_UNWIND, CYPHER, READ_QUERIES

BATCH = 5000
NODE_LOADS = (
    ("Person", "UNWIND $rows AS r CREATE (:Person {id: r.id, name: r.name, age: r.age, city: r.city})"),
    ("Post", "UNWIND $rows AS r CREATE (:Post {id: r.id, title: r.title})"),
)
REL_LOADS = (
    ("knows", "UNWIND $rows AS r MATCH (a:Person {id: r.a}), (b:Person {id: r.b}) "
              "CREATE (a)-[:KNOWS {since: r.s}]->(b)"),
    ("created", "UNWIND $rows AS r MATCH (a:Person {id: r.a}), (b:Post {id: r.b}) CREATE (a)-[:CREATED]->(b)"),
    ("likes", "UNWIND $rows AS r MATCH (a:Person {id: r.a}), (b:Post {id: r.b}) CREATE (a)-[:LIKES]->(b)"),
)


class Engine:
    supports = READ_QUERIES

    def __init__(self, path: str | None) -> None:
        self.name = "kglite" if path is not None else "kglite-mem"
        self.path = os.path.join(path, "graph.kgl") if path is not None else None
        self._open()

    def _open(self) -> None:
        self.g = kglite.open(self.path) if self.path is not None else kglite.KnowledgeGraph()

    def _rows(self, text: str, params: dict | None = None) -> list[tuple]:
        return [tuple(r.values()) for r in self.g.cypher(text, params=params or {})]

    def load(self, g) -> None:
        cypher = self.g.cypher
        rows = {
            "Person": [{"id": i, "name": n, "age": a, "city": c} for i, n, a, c in g.persons],
            "Post": [{"id": i, "title": t} for i, t in g.posts],
        }
        for label, text in NODE_LOADS:
            for i in range(0, len(rows[label]), BATCH):
                cypher(text, params={"rows": rows[label][i:i + BATCH]})
            self.g.create_index(label, "id")
        rels = {
            "knows": [{"a": a, "b": b, "s": s} for a, b, s in g.knows],
            "created": [{"a": a, "b": b} for a, b in g.created],
            "likes": [{"a": a, "b": b} for a, b in g.likes],
        }
        for name, text in REL_LOADS:
            for i in range(0, len(rels[name]), BATCH):
                cypher(text, params={"rows": rels[name][i:i + BATCH]})
        if self.path is not None:
            self.g.save()

    def query(self, name: str, params: dict) -> list[tuple]:
        return self._rows(CYPHER[name], params)

    def write_one(self, rows: list[dict]) -> None:
        cypher = self.g.cypher
        for r in rows:
            cypher(CREATE_ONE, params=r)

    def write_unwind(self, rows: list[dict]) -> None:
        self.g.cypher(CREATE_UNWIND, params={"rows": rows})

    def count_range(self, lo: int, hi: int) -> int:
        return self._rows(COUNT_RANGE, {"lo": lo, "hi": hi})[0][0]

    def reopen(self) -> None:
        self.close()
        self._open()

    def close(self) -> None:
        self.g.close()
