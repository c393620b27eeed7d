"""Python values through the Python API: `datetime`, `timedelta`, `bytes` and tuple parameters
become Cypher values on every store kind, and `execute` hands temporal results back as `datetime`
values, durations as `relate.Duration`, points as `relate.Point`."""
from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
import zoneinfo
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import relate
from relate.errors import UsageError
from relate.temporal.zones import region

BERLIN = region("Europe/Berlin")  # the zone rules relate reads (the pinned tzdata)
UTC = dt.timezone.utc


def test_date_parameters_work_with_temporal_functions(db):
    day = dt.date(2024, 2, 28)
    row = db.execute("RETURN $d + duration('P1D') AS next, date($d) AS same, $d.year AS year, "
                     "$d.dayOfWeek AS weekday, valueType($d) AS type, date($d) = date('2024-02-28') AS eq",
                     {"d": day}).rows[0]
    assert row == (dt.date(2024, 2, 29), day, 2024, 3, "DATE NOT NULL", True)


def test_each_python_kind_becomes_its_cypher_type(db):
    params = {"d": dt.date(2020, 1, 2), "ldt": dt.datetime(2020, 1, 2, 3, 4, 5, 600),
              "zdt": dt.datetime(2020, 7, 1, 12, 0, tzinfo=zoneinfo.ZoneInfo("Europe/Berlin")),
              "fdt": dt.datetime(2020, 7, 1, 12, 0, tzinfo=dt.timezone(dt.timedelta(hours=-4))),
              "lt": dt.time(9, 30), "t": dt.time(9, 30, tzinfo=dt.timezone(dt.timedelta(hours=5, minutes=30))),
              "td": dt.timedelta(days=2, hours=3), "b": b"\x00\xffab", "tup": (1, 2)}
    names = list(params)
    result = db.execute("RETURN " + ", ".join(f"valueType(${n}) AS {n}" for n in names), params)
    assert result.rows == [("DATE NOT NULL", "LOCAL DATETIME NOT NULL", "ZONED DATETIME NOT NULL",
                            "ZONED DATETIME NOT NULL", "LOCAL TIME NOT NULL", "ZONED TIME NOT NULL",
                            "DURATION NOT NULL", "ANY NOT NULL", "LIST<INTEGER NOT NULL> NOT NULL")]
    text = db.execute("RETURN toString($zdt) AS zdt, toString($fdt) AS fdt, toString($t) AS t, "
                      "toString($td) AS td, $zdt.timezone AS zone, size($tup) AS n", params).rows
    assert text == [("2020-07-01T12:00+02:00[Europe/Berlin]", "2020-07-01T12:00-04:00", "09:30+05:30",
                     "P2DT3H", "Europe/Berlin", 2)]


def test_results_come_back_as_python_values(db):
    row = db.execute("RETURN date('2015-07-21') AS d, localtime('21:40:32.142') AS lt, time('21:40+01:00') AS t, "
                     "localdatetime('2015-07-21T21:40') AS ldt, "
                     "datetime('2015-07-21T21:40:32.142+02:00[Europe/Stockholm]') AS zdt, "
                     "datetime('2015-07-21T21:40-04:00') AS fdt").rows[0]
    d, lt, t, ldt, zdt, fdt = row
    assert (d, lt, ldt) == (dt.date(2015, 7, 21), dt.time(21, 40, 32, 142000), dt.datetime(2015, 7, 21, 21, 40))
    assert t == dt.time(21, 40, tzinfo=dt.timezone(dt.timedelta(hours=1)))
    assert zdt.tzinfo.key == "Europe/Stockholm" and zdt.utcoffset() == dt.timedelta(hours=2)
    assert zdt == dt.datetime(2015, 7, 21, 19, 40, 32, 142000, tzinfo=UTC)
    assert fdt.utcoffset() == dt.timedelta(hours=-4) and fdt == dt.datetime(2015, 7, 22, 1, 40, tzinfo=UTC)


def test_nanoseconds_are_cut_to_microseconds_and_kept_in_cypher_rows(db):
    result = db.execute("RETURN localtime('12:00:00.123456789') AS t")
    assert result.rows == [(dt.time(12, 0, 0, 123456),)]
    assert str(result.cypher_rows[0][0]) == "12:00:00.123456789"
    assert result.column_types == ["TIME"]


