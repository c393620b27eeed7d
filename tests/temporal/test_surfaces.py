"""Temporal values through the engine: queries, result JSON and text, every store kind."""
from __future__ import annotations

import json

import pytest

import relate
from relate.values import to_json, to_text

VALUES = ("RETURN date('2015-07-21') AS d, localtime('21:40:32.142') AS lt, time('21:40+01:00') AS t, "
          "localdatetime('2015-07-21T21:40') AS ldt, "
          "datetime('2015-07-21T21:40:32.142+02:00[Europe/Stockholm]') AS dt, "
          "duration('P1Y2M3DT4H5M6.7S') AS dur, point({x: 1, y: 2.5}) AS p")


def test_result_json_and_column_types(db):
    result = db.execute(VALUES)
    row = result.cypher_rows[0]  # the engine's values, as the JSON and text writers take them
    assert [to_json(v) for v in row] == [
        "2015-07-21", "21:40:32.142", "21:40+01:00", "2015-07-21T21:40",
        "2015-07-21T21:40:32.142+02:00[Europe/Stockholm]", "P1Y2M3DT4H5M6.7S",
        "point({x: 1.0, y: 2.5, crs: 'cartesian'})"]
    assert result.column_types == ["DATE", "TIME", "TIME", "DATETIME", "DATETIME", "DURATION", "POINT"]
    assert to_text(row[4]) == "2015-07-21T21:40:32.142+02:00[Europe/Stockholm]"
    assert to_text(row[5]) == "P1Y2M3DT4H5M6.7S"


def test_functions_components_and_operators_in_queries(db):
    rows = db.execute(
        "WITH datetime('1984-10-11T12:31:14.645876123+01:00') AS d "
        "RETURN d.year, d.offsetMinutes, toString(d + duration('P1M')), "
        "toString(date.truncate('month', d)), d < datetime('1985-01-01T00:00Z'), "
        "toString(duration.between(date('1984-10-11'), date('2015-06-24'))), "
        "point.distance(point({x: 0, y: 0}), point({x: 3, y: 4}))").rows
    assert rows == [(1984, 60, "1984-11-11T12:31:14.645876123+01:00", "1984-10-01", True,
                     "P30Y8M13D", 5.0)]


def test_order_by_temporal(db):
    rows = db.execute("UNWIND [time('12:00+05:00'), time('10:35-08:00'), time('12:30+01:01')] AS t "
                      "RETURN toString(t) ORDER BY t").rows
    assert rows == [("12:00+05:00",), ("12:30+01:01",), ("10:35-08:00",)]


@pytest.mark.parametrize("kind", ["file", "directory"])
def test_store_round_trip_keeps_values_and_zones(tmp_path, kind):
    path = str(tmp_path / ("graph.rl" if kind == "file" else "graph"))
    if kind == "directory":
        (tmp_path / "graph").mkdir()
    values = ("{d: date('2015-07-21'), lt: localtime('21:40:32.142'), t: time('21:40+01:00'), "
              "ldt: localdatetime('2015-07-21T21:40'), "
              "old: datetime('1818-07-21T21:40:32.142[Europe/Stockholm]'), "
              "fixed: datetime('2015-07-21T21:40-04:00'), dur: duration('P-1Y2M-3DT4H5M-6.7S'), "
              "ps: [point({longitude: 1.5, latitude: 2.5, height: 3.0})], "
              "ds: [date('2001-01-01'), date('2002-02-02')]}")
    with relate.connect(path) as db:
        db.execute(f"CREATE (:Event {values})")
        db.execute("MATCH (e:Event) SET e.later = e.d + duration('P1D')")
        before = db.execute("MATCH (e:Event) RETURN properties(e) AS p").cypher_rows
    with relate.connect(path) as db:
        after = db.execute("MATCH (e:Event) RETURN properties(e) AS p").cypher_rows
        assert db.execute("MATCH (e:Event) RETURN e.old.timezone, e.old.offset").rows == \
            [("Europe/Stockholm", "+00:53:28")]
    assert json.dumps(to_json(after[0][0]), sort_keys=True) == json.dumps(to_json(before[0][0]), sort_keys=True)
    assert after == before


def test_statement_clock_reads_one_instant_per_statement(db):
    rows = db.execute("UNWIND range(1, 500) AS i "
                      "WITH datetime() AS d, localtime.statement() AS t, datetime.realtime() AS r "
                      "RETURN count(DISTINCT d), count(DISTINCT t), count(DISTINCT r) > 1").rows
    assert rows == [(1, 1, True)]
    first = db.execute("RETURN datetime.statement() AS now").cypher_rows[0][0]
    second = db.execute("RETURN datetime.statement() AS now").cypher_rows[0][0]
    assert first.epoch_nanos() < second.epoch_nanos()  # each statement reads the clock anew


def test_transaction_clock_holds_for_a_whole_transaction(db):
    with db.transaction():
        first = db.execute("RETURN datetime.transaction() AS t, datetime.statement() AS s").cypher_rows[0]
        second = db.execute("RETURN datetime.transaction() AS t, datetime.statement() AS s").cypher_rows[0]
    assert first[0] == second[0]
    assert first[1].epoch_nanos() < second[1].epoch_nanos()
    assert first[0].epoch_nanos() <= first[1].epoch_nanos()
