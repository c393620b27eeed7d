"""What a store keeps across reopen and clone, and how it refuses damage it must not skip."""
from __future__ import annotations

import math
import os
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import relate
from relate.cli.main import run
from relate.errors import StorageError, StoreRecoveryWarning
from relate.storage import dirstore, filestore, frames
from relate.storage.copy import clone_store
from relate.storage.store import open_store

from .test_fault_injection import canon

WRITES = [
    "CREATE (a:Person:Admin {name: 'Ada', age: 36, score: 1.5, tags: ['x', 'y'], ok: true, zero: -0.0}), "
    "(b:Person {name: 'Grüße ✓', nums: [1, 2, 3]}), (a)-[:KNOWS {since: 2020, w: 0.5}]->(b)",
    "CREATE INDEX FOR (p:Person) ON (p.name)",
    "MATCH (p:Person {name: 'Ada'}) SET p.inf = 1.0/0.0, p.nan = 0.0/0.0 REMOVE p.score SET p.score = 2.5",
    "MATCH (b:Person {name: 'Grüße ✓'}) SET b:Extra REMOVE b:Person CREATE (b)-[:SELF]->(b)",
    "CREATE (t:Temp) WITH t DELETE t",
    "MATCH ()-[r:SELF]->() DELETE r",
]


def build(path: str) -> str:
    db = relate.connect(path)
    for w in WRITES:
        db.execute(w)
    state = canon(db.graph)
    db.close()
    return state


@pytest.mark.parametrize("name", ["g.rl", "gdir"])
def test_everything_a_user_sees_survives_reopen(tmp_path, name):
    path = str(tmp_path / name)
    state = build(path)
    db = relate.connect(path)
    assert canon(db.graph) == state
    ada = db.execute("MATCH (p:Person {name: 'Ada'}) RETURN p.inf AS inf, p.nan AS nan, keys(p) AS k, id(p) AS i").rows
    assert ada[0][0] == math.inf and math.isnan(ada[0][1]) and ada[0][3] == 0
    assert ada[0][2] == ["name", "age", "tags", "ok", "zero", "inf", "nan", "score"]  # property order kept
    assert list(db.graph.indexes) == ["relate_Person__name"]
    # ids continue after the ones handed out before (the deleted :Temp's id is not reused)
    assert db.execute("CREATE (n:New) RETURN id(n)").rows == [(3,)]
    db.close()


@pytest.mark.parametrize("src_kind", ["g.rl", "gdir"])
@pytest.mark.parametrize("dst_kind", ["copy.rl", "copydir"])
def test_clone_copies_any_kind_into_any_other(tmp_path, src_kind, dst_kind):
    src = str(tmp_path / src_kind)
    state = build(src)
    dst = str(tmp_path / dst_kind)
    out, err = _streams()
    assert run(["clone", src, dst], stdout=out, stderr=err) == 0, err.getvalue()
    assert out.getvalue() == f"cloned {src} to {dst}: 2 nodes, 1 relationships, 1 indexes\n"
    back = relate.connect(dst)
    assert canon(back.graph) == state
    back.execute("CREATE (:AfterClone)")  # the copy is a working store of its own kind
    back.close()
    assert canon(relate.connect(src, read_only=True).graph) == state
    # and back again, into the other kind
    again = str(tmp_path / ("again" if dst_kind.endswith(".rl") else "again.rl"))
    clone_store(dst, again)
    assert canon(relate.connect(again, read_only=True).graph) == canon(relate.connect(dst, read_only=True).graph)


def _streams():
    import io
    return io.StringIO(), io.StringIO()


def test_clone_refuses_an_existing_destination_and_a_missing_source(tmp_path):
    src = str(tmp_path / "s.rl")
    build(src)
    (tmp_path / "taken").mkdir()
    out, err = _streams()
    assert run(["clone", src, str(tmp_path / "taken")], stdout=out, stderr=err) == 1
    taken = tmp_path / "taken"
    assert err.getvalue() == f"Error: clone failed: storage error: the destination already exists: {taken}\n"
    out, err = _streams()
    assert run(["clone", str(tmp_path / "none"), str(tmp_path / "x.rl")], stdout=out, stderr=err) == 1
    assert err.getvalue() == f"Error: Failed to open Relate: storage error: database not found: {tmp_path / 'none'}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".s.rl.commit", "s.rl", "taken"]  # nothing new


