"""A live reader follows its writer through appends, checkpoints and a writer's crash and recovery."""
from __future__ import annotations

import pytest

import relate
from relate.errors import ReadOnlyError
from relate.storage import dirstore


def count(db) -> list:
    return db.execute("MATCH (n:N) RETURN count(n) AS c, max(n.i) AS top").rows


def test_live_reader_follows_appends_checkpoints_and_a_new_writer(tmp_path, monkeypatch):
    path = str(tmp_path / "d")
    writer = relate.connect(path)
    writer.execute("CREATE (:N {i: 0})")
    reader = relate.connect(path, live=True)
    plain = relate.connect(path, read_only=True)
    assert count(reader) == [(1, 0)]

    writer.execute("CREATE (:N {i: 1})")
    assert count(reader) == [(2, 1)]
    assert count(plain) == [(1, 0)]  # a plain read-only open keeps the commit it opened at

    # several checkpoints between two reads: the segments the reader never saw are gone
    monkeypatch.setattr(dirstore, "CHECKPOINT_MIN_BYTES", 300)
    writer.close()
    writer = relate.connect(path)
    for i in range(2, 40):
        writer.execute("CREATE (:N {i: $i, pad: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'})", {"i": i})
    assert writer.store.snap_seq > 30
    assert count(reader) == [(40, 39)]

    # the writer dies halfway through an append; the next writer cuts the torn bytes and goes on
    writer.execute("CREATE INDEX FOR (n:N) ON (n.i)")
    seg = writer.store.segment
    seg.write_at(writer.store.segment_end, b"T\x03\x00\x00\x09\x00torn")
    writer.close()
    assert count(reader) == [(40, 39)]
    writer = relate.connect(path)
    writer.execute("CREATE (:N {i: 40})")
    assert count(reader) == [(41, 40)]
    assert reader.execute("MATCH (n:N {i: 7}) RETURN n.i").rows == [(7,)]
    assert list(reader.graph.indexes) == ["relate_N__i"]
    writer.close()
    reader.close()
    plain.close()


def test_live_reader_refuses_to_write(tmp_path):
    path = str(tmp_path / "d")
    relate.connect(path).close()
    reader = relate.connect(path, live=True)
    with pytest.raises(ReadOnlyError) as e:
        reader.execute("CREATE (:N)")
    assert e.value.message == "read-only: the store is open read-only; this statement writes"
