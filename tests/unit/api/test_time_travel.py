"""Time travel through the Python API: AT VALID writes, AS OF / at_time reads, spans, string ids,
transaction records (provenance), on every store kind and through a restart."""
from __future__ import annotations

import pytest

import relate
from relate.errors import RelateError
from relate.temporal.instant import parse_ns


class Clock:
    """A clock the test moves by hand (epoch ns)."""

    def __init__(self, iso: str) -> None:
        self.t = parse_ns(iso)

    def set(self, iso: str) -> None:
        self.t = parse_ns(iso)

    def __call__(self) -> int:
        return self.t


def rows(db, text, params=None, **kw):
    return db.execute(text, params, **kw).rows


@pytest.fixture
def clock():
    return Clock("2024-06-01T00:00:00Z")


@pytest.fixture
def tdb(db, clock):
    db.clock = clock
    return db


def again(reopen, db, clock):
    db = reopen(db)
    db.clock = clock
    return db


# ---------------------------------------------------------------- the bitemporal square
def test_the_bitemporal_square(tdb, clock, reopen):
    """Salary 100 valid from 2020 (recorded 2020); in 2024 we learn it became 200 in 2022."""
    clock.set("2020-01-01T00:00:00Z")
    tdb.execute("CREATE (:Emp {name: 'Ada', salary: 100})")
    clock.set("2024-01-01T00:00:00Z")
    tdb.execute("AT VALID '2022-01-01' MATCH (e:Emp) SET e.salary = 200")
    db = again(reopen, tdb, clock)
    q = "AS OF $t RECORDED $tt MATCH (e:Emp) RETURN e.salary"
    # before the valid change, before we learned it / after we learned it
    assert rows(db, q, {"t": "2021-01-01", "tt": "2023-01-01"}) == [(100,)]
    assert rows(db, q, {"t": "2021-01-01", "tt": "2025-01-01"}) == [(100,)]
    # after the valid change, before we learned it: we still believed 100
    assert rows(db, q, {"t": "2023-01-01", "tt": "2023-01-01"}) == [(100,)]
    # after the valid change, after we learned it
    assert rows(db, q, {"t": "2023-01-01", "tt": "2025-01-01"}) == [(200,)]
    assert rows(db, "MATCH (e:Emp) RETURN e.salary") == [(200,)]


def test_a_back_dated_value_never_replaces_a_newer_one(tdb, clock):
    clock.set("2024-01-01T00:00:00Z")
    tdb.execute("AT VALID '2020-01-01' CREATE (:P {x: 'old'})")
    tdb.execute("AT VALID '2024-01-01' MATCH (p:P) SET p.x = 'V'")
    clock.set("2024-06-01T00:00:00Z")
    tdb.execute("AT VALID '2022-01-01' MATCH (p:P) SET p.x = 'X'")
    assert rows(tdb, "MATCH (p:P) RETURN p.x") == [("V",)]  # the current graph is unchanged
    assert rows(tdb, "AS OF '2023-01-01' MATCH (p:P) RETURN p.x") == [("X",)]
    assert rows(tdb, "AS OF '2021-01-01' MATCH (p:P) RETURN p.x") == [("old",)]
    assert rows(tdb, "AS OF '2024-03-01' MATCH (p:P) RETURN p.x") == [("V",)]


def test_a_back_dated_remove_is_a_tombstone_in_its_span(tdb, clock):
    clock.set("2024-01-01T00:00:00Z")
    tdb.execute("AT VALID '2020-01-01' CREATE (:P {x: 1, y: 2})")
    tdb.execute("AT VALID '2022-01-01' MATCH (p:P) REMOVE p.y")
    assert rows(tdb, "MATCH (p:P) RETURN p.y") == [(None,)]
    assert rows(tdb, "AS OF '2021-01-01' MATCH (p:P) RETURN p.y") == [(2,)]
    assert rows(tdb, "AS OF '2023-01-01' MATCH (p:P) RETURN keys(p)") == [(["x"],)]