def _three_commits(path: str) -> None:
    db = relate.connect(path)
    for i in range(3):
        db.execute("CREATE (:N {i: $i})", {"i": i})
    db.close()


def _flip(path: Path, offset: int) -> None:
    raw = bytearray(path.read_bytes())
    raw[offset] ^= 0x01
    path.write_bytes(bytes(raw))


def test_damage_in_the_middle_of_the_wal_is_refused_not_skipped(tmp_path):
    path = str(tmp_path / "d")
    _three_commits(path)
    seg = next((tmp_path / "d" / "wal").iterdir())
    _flip(seg, len(frames.header(frames.WAL_MAGIC)) + frames.HEAD_SIZE + 3)  # inside the first record
    for read_only in (True, False):
        with pytest.raises(StorageError) as e:
            relate.connect(path, read_only=read_only)
        assert e.value.kind == "Corrupt" and "refusing to skip" in e.value.message


def test_damage_in_the_middle_of_a_rl_file_is_refused(tmp_path):
    path = tmp_path / "g.rl"
    _three_commits(str(path))
    raw = path.read_bytes()
    first_txn = raw.index(b"T\x03")
    _flip(path, first_txn + frames.HEAD_SIZE + 2)
    with pytest.raises(StorageError) as e:
        relate.connect(str(path))
    assert e.value.kind == "Corrupt" and "refusing to skip" in e.value.message


def _last_record(path: Path) -> Path:
    return path if path.name.endswith(".rl") else next((path / "wal").iterdir())


@pytest.mark.parametrize("name", ["g.rl", "d"])
def test_a_cut_in_the_last_acknowledged_record_is_refused_not_dropped(tmp_path, name):
    path = tmp_path / name
    _three_commits(str(path))
    target = _last_record(path)
    raw = target.read_bytes()
    target.write_bytes(raw[:-5])  # the last commit was acknowledged: this is damage, not a torn append
    end = raw.rindex(b"T\x03")
    for read_only in (True, False):
        with pytest.raises(StorageError) as e:
            relate.connect(str(path), read_only=read_only)
        assert e.value.kind == "Corrupt"
        assert e.value.detail.startswith(f"{target}: the {len(raw) - 5 - end} bytes from offset {end} do not form "
                                         f"a valid transaction record, and transactions up to 3 were "
                                         f"acknowledged while the readable ones end at 2")
        assert f"truncate -s {end} {target}" in e.value.detail
    assert target.read_bytes() == raw[:-5]  # nothing was cut
    # the way out the message gives: cut at the offset and delete the commit record
    target.write_bytes(raw[:end])
    (path / "lock" if name == "d" else tmp_path / ".g.rl.commit").unlink()
    assert relate.connect(str(path)).execute("MATCH (n:N) RETURN count(n)").rows == [(2,)]


@pytest.mark.parametrize("name", ["g.rl", "d"])
def test_a_whole_acknowledged_record_cut_away_is_refused(tmp_path, name):
    path = tmp_path / name
    _three_commits(str(path))
    target = _last_record(path)
    raw = target.read_bytes()
    end = raw.rindex(b"T\x03")
    target.write_bytes(raw[:end])  # at a record boundary: the file looks whole
    with pytest.raises(StorageError) as e:
        relate.connect(str(path), read_only=True)
    assert e.value.detail.startswith(f"{target} ends at offset {end} after transaction 2, but transactions up "
                                     f"to 3 were acknowledged")


