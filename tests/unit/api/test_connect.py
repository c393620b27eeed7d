"""Opening stores through `relate.connect`: another open reads a file back, read-only opens never
create, a damaged file is refused; the plan cache outcome each `execute` reports."""
from __future__ import annotations

import os

import pytest

import relate
from relate.errors import ReadOnlyError, StorageError
from tests.conftest import TEAM


def test_plan_cache_outcomes(db):
    assert db.execute("RETURN 1 AS x").plan_cache == "miss"
    assert db.execute("RETURN 1 AS x").plan_cache == "hit-raw-fastpath"
    assert db.execute("RETURN 1  AS x").plan_cache == "miss"


def test_a_store_is_read_back_by_another_open(durable_path):
    path = durable_path
    relate.connect(path).execute(TEAM)
    again = relate.connect(path, read_only=True)
    assert again.execute("MATCH (p:Person) RETURN p.name ORDER BY p.name").rows == [("Ada",), ("Grace",), ("Noor",)]
    with pytest.raises(ReadOnlyError):
        again.execute("CREATE (:X)")


@pytest.mark.parametrize("name", ["missing.rl", "missing"])  # a file store, a directory store
def test_read_only_open_never_creates(tmp_path, name):
    with pytest.raises(StorageError) as e:
        relate.connect(str(tmp_path / name), read_only=True)
    assert e.value.message == f"storage error: database not found: {tmp_path / name}"
    assert list(tmp_path.iterdir()) == []


def test_damaged_file_is_refused(tmp_path):
    path = tmp_path / "g.rl"
    relate.connect(str(path)).execute("CREATE (:A {x: 1})")
    raw = path.read_bytes()
    path.write_bytes(raw[:40] + bytes([raw[40] ^ 1]) + raw[41:])  # inside the snapshot, not a torn tail
    with pytest.raises(StorageError) as e:
        relate.connect(str(path))
    assert "checksum" in e.value.message


def test_opening_a_store_twice_in_one_process_says_so(durable_path):
    from relate.errors import LockedStoreError
    first = relate.connect(durable_path)
    first.execute("CREATE (:A)")
    with pytest.raises(LockedStoreError) as e:
        relate.connect(durable_path)
    assert e.value.kind == "AlreadyOpen"
    assert e.value.message == (f"storage error: database is already open for writing in this process: {durable_path}; "
                               "use that connection, or close it before opening the store again")
    with relate.connect(durable_path, read_only=True) as reader:  # readers take no lease
        assert reader.execute("MATCH (n:A) RETURN count(n) AS n").rows == [(1,)]
    first.close()
    with relate.connect(durable_path) as again:  # once closed, the store opens again
        again.execute("CREATE (:B)")


def test_a_second_open_by_another_spelling_of_the_path_is_still_this_process(durable_path, tmp_path, monkeypatch):
    from relate.errors import LockedStoreError
    with relate.connect(durable_path):
        monkeypatch.chdir(tmp_path)
        link = tmp_path / ("link.rl" if durable_path.endswith(".rl") else "link")
        link.symlink_to(durable_path)
        for other in (os.path.relpath(durable_path), str(link)):
            with pytest.raises(LockedStoreError) as e:
                relate.connect(other)
            assert e.value.kind == "AlreadyOpen"