# ---------------------------------------------------------------- the future
def test_a_future_value_waits_and_the_result_says_so(tdb, clock, reopen):
    tdb.execute("CREATE (:P {x: 1})")
    r = tdb.execute("AT VALID '2030-01-01' MATCH (p:P) SET p.x = 2 RETURN p.x AS x")
    assert r.rows == [(2,)]  # the statement's own RETURN shows what it wrote
    r = tdb.execute("MATCH (p:P) RETURN p.x")
    assert r.rows == [(1,)] and [w.code for w in r.warnings] == ["CURRENT_READ_VALID_NOW"]
    assert rows(tdb, "AS OF '2031-01-01' MATCH (p:P) RETURN p.x") == [(2,)]
    db = again(reopen, tdb, clock)
    assert rows(db, "MATCH (p:P) RETURN p.x") == [(1,)]
    clock.set("2030-01-01T00:00:01Z")
    r = db.execute("MATCH (p:P) RETURN p.x")
    assert r.rows == [(2,)] and r.warnings == ()


def test_a_future_create_appears_when_its_time_comes(tdb, clock, reopen):
    r = tdb.execute("AT VALID '2030-01-01' CREATE (a:F {n: 1})-[:R]->(b:F {n: 2}) RETURN a.n")
    assert r.rows == [(1,)] and r.stats.nodes_created == 2
    assert rows(tdb, "MATCH (f:F) RETURN count(f)") == [(0,)]
    assert rows(tdb, "AS OF '2030-06-01' MATCH (:F)-[r:R]->(:F) RETURN count(r)") == [(1,)]
    db = again(reopen, tdb, clock)
    clock.set("2030-02-01T00:00:00Z")
    assert rows(db, "MATCH (a:F)-[:R]->(b) RETURN a.n, b.n") == [(1, 2)]


def test_no_warning_without_future_values(tdb):
    tdb.execute("CREATE (:P)")
    assert tdb.execute("MATCH (p) RETURN count(p)").warnings == ()


# ---------------------------------------------------------------- deletes
def test_a_back_dated_delete_ends_validity_from_then(tdb, clock, reopen):
    clock.set("2024-01-01T00:00:00Z")
    tdb.execute("AT VALID '2020-01-01' CREATE (:P {name: 'a'})-[:K]->(:P {name: 'b'})")
    clock.set("2024-03-01T00:00:00Z")
    tdb.execute("AT VALID '2022-01-01' MATCH (p:P {name: 'a'}) DETACH DELETE p")
    db = again(reopen, tdb, clock)
    assert rows(db, "MATCH (p:P) RETURN p.name") == [("b",)]
    assert rows(db, "AS OF '2021-01-01' MATCH (p:P)-[:K]->(q) RETURN p.name, q.name") == [("a", "b")]
    assert rows(db, "AS OF '2023-01-01' MATCH (p:P) RETURN p.name") == [("b",)]
    # before the delete was recorded, it was believed to exist still
    assert rows(db, "AS OF '2023-01-01' RECORDED '2024-02-01' MATCH (p:P) RETURN p.name ORDER BY p.name") \
        == [("a",), ("b",)]


def test_a_future_delete_keeps_the_entity_until_then(tdb, clock):
    tdb.execute("CREATE (:P {name: 'a'})-[:K]->(:P {name: 'b'})")
    tdb.execute("AT VALID '2030-01-01' MATCH (p:P {name: 'a'}) DETACH DELETE p")
    assert rows(tdb, "MATCH (p:P)-[:K]->(q) RETURN p.name, q.name") == [("a", "b")]
    clock.set("2030-01-02T00:00:00Z")
    assert rows(tdb, "MATCH (p:P) RETURN p.name") == [("b",)]
    assert rows(tdb, "MATCH ()-[k:K]->() RETURN count(k)") == [(0,)]


