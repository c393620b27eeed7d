"""Neo4j's own Python driver (6.x, unmodified) against a real `relate serve --bolt` process:
bolt:// and neo4j://, execute_query, sessions with managed and explicit transactions, paging,
every value type as a parameter, typed errors, auth, isolation between transactions."""
from __future__ import annotations

import datetime as dt
import math

import pytest

from relate.protocols.bolt_packstream import Structure, pack, unpack
from tests.net.bolt_server import PASSWORD, USER, RawBolt, start_bolt

neo4j = pytest.importorskip("neo4j")
ex = pytest.importorskip("neo4j.exceptions")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = start_bolt(tmp_path_factory.mktemp("bolt"))
    yield s
    assert s.stop() == 0


def _driver(port: int, scheme: str = "bolt", auth=(USER, PASSWORD), **kw):
    return neo4j.GraphDatabase.driver(f"{scheme}://127.0.0.1:{port}", auth=auth, max_transaction_retry_time=0.5,
                                      connection_timeout=10, connection_acquisition_timeout=10, **kw)


@pytest.fixture
def driver(server):
    d = _driver(server.port)
    yield d
    d.execute_query("MATCH (n) DETACH DELETE n")
    d.close()


def test_execute_query_over_bolt_5_4(driver):
    records, summary, keys = driver.execute_query("RETURN 1 AS n, 'a' AS s")
    assert keys == ["n", "s"] and records[0]["n"] == 1 and records[0]["s"] == "a"
    assert summary.database == "neo4j" and summary.query_type == "r"
    assert driver.get_server_info().protocol_version == (5, 4)
    assert driver.get_server_info().agent.startswith("Neo4j/")


def test_routing_scheme_uses_a_one_server_table(server):
    with _driver(server.port, "neo4j") as d:
        d.verify_connectivity()
        records, summary, _ = d.execute_query("UNWIND [1, 2, 3] AS x RETURN sum(x) AS s")
        assert records[0]["s"] == 6 and summary.database == "neo4j"
        records, _, _ = d.execute_query("RETURN 2 AS n", routing_=neo4j.RoutingControl.READ)
        assert records[0]["n"] == 2


def test_results_larger_than_one_pull_batch(driver):
    with driver.session(fetch_size=100) as s:
        values = [r["i"] for r in s.run("UNWIND range(1, 2500) AS i RETURN i")]
    assert values == list(range(1, 2501))
    with driver.session(fetch_size=7) as s, s.begin_transaction() as tx:
        first = tx.run("UNWIND range(1, 20) AS i RETURN i")
        second = tx.run("UNWIND range(1, 30) AS j RETURN j")  # both streams open at once
        assert [r["j"] for r in second] == list(range(1, 31))
        assert [r["i"] for r in first] == list(range(1, 21))


def test_graph_values_keep_their_element_ids(driver):
    records, summary, _ = driver.execute_query(
        "CREATE (a:Person {name: 'Ada'})-[r:KNOWS {since: 1843}]->(b:Person:Math {name: 'Charles'}) "
        "RETURN a, r, b, elementId(a) AS ea, elementId(r) AS er")
    rec = records[0]
    a, r, b = rec["a"], rec["r"], rec["b"]
    assert a.element_id == rec["ea"] and r.element_id == rec["er"]
    assert a.labels == {"Person"} and b.labels == {"Person", "Math"} and dict(a) == {"name": "Ada"}
    assert r.type == "KNOWS" and r["since"] == 1843
    assert r.start_node.element_id == a.element_id and r.end_node.element_id == b.element_id
    assert summary.counters.nodes_created == 2 and summary.counters.relationships_created == 1
    assert summary.counters.contains_updates and summary.query_type == "w"
    records, _, _ = driver.execute_query("MATCH p = (:Person {name: 'Charles'})<-[:KNOWS]-(x) RETURN p")
    path = records[0]["p"]
    assert [n["name"] for n in path.nodes] == ["Charles", "Ada"]
    (rel,) = path.relationships
    # walked against its direction: the driver takes the start node from the index's sign
    assert rel.start_node["name"] == "Ada" and rel.end_node["name"] == "Charles"


def _roundtrip(driver, value):
    records, _, _ = driver.execute_query("RETURN $v AS v", v=value)
    return records[0]["v"]


