"""The graph -> a relate database (in memory or a directory store), loaded and queried in Cypher.

Loading is what a user would write: schema statements for the two id indexes, then `UNWIND $rows`
batches of nodes and of relationships, each relationship batch finding its endpoints through the
index on `id`.
"""
from __future__ import annotations

import relate

from queries import (COUNT_RANGE, CREATE_ONE, CREATE_OTHER, CREATE_UNWIND, CYPHER, READ_QUERIES,
                     UPDATE_SCANNED)

BATCH = 5000
KNOWS_LOAD = ("UNWIND $rows AS r MATCH (a:Person {id: r.a}), (b:Person {id: r.b}) "
              "CREATE (a)-[:KNOWS {since: r.s}]->(b)")


class Engine:
    supports = READ_QUERIES

    def __init__(self, path: str = ":memory:") -> None:
        self.path = None if path == ":memory:" else path
        self.name = "relate-mem" if self.path is None else "relate-dir"
        self.db = relate.connect(path)

    def load(self, g) -> None:
        db = self.db
        db.execute("CREATE INDEX person_id FOR (p:Person) ON (p.id)")
        db.execute("CREATE INDEX post_id FOR (p:Post) ON (p.id)")
        batches(db, "UNWIND $rows AS r CREATE (:Person {id: r.id, name: r.name, age: r.age, city: r.city})",
                [{"id": i, "name": n, "age": a, "city": c} for i, n, a, c in g.persons])
        batches(db, "UNWIND $rows AS r CREATE (:Post {id: r.id, title: r.title})",
                [{"id": i, "title": t} for i, t in g.posts])
        batches(db, KNOWS_LOAD, [{"a": a, "b": b, "s": s} for a, b, s in g.knows])
        batches(db, "UNWIND $rows AS r MATCH (a:Person {id: r.a}), (b:Post {id: r.b}) "
                    "CREATE (a)-[:CREATED]->(b)", [{"a": a, "b": b} for a, b in g.created])
        batches(db, "UNWIND $rows AS r MATCH (a:Person {id: r.a}), (b:Post {id: r.b}) "
                    "CREATE (a)-[:LIKES]->(b)", [{"a": a, "b": b} for a, b in g.likes])

    def query(self, name: str, params: dict) -> list[tuple]:
        return self.db.execute(CYPHER[name], params).rows

    def write_other(self, id: int, title: str) -> None:
        """One node of another label than the scans read (writes between reads)."""
        self.db.execute(CREATE_OTHER, {"id": id, "title": title})

    def write_update(self, id: int, age: int) -> None:
        """One :Person's age set (writes between reads)."""
        self.db.execute(UPDATE_SCANNED, {"id": id, "age": age})

    def write_one(self, rows: list[dict]) -> None:
        execute = self.db.execute
        for r in rows:
            execute(CREATE_ONE, r)

    def write_unwind(self, rows: list[dict]) -> None:
        self.db.execute(CREATE_UNWIND, {"rows": rows})

    def count_range(self, lo: int, hi: int) -> int:
        return self.db.execute(COUNT_RANGE, {"lo": lo, "hi": hi}).rows[0][0]

    def load_plan(self) -> str:
        """The operators of the KNOWS load statement, top down (shows whether it seeks the index)."""
        ops = []
        plan = self.db.execute("EXPLAIN " + KNOWS_LOAD, {"rows": []}).plan
        while plan is not None:
            ops.append(f"{plan.operator} {plan.details}".strip())
            plan = plan.children[0] if plan.children else None
        return " <- ".join(ops)

    def reopen(self) -> None:
        self.db.close()
        self.db = relate.connect(self.path)

    def close(self) -> None:
        self.db.close()


def batches(db, text: str, rows: list[dict]) -> None:
    for i in range(0, len(rows), BATCH):
        db.execute(text, {"rows": rows[i:i + BATCH]})
