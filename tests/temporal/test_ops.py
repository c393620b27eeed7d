"""Components, arithmetic, differences, order and points, through the package's public API."""
from __future__ import annotations

import math

import pytest

import relate.temporal as T
from relate.errors import CypherArgumentError, CypherArithmeticError
from relate.temporal import FUNCTIONS

F = {name: entry[0] for name, entry in FUNCTIONS.items()}


def test_date_components_in_the_last_week_of_the_previous_week_year():
    d = F["date"]("1984-01-01")
    assert [T.component(d, k) for k in ("year", "weekYear", "week", "weekDay", "dayOfWeek")] == \
        [1984, 1983, 52, 7, 7]


def test_datetime_components():
    d = F["datetime"]({"year": 1984, "month": 11, "day": 11, "hour": 12, "minute": 31, "second": 14,
                       "nanosecond": 645876123, "timezone": "Europe/Stockholm"})
    names = ["quarter", "ordinalDay", "dayOfQuarter", "millisecond", "microsecond", "nanosecond",
             "timezone", "offset", "offsetMinutes", "offsetSeconds", "epochSeconds", "epochMillis"]
    assert [T.component(d, k) for k in names] == \
        [4, 316, 42, 645, 645876, 645876123, "Europe/Stockholm", "+01:00", 60, 3600, 469020674,
         469020674645]
    with pytest.raises(CypherArgumentError):
        T.component(F["date"]("1984-01-01"), "hour")


def test_duration_components():
    d = F["duration"]({"years": 1, "months": 4, "days": 10, "hours": 1, "minutes": 1, "seconds": 1,
                       "nanoseconds": 111111111})
    names = ["years", "quarters", "months", "weeks", "days", "hours", "minutes", "seconds",
             "milliseconds", "quartersOfYear", "monthsOfQuarter", "monthsOfYear", "daysOfWeek",
             "minutesOfHour", "secondsOfMinute", "millisecondsOfSecond", "nanosecondsOfSecond"]
    assert [T.component(d, k) for k in names] == \
        [1, 5, 16, 1, 10, 1, 61, 3661, 3661111, 1, 1, 4, 3, 1, 1, 111, 111111111]


FRACTIONAL = {"years": 12.5, "months": 5.5, "days": 14.5, "hours": 16.5, "minutes": 12.5,
              "seconds": 70.5, "nanoseconds": 3}


@pytest.mark.parametrize("kind, text, plus, minus", [
    ("date", "1984-10-11", "1997-10-11", "1971-10-12"),
    ("localtime", "12:31:14.000000001", "22:29:27.500000004", "02:33:00.499999998"),
    ("localdatetime", "1984-10-11T12:31:14.000000001", "1997-10-11T22:29:27.500000004",
     "1971-10-12T02:33:00.499999998"),
    ("datetime", "1984-10-11T12:31:14.000000001+01:00", "1997-10-11T22:29:27.500000004+01:00",
     "1971-10-12T02:33:00.499999998+01:00"),
])
def test_temporal_plus_and_minus_a_fractional_duration(kind, text, plus, minus):
    value, d = F[kind](text), F["duration"](FRACTIONAL)
    assert str(T.add(value, d)) == plus
    assert str(T.add(d, value)) == plus
    assert str(T.subtract(value, d)) == minus


def test_month_arithmetic_clamps_to_the_month_end():
    assert str(T.add(F["date"]("2015-01-31"), F["duration"]("P1M"))) == "2015-02-28"
    assert str(T.add(F["date"]("2016-01-31"), F["duration"]("P1M"))) == "2016-02-29"


def test_region_datetime_adds_days_on_the_local_clock_and_hours_on_the_timeline():
    start = F["datetime"]("2015-03-28T12:00[Europe/Stockholm]")
    assert str(T.add(start, F["duration"]("P1D"))) == "2015-03-29T12:00+02:00[Europe/Stockholm]"
    assert str(T.add(start, F["duration"]("PT24H"))) == "2015-03-29T13:00+02:00[Europe/Stockholm]"