@pytest.mark.parametrize("value", [
    None, True, False, 0, -1, -16, -17, 127, 128, -128, -129, 32767, 32768, -32769, 2 ** 31, -(2 ** 31) - 1,
    2 ** 63 - 1, -(2 ** 63), 1.5, -0.25, 1e300, "", "text", "é日本" * 30, "x" * 70000,
    b"\x00\x01\xff", [], [1, "a", None, [2.5]], {"k": {"nested": [1, 2]}, "e": {}},
    list(range(300)), {f"k{i}": i for i in range(40)},
], ids=repr)
def test_every_plain_value_comes_back_equal(driver, value):
    assert _roundtrip(driver, value) == value


def test_nan_and_infinities_come_back(driver):
    assert math.isnan(_roundtrip(driver, float("nan")))
    assert _roundtrip(driver, float("inf")) == float("inf")


def test_temporal_and_spatial_values_come_back_equal(driver):
    # zones as pytz objects: the driver's own conversions crash CPython's zoneinfo on its DateTime
    import pytz

    from neo4j.spatial import CartesianPoint, WGS84Point
    from neo4j.time import Date, DateTime, Duration, Time
    cases = [
        dt.date(2024, 2, 29), dt.date(1, 1, 1), dt.date(9999, 12, 31), dt.date(1969, 7, 20),
        dt.time(12, 30, 15, 123456), Time(23, 59, 59, tzinfo=pytz.FixedOffset(-300)),
        dt.datetime(2020, 1, 2, 3, 4, 5, 600000),
        dt.datetime(2020, 1, 2, 3, 4, 5, tzinfo=dt.timezone(dt.timedelta(hours=2, minutes=30))),
        dt.datetime(1950, 6, 1, 12, 0, tzinfo=dt.timezone.utc),
        pytz.timezone("Europe/Berlin").localize(dt.datetime(2021, 3, 28, 1, 30, 0)),
        pytz.timezone("Europe/Stockholm").localize(DateTime(2021, 7, 1, 12, 0, 0.000000042)),
        Date(2000, 1, 1), Time(1, 2, 3.000000004),
        Duration(years=1, months=2, days=3, hours=4, minutes=5, seconds=6, nanoseconds=7),
        Duration(seconds=-1, nanoseconds=5), dt.timedelta(days=-2, seconds=10),
        CartesianPoint((1.5, -2.0)), CartesianPoint((1.0, 2.0, 3.0)),
        WGS84Point((12.5, 55.7)), WGS84Point((12.5, 55.7, 100.0)),
    ]
    for value in cases:
        back = _roundtrip(driver, value)
        if isinstance(value, dt.timedelta):
            assert tuple(back) == (0, value.days, value.seconds, 0), value
        elif isinstance(value, dt.datetime) and isinstance(back, DateTime):
            assert back.to_native() == value and back.utcoffset() == value.utcoffset(), value
        elif isinstance(value, (dt.date, dt.time)) and not isinstance(value, (Date, Time)):
            assert back.to_native() == value, value
        else:
            assert back == value, value
    zoned = _roundtrip(driver, pytz.timezone("Europe/Stockholm").localize(dt.datetime(2021, 7, 1, 12, 0, 0)))
    assert str(zoned.tzinfo) == "Europe/Stockholm" and zoned.hour == 12
    records, _, _ = driver.execute_query("RETURN datetime($v).hour AS h, date($d).year AS y",
                                         v=dt.datetime(2020, 5, 5, 7, 0, tzinfo=dt.timezone.utc), d=dt.date(1999, 1, 1))
    assert (records[0]["h"], records[0]["y"]) == (7, 1999)


def test_counters_and_bookmarks(driver):
    with driver.session() as s:
        summary = s.run("CREATE (:T {a: 1}), (:T {a: 2})").consume()
        assert summary.counters.nodes_created == 2 and summary.counters.properties_set == 2
        assert summary.counters.labels_added == 2
        first = s.last_bookmarks()
        s.run("MATCH (t:T) SET t.b = 1").consume()
        assert s.last_bookmarks() != first
    with driver.session(bookmarks=first) as s:
        assert s.run("MATCH (t:T) RETURN count(t) AS n").single()["n"] == 2


