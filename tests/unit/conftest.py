"""The engine suites run on every store kind: `db` (and `team`, built on it) is parametrized over
`:memory:`, a `.rl` file store and a directory store, each in the test's `tmp_path`.

`reopen(conn)` is the restart step (as in DuckDB's logic tests): it closes the connection and opens
the same store again, so what a test reads afterwards came back from disk.  In memory nothing
survives a close, so there it hands the same connection back.  `team` reopens after loading the
team graph, so every read on it on a durable store reads a recovered graph.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import relate
from relate.database import Database
from tests.conftest import TEAM

STORE_KINDS = ("memory", "file", "directory")


def store_path(kind: str, folder: Path) -> str:
    """Where a store of `kind` lives inside `folder` (`folder` is not touched for memory)."""
    if kind == "memory":
        return ":memory:"
    return str(folder / ("graph.rl" if kind == "file" else "graph"))


class Opened:
    """The store one test works on, and every connection opened on it (closed at teardown)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.conns: list[Database] = []

    def connect(self, **options) -> Database:
        conn = relate.connect(self.path, **options)
        self.conns.append(conn)
        return conn

    def reopen(self, conn: Database) -> Database:
        if self.path == ":memory:":
            return conn
        conn.close()
        return self.connect()

    def close(self) -> None:
        for conn in self.conns:
            conn.close()


@pytest.fixture(params=STORE_KINDS)
def store(request) -> Iterator[Opened]:
    folder = request.getfixturevalue("tmp_path") if request.param != "memory" else Path()
    opened = Opened(store_path(request.param, folder))
    yield opened
    opened.close()


@pytest.fixture
def db(store: Opened) -> Database:
    return store.connect()


@pytest.fixture
def reopen(store: Opened) -> Callable[[Database], Database]:
    return store.reopen


@pytest.fixture
def team(db: Database, reopen) -> Database:
    db.execute(TEAM)
    return reopen(db)


@pytest.fixture(scope="module", params=STORE_KINDS)
def module_store(request, tmp_path_factory) -> Iterator[Opened]:
    """A store kept for a whole module (read-only suites over one prepared graph)."""
    folder = tmp_path_factory.mktemp("store") if request.param != "memory" else Path()
    opened = Opened(store_path(request.param, folder))
    yield opened
    opened.close()


@pytest.fixture(params=("file", "directory"))
def durable_path(request, tmp_path) -> str:
    """The path of a store that outlives its connection (the `.rl` file and the directory kind)."""
    return store_path(request.param, tmp_path)