def test_duration_arithmetic():
    a = F["duration"]({"years": 12, "months": 5, "days": 14, "hours": 16, "minutes": 12,
                       "seconds": 70, "nanoseconds": 1})
    b = F["duration"](FRACTIONAL)
    assert str(T.add(a, b)) == "P25Y4M43DT50H11M23.500000004S"
    assert str(T.subtract(a, b)) == "P-6M-15DT-17H-45M-3.500000002S"
    assert str(T.multiply(a, 2)) == "P24Y10M28DT32H26M20.000000002S"
    assert str(T.multiply(0.5, a)) == "P6Y2M22DT13H21M8S"
    assert str(T.divide(a, 0.5)) == "P24Y10M28DT32H26M20.000000002S"
    assert str(T.negate(F["duration"]("P1DT1S"))) == "P-1DT-1S"
    assert T.add(a, 1) is NotImplemented
    with pytest.raises(CypherArithmeticError):
        T.divide(a, 0)
    for bad in (float("nan"), float("inf")):
        with pytest.raises(CypherArgumentError):
            T.multiply(a, bad)
    with pytest.raises(CypherArgumentError):
        F["duration"]({"days": float("-inf")})


@pytest.mark.parametrize("fn, a, b, text", [
    ("duration.between", "1984-10-11", "2015-06-24", "P30Y8M13D"),
    ("duration.between", "2015-06-24", "1984-10-11", "P-30Y-8M-13D"),
    ("duration.inmonths", "1984-10-11", "2015-06-24", "P30Y8M"),
    ("duration.indays", "1984-10-11", "2015-06-24", "P11213D"),
    ("duration.inseconds", "1984-10-11", "2015-06-24", "PT269112H"),
])
def test_between_dates(fn, a, b, text):
    assert str(F[fn](F["date"](a), F["date"](b))) == text


def test_between_mixed_kinds():
    start = F["datetime"]("2014-07-21T21:40:36.143+02:00")
    assert str(F["duration.between"](start, F["date"]("2015-06-24"))) == "P11M2DT2H19M23.857S"
    assert str(F["duration.between"](F["localtime"]("14:30"), F["localtime"]("16:30:15.6"))) == \
        "PT2H15.6S"
    # zoned values compare on the timeline: 12:00+01:00 and 11:00Z are the same moment
    assert str(F["duration.between"](F["time"]("12:00+01:00"), F["time"]("11:00Z"))) == "PT0S"
    assert str(F["duration.inmonths"](F["localtime"]("12:00"), F["date"]("2015-06-24"))) == "PT0S"
    assert F["duration.between"](None, F["date"]("2015-06-24")) is None


def test_order_and_equality():
    early, late = F["date"]("1980-12-24"), F["date"]("1984-10-11")
    assert T.compare(early, late) == -1 and T.compare(late, late) == 0
    assert T.compare(early, F["localtime"]("12:00")) is None
    assert T.compare(F["time"]("10:00+01:00"), F["time"]("09:35:14Z")) == -1
    d1 = F["duration"]({"days": 14, "hours": 16, "minutes": 12, "seconds": 70})
    assert T.equals(d1, F["duration"]({"days": 14, "hours": 16, "minutes": 13, "seconds": 10}))
    assert not T.equals(d1, F["duration"]({"days": 13, "hours": 40, "minutes": 13, "seconds": 10}))
    assert T.compare(d1, d1) is None
    values = [F["duration"]("P1D"), F["date"]("2000-01-01"), F["localtime"]("10:00"),
              F["datetime"]("2000-01-01T00:00Z"), F["point"]({"x": 1, "y": 2})]
    kinds = [type(v).__name__ for v in sorted(values, key=T.order_key)]
    assert kinds == ["Point", "DateTime", "Date", "LocalTime", "Duration"]


