"""Power cuts at every kind of moment, on a simulated disk that tears and loses unsynced writes.

Each case runs random transactions against a store on `FaultFs`, cuts the power at a random
changing call, reboots the disk (unsynced data lost, kept or torn) and reopens: the store must hold
exactly the state after some prefix of the transactions, including every acknowledged one.  Then
the recovered store must take further commits and reopen again.
"""
from __future__ import annotations

import json
import os
import random
import re
import warnings

import pytest

from relate.errors import StoreRecoveryWarning
from relate.storage.graph import ConstraintDef, ConstraintKind, IndexDef
from relate.storage.store import open_store

from .faultfs import Crashed, FaultFs

CASES = int(os.environ.get("RELATE_FAULT_CASES", "250"))


def canon(g) -> str:
    """Everything a user can observe of a graph, as text (property order included)."""
    return json.dumps({
        "nodes": sorted([n.id, sorted(n.labels), list(n.props.items())] for n in g.nodes.values()),
        "rels": sorted([r.id, r.type, r.start.id, r.end.id, list(r.props.items())] for r in g.rels.values()),
        "indexes": sorted([d.name, d.label, d.key] for d in g.indexes.values()),
        "constraints": sorted([c.name, c.kind.value, c.label, list(c.keys)] for c in g.constraints.values()),
    }, default=repr)


def random_txn(g, rng: random.Random, i: int) -> None:
    for _ in range(rng.randint(1, 6)):
        op = rng.random()
        nodes = list(g.nodes.values())
        if op < 0.35 or not nodes:
            g.create_node(rng.sample(["A", "B", "C"], rng.randint(0, 2)),
                          {"i": i, "s": "x" * rng.randint(0, 40), "f": rng.choice([1.5, float("inf"), -0.0])})
        elif op < 0.55:
            g.create_rel(rng.choice(["R", "S"]), rng.choice(nodes), rng.choice(nodes), {"w": rng.randint(0, 9)})
        elif op < 0.7:
            g.set_prop(rng.choice(nodes), rng.choice(["i", "s", "t"]), rng.choice([None, i, [1, "two", 3.0]]))
        elif op < 0.8:
            n = rng.choice(nodes)
            if rng.random() < 0.5:
                g.add_label(n, rng.choice(["A", "B", "D"]))
            else:
                g.remove_label(n, rng.choice(sorted(n.labels) or ["A"]))
        elif op < 0.9 and g.rels:
            g.delete_rel(rng.choice(list(g.rels.values())))
        elif op < 0.95:
            n = rng.choice(nodes)
            if not g.degree(n):
                g.delete_node(n)
        elif op < 0.97:
            name = f"c_{rng.choice('AB')}"
            if name in g.constraints:
                g.drop_constraint(name)
            else:
                g.create_constraint(ConstraintDef(name, rng.choice(list(ConstraintKind)), name[2], ("i", "s")))
        else:
            name = f"ix_{rng.choice('AB')}_{rng.choice('is')}"
            if name in g.indexes:
                g.drop_index(name)
            elif g.index_for(name[3], name[5]) is None:
                g.create_index(IndexDef(name, name[3], name[5]))


def commit_one(store, rng, i, pending: list | None = None) -> None:
    """One transaction; `pending` receives the state it would commit before the commit starts."""
    g = store.graph
    txn = g.begin()
    try:
        random_txn(g, rng, i)
        if pending is not None:
            pending.append(canon(g))
        store.commit()
        store.settle()  # the fold `Database` runs after the history took the commit
    except BaseException:
        txn.rollback()
        raise
    finally:
        g.end()


def run_case(path: str, seed: int) -> None:
    rng = random.Random(seed)
    fs = FaultFs(seed, crash_at=rng.randint(1, 120))
    fs.make_durable_dir("/s")
    states = []
    acked = 0
    try:
        store = open_store(path, fs=fs, checkpoint_bytes=rng.choice([300, 1000, 1 << 30]))
        states.append(canon(store.graph))
        for i in range(40):
            commit_one(store, rng, i, states)
            acked += 1
    except Crashed:
        pass
    disk = fs.crashed(seed)
    if not states:  # the store was never created: nothing was acknowledged
        return
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        reader = open_store(path, read_only=True, fs=disk)
        seen = canon(reader.graph)
        assert seen in states[acked:acked + 2], f"seed {seed}: not a prefix holding every acknowledged commit"
        writer = open_store(path, fs=disk)
    assert canon(writer.graph) == seen
    for w in caught:  # an interrupted append the power cut left: set aside, and the file is there
        assert issubclass(w.category, StoreRecoveryWarning), w
        kept = re.search(r"they are kept in (\S+)$", str(w.message))
        if kept:
            folder = os.path.dirname(path) if path.endswith(".rl") else path
            assert disk.exists(os.path.join(folder, kept.group(1))), f"seed {seed}: {w.message}"
    commit_one(writer, rng, 1000)
    after = canon(writer.graph)
    writer.close()
    again = open_store(path, read_only=True, fs=disk)
    assert canon(again.graph) == after, f"seed {seed}: the recovered store lost a commit"


@pytest.mark.parametrize("kind", ["/s/g.rl", "/s/dir"])
def test_power_cuts_keep_a_prefix_of_commits(kind):
    for seed in range(CASES):
        run_case(kind, seed)