def test_an_overlap_keeps_its_offset_through_fold(db):
    # 2021-10-31 02:30 happens twice in Berlin; the second one is +01:00
    (later,) = db.execute("RETURN datetime('2021-10-31T02:30+01:00[Europe/Berlin]') AS d").rows[0]
    assert later.fold == 1 and later.utcoffset() == dt.timedelta(hours=1)
    (again,) = db.execute("RETURN toString($d) AS d", {"d": later}).rows[0]
    assert again == "2021-10-31T02:30+01:00[Europe/Berlin]"


def test_durations_and_timedeltas(db):
    (dur, neg, months) = db.execute("RETURN duration('P1DT2H3M4.000005006S') AS d, $neg AS n, "
                                    "duration('P1M') AS m", {"neg": dt.timedelta(seconds=-1)}).rows[0]
    assert isinstance(dur, relate.Duration)
    assert (dur.months, dur.days, dur.seconds, dur.nanoseconds) == (0, 1, 7384, 5006)
    assert dur.to_timedelta() == dt.timedelta(days=1, hours=2, minutes=3, seconds=4, microseconds=5)
    assert str(neg) == "PT-1S" and neg.to_timedelta() == dt.timedelta(seconds=-1)
    with pytest.raises(UsageError) as e:
        months.to_timedelta()
    assert "months" in e.value.message


def test_points_have_named_coordinates(db):
    geo, flat = db.execute("RETURN point({longitude: 12.5, latitude: 55.7}) AS g, "
                           "point({x: 1, y: 2, z: 3}) AS c").rows[0]
    assert isinstance(geo, relate.Point)
    assert (geo.longitude, geo.latitude, geo.height, geo.x, geo.y, geo.crs, geo.srid) == \
        (12.5, 55.7, None, 12.5, 55.7, "wgs-84", 4326)
    assert (flat.x, flat.y, flat.z, flat.crs, flat.srid) == (1.0, 2.0, 3.0, "cartesian-3d", 9157)
    with pytest.raises(AttributeError):
        flat.latitude
    assert db.execute("RETURN point.distance($a, $b) AS d",
                      {"a": relate.Point.cartesian(0, 0), "b": relate.Point.cartesian(3, 4)}).rows == [(5.0,)]


def test_values_inside_nodes_lists_and_maps_are_converted(db, reopen):
    db.execute("CREATE (:E {on: $d, days: $ds})-[:NEXT {at: $t}]->(:E)",
               {"d": dt.date(2020, 1, 1), "ds": [dt.date(2020, 1, 2)], "t": dt.time(8)})
    db = reopen(db)
    n, r, m, p = db.execute("MATCH p = (n)-[r]->() RETURN n, r, {d: n.on, l: [n.on]} AS m, p").rows[0]
    assert n.props == {"on": dt.date(2020, 1, 1), "days": [dt.date(2020, 1, 2)]}
    assert r.props == {"at": dt.time(8)} and r.start.props["on"] == dt.date(2020, 1, 1)
    assert m == {"d": dt.date(2020, 1, 1), "l": [dt.date(2020, 1, 1)]}
    assert p.rels[0].start is p.nodes[0] and p.nodes[0].props["on"] == dt.date(2020, 1, 1)
    # the store's own records keep Cypher values
    assert db.execute("MATCH (n) WHERE n.on IS NOT NULL RETURN n.on + duration('P1D') AS x").rows == \
        [(dt.date(2020, 1, 2),)]


def test_byte_arrays_survive_a_reopen(db, reopen):
    db.execute("CREATE (:Blob {data: $b, parts: [$b, $c]})", {"b": b"\x00\x01\xfe\xff", "c": bytearray(b"xy")})
    db = reopen(db)
    result = db.execute("MATCH (n:Blob) RETURN n.data AS data, n.parts AS parts, n.data = $b AS same",
                        {"b": b"\x00\x01\xfe\xff"})
    assert result.rows == [(b"\x00\x01\xfe\xff", [b"\x00\x01\xfe\xff", b"xy"], True)]
    assert result.column_types == ["BINARY", "LIST", "BOOLEAN"]


def test_byte_arrays_survive_a_checkpoint(tmp_path, monkeypatch):
    from relate.storage import dirstore, filestore
    monkeypatch.setattr(dirstore, "CHECKPOINT_MIN_BYTES", 64)
    monkeypatch.setattr(filestore, "COMPACT_MIN_BYTES", 64)
    for path in (tmp_path / "g.rl", tmp_path / "g"):
        with relate.connect(str(path)) as conn:
            for i in range(20):  # the snapshot is rewritten along the way
                conn.execute("CREATE (:Blob {i: $i, data: $b, on: $d})", {"i": i, "b": bytes([i, 255]),
                                                                       "d": dt.date(2000, 1, 1 + i)})
        with relate.connect(str(path), read_only=True) as conn:
            rows = conn.execute("MATCH (n:Blob) RETURN n.data, n.on ORDER BY n.i").rows
        assert rows == [(bytes([i, 255]), dt.date(2000, 1, 1 + i)) for i in range(20)]