def test_explicit_transactions_commit_and_roll_back(driver):
    with driver.session() as s:
        with s.begin_transaction() as tx:
            tx.run("CREATE (:Kept)")
            tx.run("UNWIND range(1, 5) AS i RETURN i")  # left unconsumed: discarded before the commit
            tx.commit()
        with s.begin_transaction() as tx:
            tx.run("CREATE (:Dropped)").consume()
            assert tx.run("MATCH (d:Dropped) RETURN count(d) AS n").single()["n"] == 1  # its own write
            tx.rollback()

        def work(tx):
            return tx.run("CREATE (:Managed) RETURN 7 AS x").single()["x"]
        assert s.execute_write(work) == 7
        assert s.execute_read(lambda tx: tx.run("MATCH (n) RETURN labels(n)[0] AS l ORDER BY l").value()) \
            == ["Kept", "Managed"]


def test_an_open_transaction_is_invisible_until_it_commits(driver):
    with driver.session() as writer, driver.session() as reader:
        tx = writer.begin_transaction()
        tx.run("CREATE (:Pending {v: 1})").consume()
        assert reader.run("MATCH (p:Pending) RETURN count(p) AS n").single()["n"] == 0
        assert tx.run("MATCH (p:Pending) SET p.v = 2 RETURN p.v AS v").single()["v"] == 2
        assert reader.run("MATCH (p:Pending) RETURN count(p) AS n").single()["n"] == 0
        tx.commit()
        assert reader.run("MATCH (p:Pending) RETURN p.v AS v").single()["v"] == 2


def test_a_second_writer_gets_a_retryable_error_not_a_hang(driver):
    with driver.session() as a, driver.session() as b:
        tx = a.begin_transaction()
        tx.run("CREATE (:First)").consume()
        with pytest.raises(ex.TransientError) as err:
            b.run("CREATE (:Second)").consume()
        assert err.value.code == "Neo.TransientError.Transaction.LockAcquisitionTimeout"
        assert err.value.is_retryable()
        assert b.run("RETURN 1 AS n").single()["n"] == 1  # reads go on meanwhile
        tx.commit()
        b.run("CREATE (:Second)").consume()
    records, _, _ = driver.execute_query("MATCH (n) RETURN labels(n)[0] AS l ORDER BY l")
    assert [r["l"] for r in records] == ["First", "Second"]


@pytest.mark.parametrize("query, params, exc, code", [
    ("THIS IS NOT CYPHER", {}, "CypherSyntaxError", "Neo.ClientError.Statement.SyntaxError"),
    ("RETURN undefined_variable", {}, "CypherSyntaxError", "Neo.ClientError.Statement.SyntaxError"),
    ("RETURN $missing AS x", {}, "ClientError", "Neo.ClientError.Statement.ParameterMissing"),
    ("RETURN $s * 2 AS x", {"s": "text"}, "CypherTypeError", "Neo.ClientError.Statement.TypeError"),
    ("RETURN 1 / 0 AS x", {}, "ClientError", "Neo.ClientError.Statement.ArithmeticError"),
    ("CALL no.such.procedure()", {}, "ClientError", "Neo.ClientError.Procedure.ProcedureNotFound"),
])
def test_errors_are_typed_and_the_session_goes_on(driver, query, params, exc, code):
    with driver.session() as s:
        with pytest.raises(getattr(ex, exc)) as err:
            s.run(query, params).consume()
        assert err.value.code == code
        assert not err.value.is_retryable()
        assert s.run("RETURN 1 AS n").single()["n"] == 1
    with pytest.raises(getattr(ex, exc)):
        driver.execute_query(query, params)


def test_wrong_password_is_an_auth_error(server):
    with _driver(server.port, auth=(USER, "wrong")) as d:
        with pytest.raises(ex.AuthError) as err:
            d.verify_connectivity()
        assert err.value.code == "Neo.ClientError.Security.Unauthorized"
    with _driver(server.port, auth=("any-user-name", PASSWORD)) as d:
        d.verify_connectivity()
        assert d.verify_authentication()
        assert not d.verify_authentication(auth=(USER, "nope"))