def test_a_delete_at_or_before_creation_leaves_no_valid_time(tdb, clock):
    clock.set("2024-01-01T00:00:00Z")
    tdb.execute("AT VALID '2022-01-01' CREATE (:P)")
    clock.set("2024-03-01T00:00:00Z")
    tdb.execute("AT VALID '2021-01-01' MATCH (p:P) DELETE p")
    for t in ("2021-06-01", "2022-06-01", "2023-06-01"):
        assert rows(tdb, "AS OF $t MATCH (p:P) RETURN count(p)", {"t": t}) == [(0,)]
    assert rows(tdb, "AS OF '2022-06-01' RECORDED '2024-02-01' MATCH (p:P) RETURN count(p)") == [(1,)]


def test_delete_of_a_node_with_relationships_still_needs_detach(tdb):
    tdb.execute("CREATE (:P)-[:K]->(:P)")
    with pytest.raises(RelateError):
        tdb.execute("AT VALID '2020-01-01' MATCH (p:P) DELETE p")
    assert rows(tdb, "MATCH (p:P) RETURN count(p)") == [(2,)]


# ---------------------------------------------------------------- MERGE
def test_merge_under_at_valid(tdb, clock):
    clock.set("2024-01-01T00:00:00Z")
    q = "AT VALID '2021-01-01' MERGE (p:P {k: 1}) ON CREATE SET p.v = 'made' ON MATCH SET p.v = 'seen'"
    tdb.execute(q)
    assert rows(tdb, "AS OF '2021-06-01' MATCH (p:P) RETURN p.v") == [("made",)]
    assert rows(tdb, "AS OF '2020-06-01' MATCH (p:P) RETURN count(p)") == [(0,)]
    clock.set("2024-02-01T00:00:00Z")
    tdb.execute(q.replace("2021-01-01", "2022-01-01"))  # matches the current node, dated 2022
    assert rows(tdb, "MATCH (p:P) RETURN count(p), p.v") == [(1, "seen")]
    assert rows(tdb, "AS OF '2021-06-01' MATCH (p:P) RETURN p.v") == [("made",)]
    assert rows(tdb, "AS OF '2022-06-01' MATCH (p:P) RETURN p.v") == [("seen",)]


# ---------------------------------------------------------------- reads at a past time
def test_at_time_means_as_of(tdb, clock):
    clock.set("2024-01-01T00:00:00Z")
    tdb.execute("AT VALID '2020-01-01' CREATE (:P {x: 1})")
    tdb.execute("AT VALID '2022-01-01' MATCH (p:P) SET p.x = 2")
    assert rows(tdb, "MATCH (p:P) RETURN p.x", at_time="2021-01-01") == [(1,)]
    assert rows(tdb, "MATCH (p:P) RETURN p.x", at_time="2019-01-01") == []
    for text, kind in [("CREATE (:Q)", "AtTimeWrite"), ("RETURN 1", "AtTimeNeedsMatch"),
                       ("AS OF '2021-01-01' MATCH (p) RETURN p", "AtTimeWithTemporalPrefix")]:
        with pytest.raises(RelateError) as e:
            tdb.execute(text, at_time="2021-01-01")
        assert e.value.kind == kind
    with pytest.raises(RelateError) as e:
        tdb.execute("MATCH (p) RETURN p", at_time="last tuesday")
    assert e.value.kind == "InvalidTemporalPrefix"


def test_as_of_refuses_writes_and_says_to_use_at_valid(tdb):
    with pytest.raises(RelateError) as e:
        tdb.execute("AS OF '2021-01-01' MATCH (p) SET p.x = 1")
    assert e.value.kind == "AsOfWrite" and "AT VALID" in e.value.message


