"""`gc_pause.paused` turns the cyclic collector off for its block only, and leaves a collector the
caller had switched off as it was."""
from __future__ import annotations

import gc

from relate.gc_pause import paused


def test_the_collector_is_off_inside_and_on_again_after():
    assert gc.isenabled()
    with paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_the_caller_switched_off_stays_off():
    gc.disable()
    try:
        with paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_collector_comes_back_when_the_block_raises():
    try:
        with paused():
            raise KeyError("x")
    except KeyError:
        pass
    assert gc.isenabled()


# ---- write statements (`Database.run`): collector off while one runs, a large one's entities frozen

import weakref  # noqa: E402

import pytest  # noqa: E402

import relate  # noqa: E402
from relate import gc_pause  # noqa: E402
from relate.errors import RelateError  # noqa: E402

LOAD = "UNWIND range(1, 20000) AS i CREATE (:A {i: i})-[:R]->(:B)"


@pytest.fixture(autouse=True)
def _thawed():
    yield
    gc_pause.release()
    gc.unfreeze()
    gc.enable()


def test_a_large_write_keeps_its_entities_out_of_later_collections():
    db = relate.connect()
    gc.unfreeze()
    db.execute(LOAD)
    assert gc.get_freeze_count() > 40_000  # the new nodes and relationships, at least
    assert gc.isenabled()
    db.close()


def test_a_small_write_freezes_nothing():
    db = relate.connect()
    gc.unfreeze()
    db.execute("CREATE (:A {i: 1})-[:R]->(:B)")
    assert gc.get_freeze_count() == 0
    db.close()


def test_deleting_gives_the_frozen_entities_back_to_the_collector():
    db = relate.connect()
    db.execute(LOAD)
    assert gc.get_freeze_count() > 0
    db.execute("MATCH (n:B) DETACH DELETE n")
    assert gc.get_freeze_count() == 0  # the deleted entities' cycles can be collected again
    db.close()


def test_a_database_dropped_after_a_large_write_is_collected_once_another_opens():
    db = relate.connect()
    db.execute(LOAD)
    graph = weakref.ref(db.graph)
    del db
    relate.connect().close()
    gc.collect()
    assert graph() is None


def test_a_failing_large_write_is_rolled_back_and_frozen_nowhere():
    db = relate.connect()
    gc.unfreeze()
    with pytest.raises(RelateError):
        db.execute("UNWIND range(1, 20000) AS i CREATE (:A {i: 1 / (i - 19999)})")
    assert gc.isenabled() and gc.get_freeze_count() == 0
    assert db.execute("MATCH (n) RETURN count(n)").rows == [(0,)]
    db.close()


def test_a_write_stopped_by_its_time_limit_turns_the_collector_back_on():
    db = relate.connect()
    with pytest.raises(RelateError):
        db.execute("UNWIND range(1, 100000000) AS i CREATE (:A {i: i})", timeout=0.05)
    assert gc.isenabled()
    db.close()


def test_a_write_leaves_a_collector_the_caller_switched_off_as_it_was():
    db = relate.connect()
    gc.disable()
    db.execute(LOAD)
    assert not gc.isenabled()
    db.close()


def test_a_cached_write_runs_with_the_collector_off_too():
    # the second run of a statement takes the cached plan's short path (`lean_run.py`); the
    # collector must be off there as well, or a load of many batches walks the growing graph
    db = relate.connect()
    batch = "UNWIND $rows AS i CREATE (:A {i: i})"
    db.execute(batch, {"rows": list(range(10))})
    passes = []

    def count(phase, info):
        if phase == "start":
            passes.append(info["generation"])

    old = gc.get_threshold()
    gc.set_threshold(50)
    gc.callbacks.append(count)
    try:
        db.execute(batch, {"rows": list(range(5000))})
    finally:
        gc.callbacks.remove(count)
        gc.set_threshold(*old)
    # without the pause this is some hundreds of passes (5,000 nodes at a threshold of 50); the
    # one allowed may start once the collector is back on, from the reply's own objects
    assert len(passes) <= 1
    assert gc.isenabled()
    db.close()