def test_explain_and_profile_carry_the_plan_and_the_query_type(driver):
    with driver.session() as s:
        result = s.run("EXPLAIN CREATE (:X)")
        assert list(result) == []
        summary = result.consume()
        assert summary.query_type == "w" and summary.plan is not None
        assert summary.counters.nodes_created == 0
        summary = s.run("PROFILE MATCH (n) RETURN n").consume()
        assert summary.profile is not None and summary.query_type == "r"
    assert driver.execute_query("MATCH (x:X) RETURN count(x) AS n")[0][0]["n"] == 0


def test_read_access_mode_refuses_writes(driver):
    with driver.session(default_access_mode=neo4j.READ_ACCESS) as s:
        with pytest.raises(ex.ClientError) as err:
            s.execute_read(lambda tx: tx.run("CREATE (:NotHere)").consume())
        assert err.value.code == "Neo.ClientError.Statement.AccessMode"


def test_unknown_database_is_refused(driver):
    with pytest.raises(ex.ClientError) as err:
        driver.execute_query("RETURN 1", database_="elsewhere")
    assert err.value.code == "Neo.ClientError.Database.DatabaseNotFound"


def test_a_dropped_connection_rolls_its_transaction_back(driver, server):
    raw = RawBolt(server.port)
    assert raw.version == b"\x00\x00\x04\x05"
    raw.send(pack(Structure(0x01, ({"user_agent": "t"},))))
    raw.send(pack(Structure(0x6A, ({"scheme": "basic", "principal": USER, "credentials": PASSWORD},))))
    raw.send(pack(Structure(0x11, ({},))))
    raw.send(pack(Structure(0x10, ("CREATE (:Orphan)", {}, {}))))
    raw.send(pack(Structure(0x3F, ({"n": -1},))))
    replies = [unpack(raw.recv()) for _ in range(5)]
    assert [r.tag for r in replies] == [0x70] * 5
    assert replies[4].fields[0]["stats"] == {"nodes-created": 1, "labels-added": 1}
    raw.close()  # no COMMIT: the server must forget the write and free the write role
    import time
    deadline = time.monotonic() + 10
    while True:
        try:
            driver.execute_query("CREATE (:After)")
            break
        except ex.TransientError:
            assert time.monotonic() < deadline, "the write role was never released"
            time.sleep(0.1)
    records, _, _ = driver.execute_query("MATCH (n) RETURN labels(n)[0] AS l")
    assert [r["l"] for r in records] == ["After"]


def test_read_only_server_refuses_writes(tmp_path):
    import relate
    with relate.connect(str(tmp_path / "ro.rl")) as conn:
        conn.execute("CREATE (:Seed)")
    s = start_bolt(tmp_path, "--read-only", database=str(tmp_path / "ro.rl"))
    try:
        with _driver(s.port) as d:
            assert d.execute_query("RETURN 1 AS n")[0][0]["n"] == 1
            with pytest.raises(ex.ClientError) as err:
                d.execute_query("CREATE (:W)")
            assert err.value.code == "Neo.ClientError.Statement.AccessMode"
    finally:
        s.stop()


def test_async_driver(server):
    import asyncio

    async def main():
        async with neo4j.AsyncGraphDatabase.driver(f"bolt://127.0.0.1:{server.port}", auth=(USER, PASSWORD)) as d:
            records, _, _ = await d.execute_query("UNWIND range(1, 3) AS i RETURN collect(i) AS l")
            return records[0]["l"]
    # on a thread of its own: an earlier test (the browser suite) may leave a loop running here
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(asyncio.run, main()).result(60) == [1, 2, 3]


def test_notification_filters_are_accepted(server):
    with _driver(server.port, notifications_min_severity="OFF") as d:
        assert d.execute_query("RETURN 3 AS n")[0][0]["n"] == 3


def test_db_ping_on_the_system_database(driver):
    # the probe some drivers send to check a connection (the Python driver's HTTP mode does)
    with driver.session(database="system") as s:
        record = s.run("CALL db.ping()").single()
        summary = s.run("CALL db.ping()").consume()
    assert record.keys() == ["success"] and record["success"] is True
    assert summary.query_type == "r"
    with pytest.raises(ex.ClientError):  # only there, and only the probe itself
        driver.execute_query("CALL db.ping()")
