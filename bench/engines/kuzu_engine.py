"""The graph -> a Kuzu or LadybugDB database, on disk or in memory (LadybugDB is a Kuzu fork, same API).

Loading is the path either project documents for bulk data: typed node and relationship tables,
then `COPY ... FROM` CSV files written to a scratch folder.  `module` picks the package; the two
are never imported into one process (the runner starts a process per engine).
"""
from __future__ import annotations

import csv
import importlib
import os
import tempfile

from queries import COUNT_RANGE, CREATE_ONE, CREATE_UNWIND, KUZU, READ_QUERIES

SCHEMA = (
    "CREATE NODE TABLE Person(id INT64, name STRING, age INT64, city STRING, PRIMARY KEY(id))",
    "CREATE NODE TABLE Post(id INT64, title STRING, PRIMARY KEY(id))",
    "CREATE REL TABLE KNOWS(FROM Person TO Person, since INT64)",
    "CREATE REL TABLE CREATED(FROM Person TO Post)",
    "CREATE REL TABLE LIKES(FROM Person TO Post)",
)


class Engine:
    supports = READ_QUERIES

    def __init__(self, module: str, path: str | None) -> None:
        self.mod = importlib.import_module(module)
        self.name = module if path is not None else module + "-mem"
        self.path = os.path.join(path, "db") if path is not None else None
        self._open()

    def _open(self) -> None:
        self.db = self.mod.Database(self.path if self.path is not None else ":memory:")
        self.conn = self.mod.Connection(self.db)

    def _rows(self, text: str, params: dict | None = None) -> list[tuple]:
        result = self.conn.execute(text, params or {})
        rows = []
        while result.has_next():
            rows.append(tuple(result.get_next()))
        return rows

    def load(self, g) -> None:
        for stmt in SCHEMA:
            self.conn.execute(stmt)
        with tempfile.TemporaryDirectory() as tmp:
            for table, rows in (("Person", g.persons), ("Post", g.posts), ("KNOWS", g.knows),
                                ("CREATED", g.created), ("LIKES", g.likes)):
                name = os.path.join(tmp, table + ".csv")
                with open(name, "w", newline="") as f:
                    csv.writer(f).writerows(rows)
                self.conn.execute(f"COPY {table} FROM '{name}' (HEADER=false)")

    def query(self, name: str, params: dict) -> list[tuple]:
        return self._rows(KUZU[name], params)

    def write_one(self, rows: list[dict]) -> None:
        execute = self.conn.execute
        for r in rows:
            execute(CREATE_ONE, r)

    def write_unwind(self, rows: list[dict]) -> None:
        self.conn.execute(CREATE_UNWIND, {"rows": rows})

    def count_range(self, lo: int, hi: int) -> int:
        return self._rows(COUNT_RANGE, {"lo": lo, "hi": hi})[0][0]

    def reopen(self) -> None:
        self.close()
        self._open()

    def close(self) -> None:
        self.conn.close()
        self.db.close()
