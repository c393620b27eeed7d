"""Temporal values built from maps, text and other values, as a Cypher user calls them."""
from __future__ import annotations

import pytest

from relate.errors import CypherArgumentError, CypherTypeError
from relate.temporal import FUNCTIONS, Duration

F = {name: entry[0] for name, entry in FUNCTIONS.items()}


@pytest.mark.parametrize("fields, text", [
    ({"year": 1817, "week": 1}, "1816-12-30"),
    ({"year": 1818, "week": 53}, "1818-12-28"),
    ({"year": 1984, "week": 10, "dayOfWeek": 3}, "1984-03-07"),
    ({"year": 1984, "ordinalDay": 202}, "1984-07-20"),
    ({"year": 1984, "quarter": 3, "dayOfQuarter": 45}, "1984-08-14"),
    ({"year": 1984, "month": 10}, "1984-10-01"),
    ({"year": 1984}, "1984-01-01"),
])
def test_date_from_map(fields, text):
    assert str(F["date"](fields)) == text


def test_date_selection_keeps_unnamed_week_fields():
    base = F["date"]("1816-12-31")
    assert str(F["date"]({"date": base, "week": 2})) == "1817-01-07"
    assert str(F["date"]({"date": F["date"]("1816-12-30"), "week": 2, "dayOfWeek": 3})) == "1817-01-08"


@pytest.mark.parametrize("kind, fields, text", [
    ("localtime", {"hour": 12, "minute": 31, "second": 14, "nanosecond": 789,
                   "millisecond": 123, "microsecond": 456}, "12:31:14.123456789"),
    ("localtime", {"hour": 12}, "12:00"),
    ("time", {"hour": 12, "minute": 31, "second": 14, "nanosecond": 3}, "12:31:14.000000003Z"),
    ("time", {"hour": 12, "minute": 34, "second": 56, "timezone": "+02:05:59"}, "12:34:56+02:05:59"),
    ("time", {"hour": 12, "timezone": "+02:05:00"}, "12:00+02:05"),
    ("localdatetime", {"year": 1984, "ordinalDay": 202, "hour": 12, "minute": 31}, "1984-07-20T12:31"),
    ("datetime", {"year": 1984, "month": 10, "day": 11, "timezone": "Europe/Stockholm"},
     "1984-10-11T00:00+01:00[Europe/Stockholm]"),
    ("datetime", {"year": 1984, "ordinalDay": 202, "timezone": "Europe/Stockholm"},
     "1984-07-20T00:00+02:00[Europe/Stockholm]"),
    ("datetime", {"year": 1984, "millisecond": 645, "second": 14, "minute": 31, "hour": 12,
                  "month": 10, "day": 11, "timezone": "+01:00"}, "1984-10-11T12:31:14.645+01:00"),
])
def test_from_map(kind, fields, text):
    assert str(F[kind](fields)) == text


@pytest.mark.parametrize("kind, source, text", [
    ("date", "2015-W30-2", "2015-07-21"), ("date", "2015W30", "2015-07-20"),
    ("date", "2015202", "2015-07-21"), ("date", "201507", "2015-07-01"), ("date", "2015", "2015-01-01"),
    ("localtime", "214032.142", "21:40:32.142"), ("localtime", "21", "21:00"),
    ("time", "2140-00:00", "21:40Z"), ("time", "2140-02", "21:40-02:00"), ("time", "22+18:00", "22:00+18:00"),
    ("localdatetime", "2015-W30T2140", "2015-07-20T21:40"),
    ("localdatetime", "2015202T21", "2015-07-21T21:00"),
    ("datetime", "2015T214032-0100", "2015-01-01T21:40:32-01:00"),
    ("datetime", "2015-07-21T21:40:32.142+0845[Australia/Eucla]",
     "2015-07-21T21:40:32.142+08:45[Australia/Eucla]"),
    ("datetime", "2015-07-21T21:40:32.142[Europe/London]", "2015-07-21T21:40:32.142+01:00[Europe/London]"),
    ("datetime", "1818-07-21T21:40:32.142[Europe/Stockholm]",
     "1818-07-21T21:40:32.142+00:53:28[Europe/Stockholm]"),
    ("datetime", "2015-07-21", "2015-07-21T00:00Z"),
])
def test_from_text(kind, source, text):
    assert str(F[kind](source)) == text


@pytest.mark.parametrize("source, text", [
    ("P5M1.5D", "P5M1DT12H"), ("P0.75M", "P22DT19H51M49.5S"), ("PT0.75M", "PT45S"),
    ("P2.5W", "P17DT12H"), ("P12Y5M14DT16H12M70S", "P12Y5M14DT16H13M10S"),
    ("P2012-02-02T14:37:21.545", "P2012Y2M2DT14H37M21.545S"), ("-P1DT1S", "P-1DT-1S"),
    ("PT-1.999S", "PT-1.999S"),
])
def test_duration_from_text(source, text):
    assert str(F["duration"](source)) == text


@pytest.mark.parametrize("fields, text", [
    ({"months": 0.75}, "P22DT19H51M49.5S"), ({"weeks": 2.5}, "P17DT12H"),
    ({"minutes": 1.5, "seconds": 1}, "PT1M31S"), ({"seconds": -60, "milliseconds": -1}, "PT-1M-0.001S"),
    ({"days": 1, "milliseconds": -1}, "P1DT-0.001S"), ({"seconds": 0.3}, "PT0.3S"),
])
def test_duration_from_map(fields, text):
    assert str(F["duration"](fields)) == text