def test_explain_and_profile_under_as_of(tdb):
    tdb.execute("CREATE (:P)")
    assert tdb.execute("EXPLAIN AS OF '2021-01-01' MATCH (p:P) RETURN p").explained
    assert tdb.execute("PROFILE AS OF '2999-01-01' MATCH (p:P) RETURN count(p)").rows == [(1,)]


def test_the_history_budget_fails_the_whole_read(db, clock):
    db = relate.connect(":memory:", clock=clock, temporal_read_limit=50)
    db.execute("UNWIND range(1, 100) AS i CREATE (:P {i: i})")
    with pytest.raises(RelateError) as e:
        db.execute("AS OF '2030-01-01' MATCH (p:P) RETURN count(p)")
    assert e.value.kind == "TemporalReadLimit" and "TEMPORAL_READ_LIMIT" in e.value.message
    assert db.execute("MATCH (p:P) RETURN count(p)").rows == [(100,)]  # reads valid now are not counted


def test_as_of_uses_indexes_built_on_the_view(tdb, clock):
    clock.set("2024-01-01T00:00:00Z")
    tdb.execute("CREATE INDEX FOR (p:P) ON (p.k)")
    tdb.execute("AT VALID '2020-01-01' CREATE (:P {k: 1, v: 'a'})")
    tdb.execute("AT VALID '2022-01-01' MATCH (p:P) SET p.k = 2")
    assert rows(tdb, "AS OF '2021-01-01' MATCH (p:P {k: 1}) RETURN p.v") == [("a",)]
    assert rows(tdb, "AS OF '2023-01-01' MATCH (p:P {k: 1}) RETURN p.v") == []


# ---------------------------------------------------------------- spans, string ids, records
def test_spans_survive_a_restart(tdb, clock, reopen):
    clock.set("2024-01-01T00:00:00Z")
    tdb.execute("AT VALID '2020-01-01' CREATE (:P {k: 1})-[:R]->(:P {k: 2})")
    db = again(reopen, tdb, clock)
    node = db.node_by_str_id("n0")
    span = db.span(node)
    assert span.as_dict() == {
        "valid_from": parse_ns("2020-01-01"), "valid_to": None, "txn_from": parse_ns("2024-01-01"), "txn_to": None,
        "validFrom": "2020-01-01T00:00:00Z", "validTo": None, "txnFrom": "2024-01-01T00:00:00Z", "txnTo": None}
    clock.set("2024-02-01T00:00:00Z")
    db.execute("AT VALID '2021-01-01' MATCH (p:P {k: 1}) SET p.k = 10")  # a full record now
    db = again(reopen, db, clock)
    assert db.span(db.node_by_str_id("n0")).valid_from == parse_ns("2020-01-01")
    rel = db.relationship_by_str_id("r0")
    assert rel.type == "R" and db.span(rel).txn_from == parse_ns("2024-01-01")


def test_string_ids_are_element_ids(tdb):
    tdb.execute("CREATE (:A)-[:R]->(:B)")
    (a, r, b), = rows(tdb, "MATCH (a:A)-[r]->(b) RETURN elementId(a), elementId(r), elementId(b)")
    assert (a, r, b) == ("n0", "r0", "n1")
    assert tdb.node_by_str_id(a).labels == frozenset({"A"})
    assert tdb.relationship_by_str_id(r).type == "R"
    for missing in ("n9", "r0x", "n01", "r0 ", "", "x0"):
        assert tdb.node_by_str_id(missing) is None
    tdb.execute("MATCH (b:B) DETACH DELETE b")
    assert tdb.node_by_str_id(b) is None and tdb.relationship_by_str_id(r) is None


def test_a_future_entity_is_not_found_by_its_string_id_before_its_time(tdb, clock):
    tdb.execute("AT VALID '2030-01-01' CREATE (:F)")
    assert tdb.node_by_str_id("n0") is None
    clock.set("2030-01-01T00:00:00Z")
    assert tdb.node_by_str_id("n0").labels == frozenset({"F"})