@pytest.mark.parametrize("name", ["g.rl", "d"])
def test_an_interrupted_append_is_set_aside_reported_and_the_store_goes_on(tmp_path, name):
    path = tmp_path / name
    _three_commits(str(path))
    target = _last_record(path)
    raw = target.read_bytes()
    torn = frames.frame(frames.TXN, b'{"seq":4}')[:-3]  # the next commit, cut short: never acknowledged
    target.write_bytes(raw + torn)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert relate.connect(str(path), read_only=True).execute("MATCH (n:N) RETURN count(n)").rows == [(3,)]
    assert not caught  # the reader ignores it: every acknowledged commit is there
    assert target.read_bytes() == raw + torn  # and leaves it alone
    with pytest.warns(StoreRecoveryWarning) as caught:
        db = relate.connect(str(path))
    (message,) = [str(w.message) for w in caught]
    kept = [p for p in (tmp_path if name.endswith(".rl") else path).iterdir() if ".torn-4-" in p.name
            or p.name.startswith("torn-4-")]
    assert len(kept) == 1 and kept[0].read_bytes() == torn
    assert message == (f"{target}: set aside {len(torn)} bytes from offset {len(raw)}: an interrupted write, not "
                       f"an acknowledged transaction (the store holds every acknowledged one, up to 3); they "
                       f"are kept in {kept[0].name}")
    assert target.read_bytes() == raw
    db.execute("CREATE (:N {i: 9})")
    db.close()
    rows = relate.connect(str(path), read_only=True).execute("MATCH (n:N) RETURN n.i ORDER BY n.i").rows
    assert rows == [(0,), (1,), (2,), (9,)]


def test_a_store_without_a_commit_record_drops_a_torn_tail_as_before_but_reports_and_keeps_it(tmp_path):
    path = tmp_path / "g.rl"
    _three_commits(str(path))
    (tmp_path / ".g.rl.commit").unlink()  # a copy of the file alone, or a store an older relate wrote
    raw = path.read_bytes()
    path.write_bytes(raw[:-5])
    with pytest.warns(StoreRecoveryWarning, match="keeps no record of its last acknowledged transaction"):
        assert relate.connect(str(path), read_only=True).execute("MATCH (n:N) RETURN count(n)").rows == [(2,)]
    with pytest.warns(StoreRecoveryWarning, match=r"they are kept in g\.rl\.torn-3-"):
        relate.connect(str(path)).close()
    (kept,) = tmp_path.glob("g.rl.torn-3-*")
    assert path.read_bytes() + kept.read_bytes() == raw[:-5]


@pytest.mark.parametrize("name,file,magic", [("g.rl", "g.rl", b"RELATE-STORE"),
                                             ("d", "d/relate.store", b"RELATE-DIRECTORY")])
def test_a_newer_format_is_refused_with_a_clear_error(tmp_path, name, file, magic):
    path = tmp_path / name
    _three_commits(str(path))
    target = tmp_path / file
    raw = target.read_bytes()
    target.write_bytes(raw.replace(magic + b" 3\n", magic + b" 4\n", 1))
    for read_only in (True, False):
        with pytest.raises(StorageError) as e:
            relate.connect(str(path), read_only=read_only)
        assert e.value.kind == "FormatVersion"
        assert e.value.message == (f"storage error: store format 4 is newer than this relate reads (3); open it "
                                   f"with a newer relate: {path}")
    assert target.read_bytes() == raw.replace(magic + b" 3\n", magic + b" 4\n", 1)


def test_checkpoints_retire_the_wal_they_cover(tmp_path, monkeypatch):
    monkeypatch.setattr(dirstore, "CHECKPOINT_MIN_BYTES", 2000)
    path = str(tmp_path / "d")
    db = relate.connect(path)
    store = db.store
    for i in range(200):
        db.execute("CREATE (:N {i: $i, pad: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'})", {"i": i})
    names = sorted(os.listdir(path))
    assert [n for n in names if n.startswith("snapshot-")] == [f"snapshot-{store.snap_seq:020d}.rl"]
    assert store.snap_seq > 100
    assert len(os.listdir(os.path.join(path, "wal"))) <= 1
    store.close()
    assert relate.connect(path, read_only=True).execute("MATCH (n:N) RETURN count(n), sum(n.i)").rows == [(200, 19900)]


