"""A damaged format digit in a WAL segment's header (`3` flipped to `2`, which is still a format
relate reads) is refused as damage, not read as an older store (found by the random damage suite)."""
from __future__ import annotations

import os

import pytest

import relate
from relate.errors import StorageError


def test_a_wal_header_naming_an_older_format_than_its_records_is_refused(tmp_path):
    path = str(tmp_path / "d")
    db = relate.connect(path)
    db.execute("CREATE (:T {i: 1})")
    db.close()
    wal = os.path.join(path, "wal")
    seg = os.path.join(wal, sorted(os.listdir(wal))[-1])
    raw = bytearray(open(seg, "rb").read())
    assert raw.startswith(b"RELATE-WAL 3\n")
    raw[11] ^= 1  # '3' -> '2'
    open(seg, "wb").write(bytes(raw))
    for read_only in (True, False):
        with pytest.raises(StorageError) as e:
            relate.connect(path, read_only=read_only)
        assert e.value.kind == "Corrupt" and "older format than its records" in e.value.message