def test_points():
    p = F["point"]({"x": 3, "y": 4})
    assert str(p) == "point({x: 3.0, y: 4.0, crs: 'cartesian'})"
    assert (T.type_name(p), T.component(p, "srid"), T.component(p, "y")) == ("POINT", 7203, 4.0)
    assert F["point.distance"](F["point"]({"x": 0, "y": 0}), p) == 5.0
    assert F["point.distance"](p, F["point"]({"latitude": 1, "longitude": 2})) is None
    geo = F["point"]({"longitude": 12.78, "latitude": 56.7, "height": 100.0})
    assert (geo.crs, T.component(geo, "latitude"), T.component(geo, "z")) == ("wgs-84-3d", 56.7, 100.0)
    malmo = F["point"]({"longitude": 13.0, "latitude": 55.6})
    stockholm = F["point"]({"longitude": 18.07, "latitude": 59.33})
    assert math.isclose(F["point.distance"](malmo, stockholm), 513_000, rel_tol=0.01)
    box = (F["point"]({"x": 0, "y": 0}), F["point"]({"x": 10, "y": 10}))
    assert F["point.withinbbox"](p, *box) is True
    assert F["point.withinbbox"](F["point"]({"x": 11, "y": 1}), *box) is False
    across = (F["point"]({"longitude": 170, "latitude": -10}), F["point"]({"longitude": -170, "latitude": 10}))
    assert F["point.withinbbox"](F["point"]({"longitude": 179, "latitude": 0}), *across) is True
    assert F["point.withinbbox"](F["point"]({"longitude": 0, "latitude": 0}), *across) is False
    assert F["point"]({"x": None, "y": 1}) is None
    with pytest.raises(CypherArgumentError):
        F["point"]({"longitude": 1, "latitude": 91})
    with pytest.raises(CypherArgumentError):
        F["point"]({"x": 1, "y": 2, "crs": "wgs-84-3d"})


def test_between_date_times_counts_time_on_the_timeline():
    # Stockholm moved its clocks from 02:00 to 03:00 on 2015-03-29: that day had 23 hours.
    a = F["datetime"]("2015-03-28T12:00[Europe/Stockholm]")
    b = F["datetime"]("2015-03-29T12:00[Europe/Stockholm]")
    assert str(F["duration.between"](a, b)) == "P1D"
    assert str(F["duration.inseconds"](a, b)) == "PT23H"
    assert str(F["duration.between"](a, F["datetime"]("2015-03-29T10:00Z"))) == "P1D"
    assert str(F["duration.between"](F["datetime"]("2015-01-31T10:00Z"),
                                      F["datetime"]("2015-03-01T09:00+01:00"))) == "P28DT22H"


def test_local_date_times_on_one_day_compare_by_time():
    early = F["localdatetime"]("1984-10-11T12:30:14.000000012")
    late = F["localdatetime"]("1984-10-11T12:31:14.645876123")
    assert (T.compare(early, late), T.compare(late, early), T.compare(late, late)) == (-1, 1, 0)


BER26 = "datetime('2022-03-26T12:00[Europe/Berlin]')"
BER26H = "datetime('2022-03-26T12:30[Europe/Berlin]')"
BER27 = "datetime('2022-03-27T12:00[Europe/Berlin]')"


@pytest.mark.parametrize("fn,a,b,expected", [
    ("duration.inseconds", BER26, "localdatetime('2022-03-27T12:00')", "PT23H"),
    ("duration.inseconds", "localdatetime('2022-03-27T12:00')", BER26, "PT-23H"),
    ("duration.between", "localdatetime('2022-03-26T12:30')", BER27, "PT22H30M"),
    ("duration.between", BER26H, "localdatetime('2022-03-27T12:00')", "PT22H30M"),
    ("duration.indays", BER26, "localdatetime('2022-03-27T12:00')", "P1D"),
    ("duration.inmonths", "localdatetime('2022-02-27T12:00')", BER27, "P1M"),
    ("duration.inseconds", "date('2022-03-27')", "datetime('2022-03-28T00:00[Europe/Berlin]')", "PT23H"),
    ("duration.inseconds", "datetime('2022-03-27T01:00[Europe/Berlin]')", "localtime('03:30')", "PT1H30M"),
    ("duration.between", "localtime('03:30')", "datetime('2022-03-27T01:00[Europe/Berlin]')", "PT-1H-30M"),
])
def test_a_local_value_is_read_in_the_zone_of_the_other_across_daylight_saving(db, fn, a, b, expected):
    # 12:00 on the day clocks go forward is 23 hours after 12:00 the day before, in Berlin
    assert str(db.execute(f"RETURN {fn}({a}, {b}) AS d").cypher_rows[0][0]) == expected