def test_a_rl_file_compacts_into_one_snapshot(tmp_path, monkeypatch):
    monkeypatch.setattr(filestore, "COMPACT_MIN_BYTES", 2000)
    path = str(tmp_path / "g.rl")
    db = relate.connect(path)
    store = db.store
    for i in range(200):
        db.execute("CREATE (:N {i: $i, pad: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'})", {"i": i})
    store.close()
    assert sorted(os.listdir(tmp_path)) == [".g.rl.commit", "g.rl"]  # one file at rest, and its commit record
    assert os.path.getsize(path) < 2 * (store.snapshot_bytes + 2000)
    assert relate.connect(path, read_only=True).execute("MATCH (n:N) RETURN count(n), sum(n.i)").rows == [(200, 19900)]


def test_a_failed_commit_rolls_back_and_the_next_one_tries_again(tmp_path):
    path = str(tmp_path / "d")
    db = relate.connect(path)
    db.execute("CREATE (:Kept)")

    class DiskFull:
        def __init__(self, inner):
            self.inner = inner

        def write_at(self, offset, data):
            self.inner.write_at(offset, data[:7])  # part of it lands, then the disk is full
            raise OSError(28, "No space left on device")

        def __getattr__(self, name):
            return getattr(self.inner, name)
    segment = db.store.segment
    db.store.segment = DiskFull(segment)
    with pytest.raises(StorageError) as e:
        db.execute("CREATE (:Lost)")
    assert e.value.message == ("storage error: the write failed and nothing was written (No space left on "
                               "device); the next write tries again")
    assert db.execute("MATCH (n) RETURN labels(n)").rows == [(["Kept"],)]
    with pytest.raises(StorageError):
        db.execute("CREATE (:AlsoLost)")  # the disk is still full
    db.store.segment = segment  # space again: the next commit goes through
    db.execute("CREATE (:Later)")
    db.close()
    rows = relate.connect(path, read_only=True).execute("MATCH (n) RETURN labels(n)").rows
    assert rows == [(["Kept"],), (["Later"],)]


def test_legacy_layouts_open_and_writers_migrate_them(tmp_path):
    from .test_read_only import legacy_rl
    d = tmp_path / "old"
    d.mkdir()
    (d / "snapshot.rl").write_bytes(legacy_rl([1, 2]))
    f = tmp_path / "old.rl"
    f.write_bytes(legacy_rl([3]))
    for path in (d, f):
        db = relate.connect(str(path))
        db.execute("CREATE (:Old {n: 9})")
        db.close()
        assert relate.connect(str(path), read_only=True).execute("MATCH (o:Old) RETURN o.n ORDER BY o.n").rows \
            == ([(1,), (2,), (9,)] if path == d else [(3,), (9,)])
    assert sorted(os.listdir(d)) == ["lock", "relate.store", "snapshot-00000000000000000000.rl", "wal"]
    assert f.read_bytes().startswith(b"RELATE-STORE 3\n")