def test_epoch_constructors():
    assert str(F["datetime.fromepoch"](416779, 999999999)) == "1970-01-05T19:46:19.999999999Z"
    assert str(F["datetime.fromepochmillis"](237821673987)) == "1977-07-15T13:34:33.987Z"


def test_conversion_selects_parts():
    dt = F["datetime"]("2015-07-21T21:40:32.142+02:00[Europe/Stockholm]")
    assert str(F["date"](dt)) == "2015-07-21"
    assert str(F["localtime"](dt)) == "21:40:32.142"
    assert str(F["time"](dt)) == "21:40:32.142+02:00"
    assert str(F["localdatetime"](dt)) == "2015-07-21T21:40:32.142"


def test_selection_with_timezone_converts_the_instant():
    dt = F["datetime"]("2015-07-21T21:40:32+02:00")
    assert str(F["datetime"]({"datetime": dt, "timezone": "+05:00"})) == "2015-07-22T00:40:32+05:00"
    assert str(F["datetime"]({"date": F["date"]("2015-07-21"), "time": F["localtime"]("10:00"),
                              "timezone": "Europe/London"})) == "2015-07-21T10:00+01:00[Europe/London]"


def test_nonexistent_local_time_moves_forward_by_the_gap():
    # 2015-03-29 02:30 does not exist in Stockholm: clocks jump from 02:00 to 03:00.
    assert str(F["datetime"]("2015-03-29T02:30[Europe/Stockholm]")) == \
        "2015-03-29T03:30+02:00[Europe/Stockholm]"


def test_null_propagates_through_every_constructor_and_clock():
    for name in ("date", "localtime", "time", "localdatetime", "datetime", "duration",
                 "date.transaction", "time.statement", "datetime.realtime"):
        assert F[name](None) is None
    assert F["date"]({"year": None}) is None


def test_clocks_read_now_and_take_a_zone():
    from relate.temporal import pinned_clock
    with pinned_clock(transaction_ns=0, statement_ns=86_400 * 10 ** 9):
        assert str(F["date.transaction"]()) == "1970-01-01"
        assert str(F["date.statement"]()) == "1970-01-02"
        assert str(F["datetime.transaction"]("+01:00")) == "1970-01-01T01:00+01:00"
        assert str(F["localtime"]()) == "00:00"
    assert F["date.realtime"]().ordinal > 738000


@pytest.mark.parametrize("kind, arg", [
    ("date", "2015-13-01"), ("date", "2015-02-30"), ("date", "nonsense"), ("localtime", "25:00"),
    ("time", "12:00+19:00"), ("datetime", "2015-07-21T21:40[Mars/Olympus]"),
    ("date", {"year": 1984, "week": 10, "month": 2}), ("date", {"month": 2}),
    ("date", {"year": 1984, "fortnight": 1}), ("duration", "P1Q"), ("duration", "PT"),
    ("date", {"year": 2017, "week": 53}),
])
def test_invalid_values_are_argument_errors(kind, arg):
    with pytest.raises(CypherArgumentError):
        F[kind](arg)


def test_wrong_types_are_type_errors():
    with pytest.raises(CypherTypeError):
        F["date"](42)
    with pytest.raises(CypherTypeError):
        F["duration"]({"days": "one"})
    with pytest.raises(CypherTypeError):
        F["date"]({"year": "1984"})


def test_truncate_then_set_fields():
    ldt = F["localdatetime"]("1984-10-11T12:31:14.645876123")
    assert str(F["date.truncate"]("weekYear", F["date"]("1984-01-01"), {"day": 5})) == "1983-01-05"
    assert str(F["datetime.truncate"]("millisecond", ldt, {"nanosecond": 2})) == \
        "1984-10-11T12:31:14.645000002Z"
    assert str(F["datetime.truncate"]("hour", F["datetime"]("1984-10-11T12:31-01:00"),
                                      {"timezone": "Europe/Stockholm"})) == \
        "1984-10-11T12:00+01:00[Europe/Stockholm]"
    assert str(F["time.truncate"]("day", ldt)) == "00:00Z"
    with pytest.raises(CypherArgumentError):
        F["date.truncate"]("hour", ldt)
    with pytest.raises(CypherArgumentError):
        F["date.truncate"]("fortnight", ldt)
    assert isinstance(F["duration"]("P1D"), Duration)


STOCKHOLM_OCT = "datetime({year: 1984, month: 10, day: 11, hour: 12, timezone: 'Europe/Stockholm'})"


@pytest.mark.parametrize("expression,expected", [
    # 12:00:42 on the new date in Stockholm (summer time, +02:00 on 28 March) is 00:00:42 in Honolulu
    ("{date: date('1984-03-07'), time: " + STOCKHOLM_OCT + ", day: 28, second: 42, "
     "timezone: 'Pacific/Honolulu'}", "1984-03-28T00:00:42-10:00[Pacific/Honolulu]"),
    ("{datetime: datetime('2022-01-15T12:00[Europe/Berlin]'), month: 7, timezone: '+05:00'}",
     "2022-07-15T15:00+05:00"),
    # a time's offset moves to the region's offset on the date it lands on (July: +02:00)
    ("{date: date('2022-07-01'), time: time('12:00Z'), timezone: 'Europe/Berlin'}",
     "2022-07-01T14:00+02:00[Europe/Berlin]"),
])
def test_a_selected_value_moves_zone_after_taking_its_new_date(db, expression, expected):
    assert str(db.execute(f"RETURN datetime({expression}) AS d").cypher_rows[0][0]) == expected