@pytest.mark.needs_processes
def test_the_cli_shows_a_stored_byte_array_as_integers(tmp_path):
    path = str(tmp_path / "g.rl")
    with relate.connect(path) as conn:
        conn.execute("CREATE (:Blob {data: $b})", {"b": b"\x01\xff"})
    relate_cli = str(Path(sys.executable).with_name("relate"))
    out = subprocess.run([relate_cli, "--database", path, "--mode", "envelope",
                          "MATCH (n:Blob) RETURN n.data AS data"], capture_output=True, text=True, check=True)
    doc = json.loads(out.stdout)
    assert (doc["columnTypes"], doc["rows"]) == (["BINARY"], [{"data": [1, 255]}])


@pytest.mark.parametrize("value, why", [
    (dt.datetime(2020, 1, 1, tzinfo=dt.timezone(dt.timedelta(hours=20))), "outside -18:00 to +18:00"),
    (dt.time(1, tzinfo=dt.timezone(dt.timedelta(seconds=1, microseconds=5))), "fraction of a second"),
])
def test_offsets_cypher_cannot_hold_are_refused(db, value, why):
    with pytest.raises(UsageError) as e:
        db.execute("RETURN $v AS v", {"v": value})
    assert "parameter $v" in e.value.message and why in e.value.message


# -- a Python value passed as a parameter, stored, reopened and read back is itself
ZONES = [BERLIN, region("America/New_York"), region("Asia/Kolkata"), region("Australia/Lord_Howe"), UTC]
_local = st.datetimes(min_value=dt.datetime(1900, 1, 2), max_value=dt.datetime(2100, 12, 30))


def _no_gap(d: dt.datetime) -> bool:
    # a local time in a spring-forward gap names no instant of its own: relate keeps the instant
    return d.astimezone(UTC).astimezone(d.tzinfo).replace(tzinfo=None) == d.replace(tzinfo=None)


_aware = st.one_of(
    st.builds(lambda d, z: d.replace(tzinfo=z), _local, st.sampled_from(ZONES)).filter(_no_gap),
    st.builds(lambda d, s: d.replace(tzinfo=dt.timezone(dt.timedelta(seconds=s))), _local,
              st.integers(-18 * 3600, 18 * 3600)))
_time = st.one_of(st.times(), st.builds(lambda t, m: t.replace(tzinfo=dt.timezone(dt.timedelta(minutes=m))),
                                        st.times(), st.integers(-18 * 60, 18 * 60)))
_scalar = st.one_of(st.dates(min_value=dt.date(1, 1, 1)), st.datetimes(), _aware, _time,
                    st.binary(max_size=40), st.timedeltas(min_value=dt.timedelta(days=-10 ** 6),
                                                          max_value=dt.timedelta(days=10 ** 6)))
_values = st.one_of(_scalar, st.lists(st.dates(), max_size=3), st.lists(st.binary(max_size=5), max_size=3))


def _same(back, sent) -> bool:
    if isinstance(sent, list):
        return isinstance(back, list) and len(back) == len(sent) and all(map(_same, back, sent))
    if isinstance(sent, dt.timedelta):
        return isinstance(back, relate.Duration) and back.to_timedelta() == sent
    if isinstance(sent, (dt.datetime, dt.time)) and sent.utcoffset() is not None:
        def keys(v):
            return type(v), v.replace(tzinfo=None), v.utcoffset(), getattr(v.tzinfo, "key", None)
        return keys(back) == keys(sent)
    return type(back) is type(sent) and back == sent


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=_values)
def test_a_parameter_reads_back_as_itself_after_a_reopen(store, value):
    db = store.connect()
    created = db.execute("CREATE (n:V {v: $v}) RETURN id(n) AS id", {"v": value}).rows[0][0]
    db = store.reopen(db)
    (back,) = db.execute("MATCH (n:V) WHERE id(n) = $id RETURN n.v AS v", {"id": created}).rows[0]
    assert _same(back, value), (back, value)
    (again,) = db.execute("RETURN $v = $w AS same", {"v": back, "w": value}).rows[0]
    assert again is True
    if store.path != ":memory:":
        db.close()