def test_provenance_is_kept_with_the_transaction_durably(tdb, clock, reopen):
    prov = {"actor": "agent-7", "source": "chat", "reason": "user said so", "requestId": "q-1",
            "confidence": 0.9, "principal": None}
    tdb.execute("CREATE (:P)", provenance=prov)
    seq = tdb.last_transaction
    tdb.execute("CREATE (:Q)")
    db = again(reopen, tdb, clock)
    rec = db.transaction_record(seq)
    assert rec["provenance"] == prov and rec["txnTimeNanos"] == clock.t
    assert db.transaction_record(seq + 1)["provenance"] is None
    assert db.transaction_record(seq + 99) is None


def test_clocks_never_go_back_for_transaction_times(tdb, clock):
    tdb.execute("CREATE (:P)")
    first = tdb.transaction_record(tdb.last_transaction)["txnTimeNanos"]
    clock.t -= 10**12  # the wall clock jumps back
    tdb.execute("CREATE (:P)")
    assert tdb.transaction_record(tdb.last_transaction)["txnTimeNanos"] == first + 1


def test_a_transaction_block_writes_at_one_valid_time(tdb, clock):
    clock.set("2024-01-01T00:00:00Z")
    with tdb.transaction():
        tdb.execute("AT VALID '2020-01-01' CREATE (:P {n: 1})")
        tdb.execute("AT VALID '2020-01-01' CREATE (:P {n: 2})")
    assert rows(tdb, "AS OF '2021-01-01' MATCH (p:P) RETURN count(p)") == [(2,)]
    with pytest.raises(RelateError) as e:
        with tdb.transaction():
            tdb.execute("AT VALID '2020-01-01' CREATE (:P)")
            tdb.execute("CREATE (:P)")
    assert e.value.kind == "MixedValidTimes"
    assert rows(tdb, "MATCH (p:P) RETURN count(p)") == [(2,)]


def test_a_rolled_back_write_leaves_no_history(tdb, clock):
    tdb.execute("CREATE (:P {x: 1})")
    with pytest.raises(RelateError):
        tdb.execute("AT VALID '2020-01-01' MATCH (p:P) SET p.x = 2 WITH p RETURN 1 / 0")
    assert rows(tdb, "AS OF '2999-01-01' MATCH (p:P) RETURN p.x") == [(1,)]


def test_an_at_valid_parameter_and_a_bad_literal(tdb, clock):
    clock.set("2024-01-01T00:00:00Z")
    tdb.execute("AT VALID $t CREATE (:P)", {"t": "2020-01-01T00:00:00+01:00"})
    assert db_span_from(tdb) == parse_ns("2019-12-31T23:00:00Z")
    with pytest.raises(RelateError) as e:
        tdb.execute("AT VALID '2020-13-01' CREATE (:P)")
    assert e.value.kind == "InvalidTemporalPrefix" and e.value.position.offset == 9


def db_span_from(db) -> int:
    return db.span(db.node_by_str_id("n0")).valid_from


def test_created_and_deleted_in_one_transaction_leaves_nothing(tdb, clock):
    with tdb.transaction():
        tdb.execute("CREATE (:T {x: 1})")
        tdb.execute("MATCH (t:T) SET t.x = 2")
        tdb.execute("MATCH (t:T) DELETE t")
    assert rows(tdb, "AS OF '1970-01-02' MATCH (t:T) RETURN count(t)") == [(0,)]
    assert rows(tdb, "AS OF '2999-01-01' MATCH (t:T) RETURN count(t)") == [(0,)]
    tdb.execute("CREATE (:T {x: 1}) WITH 1 AS one MATCH (t:T) SET t.x = 3")
    assert rows(tdb, "AS OF '2999-01-01' MATCH (t:T) RETURN t.x") == [(3,)]
    assert tdb.span(tdb.node_by_str_id("n1")).txn_from == tdb.transaction_record(tdb.last_transaction)["txnTimeNanos"]
