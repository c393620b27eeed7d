"""Relationship property maps shared by value (`storage/props.py`): relationships whose int/str
properties are equal hold one map, after creation and after a reopen; a write to one of them
changes only that one; floats and booleans (whose equality crosses types) are never shared."""
from __future__ import annotations

import pytest

import relate


def _maps(db) -> list[dict]:
    g = db.graph
    return [r.props for r in g.rels.values()]


@pytest.mark.parametrize("kind", ["memory", "file", "dir"])
def test_equal_relationship_maps_are_one_map_and_a_write_changes_only_its_own(tmp_path, kind):
    path = {"memory": ":memory:", "file": str(tmp_path / "s.rl"), "dir": str(tmp_path / "s")}[kind]
    db = relate.connect(path)
    db.execute("UNWIND range(1, 50) AS i CREATE (:P {i: i})-[:KNOWS {since: 2000 + i % 3, how: 'work'}]->(:P)")
    maps = _maps(db)
    assert len({id(m) for m in maps}) == 3  # one map per distinct value of since
    db.execute("MATCH (a:P {i: 3})-[r:KNOWS]->() SET r.since = 1999")
    db.execute("MATCH (a:P {i: 6})-[r:KNOWS]->() SET r += {extra: 1}")
    db.execute("MATCH (a:P {i: 9})-[r:KNOWS]->() REMOVE r.how")
    rows = db.execute("MATCH (a:P)-[r:KNOWS]->() WHERE a.i % 3 = 0 RETURN a.i AS i, properties(r) AS p "
                      "ORDER BY i").rows
    assert rows[:4] == [(3, {"since": 1999, "how": "work"}), (6, {"since": 2000, "how": "work", "extra": 1}),
                        (9, {"since": 2000}), (12, {"since": 2000, "how": "work"})]
    assert all(p == {"since": 2000, "how": "work"} for _, p in rows[3:])
    if kind != "memory":
        db.close()
        db = relate.connect(path)
        maps = _maps(db)
        assert len({id(m) for m in maps}) == 3 + 3  # the three written ones have maps of their own
        assert db.execute("MATCH (a:P {i: 3})-[r]->() RETURN r.since").rows == [(1999,)]
    db.close()


def test_a_rolled_back_write_leaves_the_shared_map_as_it_was():
    db = relate.connect(":memory:")
    db.execute("CREATE (:A)-[:R {w: 1}]->(:B), (:A)-[:R {w: 1}]->(:B)")
    with pytest.raises(relate.RelateError):
        db.execute("MATCH ()-[r:R]->() SET r.w = 2 WITH r RETURN 1 / 0")
    assert db.execute("MATCH ()-[r:R]->() RETURN r.w").rows == [(1,), (1,)]


def test_float_and_boolean_maps_are_never_shared():
    db = relate.connect(":memory:")
    db.execute("CREATE (:A)-[:R {w: 1}]->(:B), (:A)-[:R {w: true}]->(:B), (:A)-[:R {w: 1.0}]->(:B), "
               "(:A)-[:R {w: 1.0}]->(:B), (:A)-[:R {w: 1}]->(:B)")
    maps = _maps(db)
    assert maps[0] is maps[4]
    assert len({id(m) for m in maps}) == 4
    assert db.execute("MATCH ()-[r:R]->() RETURN valueType(r.w) AS t").rows == [
        ("INTEGER NOT NULL",), ("BOOLEAN NOT NULL",), ("FLOAT NOT NULL",), ("FLOAT NOT NULL",), ("INTEGER NOT NULL",)]