def test_a_folder_of_other_files_is_not_taken_over(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(StorageError) as e:
        relate.connect(str(tmp_path))
    assert e.value.message == f"storage error: not a relate store (the folder holds other files): {tmp_path}"
    assert os.listdir(tmp_path) == ["notes.txt"]


def test_values_json_cannot_hold_use_the_tagged_form(tmp_path):
    class Point:
        def __init__(self, x, y):
            self.x, self.y = x, y

        def __eq__(self, other):
            return isinstance(other, Point) and (other.x, other.y) == (self.x, self.y)

    frames.register(Point, "test-point", lambda p: [p.x, p.y], lambda v: Point(*v))
    path = str(tmp_path / "d")
    store = open_store(path)
    g = store.graph
    g.begin()
    n = g.create_node(["P"], {"at": Point(1, 2), "many": [Point(3, 4)], "plain": 5})
    store.commit()
    g.end()
    g.begin()
    g.set_prop(n, "later", Point(5, 6))
    store.commit()
    g.end()
    store.close()
    back = open_store(path, read_only=True).graph.nodes[0].props
    assert back == {"at": Point(1, 2), "many": [Point(3, 4)], "plain": 5, "later": Point(5, 6)}


def test_constraints_persist_through_wal_snapshot_and_clone(tmp_path):
    from relate.storage.graph import ConstraintDef, ConstraintKind
    path = str(tmp_path / "d")
    store = open_store(path)
    g = store.graph
    for d in (ConstraintDef("person_key", ConstraintKind.KEY, "Person", ("first", "last")),
              ConstraintDef("gone", ConstraintKind.UNIQUE, "X", ("x",))):
        g.begin()
        g.create_constraint(d)
        store.commit()
        g.end()
    g.begin()
    g.drop_constraint("gone")
    store.commit()
    g.end()
    store.close()
    expected = {"person_key": ConstraintDef("person_key", ConstraintKind.KEY, "Person", ("first", "last"))}
    assert open_store(path, read_only=True).graph.constraints == expected      # replayed from the WAL
    clone_store(path, str(tmp_path / "c.rl"))
    assert open_store(str(tmp_path / "c.rl"), read_only=True).graph.constraints == expected  # from a snapshot


_scalars = (st.none() | st.booleans() | st.integers(-2**63, 2**63 - 1) | st.floats(allow_nan=True)
            | st.text(st.characters(exclude_categories=()), max_size=20))  # lone surrogates too
_values = _scalars.filter(lambda v: v is not None) | st.lists(_scalars.filter(lambda v: v is not None), max_size=4)


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(props=st.dictionaries(st.text(max_size=8), _values, max_size=6))
def test_any_property_map_round_trips_exactly(tmp_path, props):
    for name in ("v.rl", "vdir"):
        path = str(tmp_path / f"{name}-{abs(hash(repr(props)))}")
        store = open_store(path)
        g = store.graph
        g.begin()
        a = g.create_node(["V"], props)
        store.commit()
        g.end()
        g.begin()
        for k, v in props.items():
            g.set_prop(a, k + "!", v)
        store.commit()
        g.end()
        store.close()
        back = open_store(path, read_only=True).graph.nodes[0].props
        want = dict(props, **{k + "!": v for k, v in props.items()})
        assert list(back) == list(want)
        assert all(_same(back[k], want[k]) for k in want)


def test_a_rl_writer_removes_what_a_crashed_compaction_left(tmp_path):
    path = tmp_path / "g.rl"
    _three_commits(str(path))
    (tmp_path / ".g.rl.tmp-999999").write_bytes(b"half a compacted copy")
    assert relate.connect(str(path), read_only=True).execute("MATCH (n:N) RETURN count(n)").rows == [(3,)]
    assert (tmp_path / ".g.rl.tmp-999999").exists()  # readers leave it alone
    relate.connect(str(path)).close()
    assert sorted(os.listdir(tmp_path)) == [".g.rl.commit", "g.rl"]


@pytest.mark.parametrize("name", ["t.rl", "tdir"])
def test_temporal_values_and_points_survive_reopen(tmp_path, name):
    path = str(tmp_path / name)
    query = ("RETURN n.d AS d, n.t AS t, n.z AS z, n.du AS du, n.p AS p, n.l AS l")
    db = relate.connect(path)
    db.execute("CREATE (n:E {d: date('2024-02-29'), t: localtime('12:34:56.789'), "
               "z: datetime('2024-03-31T02:30:00[Europe/Berlin]'), du: duration('P1Y2M3DT4H5M6.5S'), "
               "p: point({longitude: 13.4, latitude: 52.5}), l: [date('2020-01-01'), date('2021-01-01')]})")
    before = db.execute("MATCH (n:E) " + query).rows
    db.execute("MATCH (n:E) SET n.d = n.d + duration('P1D')")  # and once more through the WAL
    before_set = db.execute("MATCH (n:E) " + query).rows
    db.close()
    after = relate.connect(path, read_only=True).execute("MATCH (n:E) " + query).rows
    assert after == before_set and before_set[0][1:] == before[0][1:]
    assert str(after[0][0]) == "2024-03-01"
