"""The graph -> a graphdblite database (SQLite underneath; a file or in memory), loaded with its batch API.

graphdblite documents `batch_create_nodes` / `batch_create_edges` inside a write transaction as
its bulk path; indexes come from `create_index`.  Queries are standard Cypher.
"""
from __future__ import annotations

import os

import graphdblite

from queries import COUNT_RANGE, CREATE_ONE, CREATE_UNWIND, CYPHER, READ_QUERIES


class Engine:
    supports = READ_QUERIES

    def __init__(self, path: str | None) -> None:
        self.name = "graphdblite" if path is not None else "graphdblite-mem"
        self.path = os.path.join(path, "graph.db") if path is not None else None
        self.db = (graphdblite.Database(self.path) if path is not None
                   else graphdblite.Database.open_memory())

    def load(self, g) -> None:
        with self.db.begin_write() as tx:
            tx.create_index("Person", "id")
            tx.create_index("Post", "id")
            people = tx.batch_create_nodes("Person", [{"id": i, "name": n, "age": a, "city": c}
                                                      for i, n, a, c in g.persons])
            posts = tx.batch_create_nodes("Post", [{"id": i, "title": t} for i, t in g.posts])
            person = dict(zip((p[0] for p in g.persons), people))
            post = dict(zip((p[0] for p in g.posts), posts))
            tx.batch_create_edges("KNOWS", [(person[a], person[b], {"since": s}) for a, b, s in g.knows])
            tx.batch_create_edges("CREATED", [(person[a], post[b]) for a, b in g.created])
            tx.batch_create_edges("LIKES", [(person[a], post[b]) for a, b in g.likes])
            tx.commit()

    def query(self, name: str, params: dict) -> list[tuple]:
        return [tuple(r.values()) for r in self.db.query(CYPHER[name], params)]

    def write_one(self, rows: list[dict]) -> None:
        execute = self.db.execute
        for r in rows:
            execute(CREATE_ONE, r)

    def write_unwind(self, rows: list[dict]) -> None:
        self.db.execute(CREATE_UNWIND, {"rows": rows})

    def count_range(self, lo: int, hi: int) -> int:
        return self.db.query(COUNT_RANGE, {"lo": lo, "hi": hi})[0]["n"]

    def reopen(self) -> None:
        self.db.close()
        self.db = graphdblite.Database(self.path)

    def close(self) -> None:
        self.db.close()
