"""Years outside 1..9999 (issue 15): dates run from -999999999-01-01 to +999999999-12-31, as in
the reference dialect, and print as java.time prints them (`+10000-01-01`, `-0001-01-01`).

Each test runs Cypher on every store kind (the `db` fixture) and reads the text a user sees."""
from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings, strategies as st

from relate.errors import CypherArgumentError, UsageError
from relate.temporal import DateTime, LocalDateTime
from relate.temporal.build import from_text, make
from relate.temporal.calendar import iso_week, ordinal_to_ymd, weekday, ymd_to_ordinal
from relate.temporal.values import MAX_ORDINAL, MIN_ORDINAL, Date


def text(db, expr: str):
    """`toString(expr)` (or the row of them, for a comma list of expressions)."""
    cols = ", ".join(f"toString({e}) AS c{i}" for i, e in enumerate(expr.split(" ;; ")))
    row = db.run(db.prepare("RETURN " + cols)).rows[0]
    return row[0] if len(row) == 1 else row


def value(db, q: str):
    return db.run(db.prepare(q)).rows[0][0]


# ---------------------------------------------------------------- the calendar itself

def _civil_from_days(z: int) -> tuple[int, int, int]:
    """An independent oracle: H. Hinnant's days -> civil date (z days after 1970-01-01)."""
    z += 719_468
    era = z // 146_097
    doe = z - era * 146_097
    yoe = (doe - doe // 1460 + doe // 36_524 - doe // 146_096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (m <= 2), m, d


EPOCH = 719_163  # the ordinal of 1970-01-01


@settings(max_examples=500)
@given(st.one_of(st.integers(MIN_ORDINAL, MAX_ORDINAL), st.integers(-800_000, 800_000),
                 st.sampled_from([MIN_ORDINAL, MAX_ORDINAL, 0, 1, 3_652_059, 3_652_060])))
def test_calendar_agrees_with_an_independent_algorithm(ordinal):
    ymd = _civil_from_days(ordinal - EPOCH)
    assert ordinal_to_ymd(ordinal) == ymd
    assert ymd_to_ordinal(*ymd) == ordinal


def test_the_range_ends():
    assert ordinal_to_ymd(MIN_ORDINAL) == (-999_999_999, 1, 1)
    assert ordinal_to_ymd(MAX_ORDINAL) == (999_999_999, 12, 31)
    # day 0 is the eve of 0001-01-01, in year 0 (a leap year)
    assert ordinal_to_ymd(0) == (0, 12, 31) and ymd_to_ordinal(0, 2, 29) == ymd_to_ordinal(0, 3, 1) - 1
    assert weekday(MIN_ORDINAL) == 1 and iso_week(MAX_ORDINAL) == (999_999_999, 52, 5)


# ---------------------------------------------------------------- text

@pytest.mark.parametrize("literal, shown", [
    ("date('+999999999-12-31')", "+999999999-12-31"),
    ("date('-999999999-01-01')", "-999999999-01-01"),
    ("date({year: 10000, month: 1, day: 1})", "+10000-01-01"),
    ("date({year: -1, month: 1, day: 1})", "-0001-01-01"),
    ("date({year: 0, month: 2, day: 29})", "0000-02-29"),
    ("localdatetime({year: -999999999, month: 1, day: 1, hour: 0})", "-999999999-01-01T00:00"),
    ("localdatetime('+999999999-12-31T23:59:59.999999999')", "+999999999-12-31T23:59:59.999999999"),
    ("datetime('+999999999-12-31T23:59:59.999999999-18:00')", "+999999999-12-31T23:59:59.999999999-18:00"),
    ("datetime('-999999999-01-01T00:00+18:00')", "-999999999-01-01T00:00+18:00"),
    ("date('+012345-W01-1')", "+12345-01-01"),
    ("date('-2000-060')", "-2000-02-29"),
])
def test_text_at_both_ends_reads_back(db, literal, shown):
    assert text(db, literal) == shown
    kind = literal.split("(")[0]
    assert text(db, f"{kind}('{shown}')") == shown


ordinals = st.integers(MIN_ORDINAL, MAX_ORDINAL)
nanos = st.integers(0, 86_400 * 10 ** 9 - 1)


@settings(max_examples=300)
@given(st.one_of(st.builds(Date, ordinals), st.builds(LocalDateTime, ordinals, nanos),
                 st.builds(DateTime, ordinals, nanos, st.integers(-18 * 3600, 18 * 3600))))
def test_every_supported_day_prints_and_parses_back(v):
    kind = {Date: "date", LocalDateTime: "localdatetime", DateTime: "datetime"}[type(v)]
    assert from_text(kind, str(v)) == v


@settings(max_examples=200)
@given(st.integers(MIN_ORDINAL + 1, MAX_ORDINAL - 1), nanos,
       st.sampled_from(["Europe/Stockholm", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata"]))
def test_region_zoned_values_print_and_parse_back(ordinal, nanos, zone):
    v = make("datetime", ordinal, nanos, None, zone)
    assert from_text("datetime", str(v)) == v


# ---------------------------------------------------------------- order and arithmetic

def test_comparison_across_year_10000_and_year_0(db):
    assert value(db, "RETURN date('9999-12-31') < date('+10000-01-01')") is True
    assert value(db, "RETURN date('-0001-12-31') < date('0000-01-01') < date('0001-01-01')") is True
    assert value(db, "RETURN localdatetime('+10000-01-01T00:00') > localdatetime('9999-12-31T23:59')") is True
    assert value(db, "RETURN datetime('+10000-01-01T00:00+01:00') < datetime('9999-12-31T23:30-01:00')") is True
    rows = db.run(db.prepare(
        "UNWIND ['+10000-01-01', '9999-12-31', '-0001-06-01', '0000-01-01', '-999999999-01-01',"
        " '+999999999-12-31', '1984-10-11'] AS t RETURN toString(date(t)) AS d ORDER BY date(t)")).rows
    assert [r[0] for r in rows] == ["-999999999-01-01", "-0001-06-01", "0000-01-01", "1984-10-11",
                                    "9999-12-31", "+10000-01-01", "+999999999-12-31"]


@pytest.mark.parametrize("expr, shown", [
    ("date('9999-12-31') + duration('P1D')", "+10000-01-01"),
    ("date('0000-01-01') - duration('P1D')", "-0001-12-31"),
    ("date('0001-01-01') - duration('P1Y')", "0000-01-01"),
    ("date('+10000-01-31') + duration('P1M')", "+10000-02-29"),  # 10000 is a leap year
    ("date('9999-03-15') + duration('P1000Y')", "+10999-03-15"),
    ("localdatetime('9999-12-31T23:59:59') + duration('PT1S')", "+10000-01-01T00:00"),
    ("localdatetime('+999999999-12-31T23:59:59.999999999')"
     " - duration('P1999999998Y11M30DT23H59M59.999999999S')", "-999999999-01-01T00:00"),
    ("datetime('9999-12-31T23:00Z') + duration('PT2H')", "+10000-01-01T01:00Z"),
])
def test_adding_a_duration_crosses_the_old_limits(db, expr, shown):
    assert text(db, expr) == shown


@pytest.mark.parametrize("a, b, shown", [
    ("date('9999-06-15')", "date('+10001-01-01')", "P1Y6M17D"),
    ("date('+10001-01-01')", "date('9999-06-15')", "P-1Y-6M-16D"),
    ("date('-0001-12-31')", "date('0001-01-01')", "P1Y1D"),
    ("date('-999999999-01-01')", "date('+999999999-12-31')", "P1999999998Y11M30D"),
    ("localdatetime('9999-12-31T12:00')", "localdatetime('+10000-01-01T06:00')", "PT18H"),
    ("datetime('9999-12-31T23:00-05:00')", "datetime('+10000-01-01T06:00+01:00')", "PT1H"),
])
def test_duration_between_across_the_boundary(db, a, b, shown):
    assert text(db, f"duration.between({a}, {b})") == shown


def test_duration_in_days_and_seconds_across_the_boundary(db):
    assert value(db, "RETURN duration.inDays(date('9999-12-31'), date('+10000-12-31')).days") == 366
    assert value(db, "RETURN duration.inSeconds(localdatetime('0000-12-31T23:00'),"
                     " localdatetime('0001-01-01T01:00')).seconds") == 7200
    assert value(db, "RETURN duration.inMonths(date('-999999999-01-01'), date('+999999999-12-31')).months") \
        == 1_999_999_998 * 12 + 11


# ---------------------------------------------------------------- components, weeks, truncation

def test_components_outside_the_old_range(db):
    assert value(db, "RETURN date('-0001-03-01').year") == -1
    assert value(db, "RETURN date('+10000-12-31').ordinalDay") == 366
    assert value(db, "RETURN date('0000-12-31').dayOfWeek") == 7
    assert value(db, "RETURN date('+999999999-12-31').quarter") == 4
    assert value(db, "RETURN datetime('+10000-01-01T00:00Z').epochSeconds") == 253402300800


@pytest.mark.parametrize("expr, shown", [
    ("date('0000-01-01').weekYear ;; date('0000-01-01').week", ("-1", "52")),
    ("date('+10000-01-02').weekYear ;; date('+10000-01-02').week", ("9999", "52")),
    ("date('+10000-01-03').weekYear ;; date('+10000-01-03').week", ("10000", "1")),
    ("date({year: 0, week: 1, dayOfWeek: 1})", "0000-01-03"),
    ("date({year: 10000, week: 52, dayOfWeek: 7})", "+10000-12-31"),
    ("date('-999999999-W01-1')", "-999999999-01-01"),
    ("date({year: 999999999, week: 52, dayOfWeek: 5})", "+999999999-12-31"),
])
def test_week_based_years(db, expr, shown):
    assert text(db, expr) == shown


@pytest.mark.parametrize("unit, date, shown", [
    ("millennium", "-1500-05-05", "-1000-01-01"),  # toward zero, as the reference dialect cuts
    ("millennium", "0500-05-05", "0000-01-01"),
    ("century", "+10150-05-05", "+10100-01-01"),
    ("decade", "-0005-05-05", "0000-01-01"),
    ("year", "-0005-05-05", "-0005-01-01"),
    ("weekyear", "+10000-01-01", "9999-01-04"),
    ("quarter", "+999999999-12-31", "+999999999-10-01"),
    ("week", "-999999999-01-07", "-999999999-01-01"),
])
def test_truncation(db, unit, date, shown):
    assert text(db, f"date.truncate('{unit}', date('{date}'))") == shown
    assert text(db, f"localdatetime.truncate('{unit}', localdatetime('{date}T12:00'))") == shown + "T00:00"


# ---------------------------------------------------------------- zones, storage

def test_region_zones_far_from_now(db):
    # the last rule goes on into the far future (summer time in July, not in January) ...
    assert text(db, "datetime({year: 100000, month: 7, day: 1, timezone: 'Europe/Stockholm'})") \
        == "+100000-07-01T00:00+02:00[Europe/Stockholm]"
    assert text(db, "datetime({year: 100000, month: 1, day: 1, timezone: 'Europe/Stockholm'})") \
        == "+100000-01-01T00:00+01:00[Europe/Stockholm]"
    # ... and the far past keeps the zone's first offset (its local mean time)
    first = text(db, "datetime({year: 1, month: 1, day: 1, timezone: 'Europe/Stockholm'}).offset")
    assert text(db, "datetime({year: -5000, month: 6, day: 1, timezone: 'Europe/Stockholm'}).offset") == first
    assert text(db, "datetime('+999999999-12-31T12:00[America/New_York]')") \
        == "+999999999-12-31T12:00-05:00[America/New_York]"


def test_stored_properties_come_back_after_reopening(db, reopen):
    db.run(db.prepare(
        "CREATE (:E {d: date('+999999999-12-31'), l: localdatetime('-0001-02-03T04:05'),"
        " z: datetime('+10000-06-01T12:00[Europe/Stockholm]'), ds: [date('0000-01-01')]})"))
    db = reopen(db)
    row = db.run(db.prepare("MATCH (e:E) RETURN toString(e.d), toString(e.l), toString(e.z),"
                            " toString(e.ds[0]), e.d > date('9999-12-31')")).rows[0]
    assert row == ("+999999999-12-31", "-0001-02-03T04:05", "+10000-06-01T12:00+02:00[Europe/Stockholm]",
                   "0000-01-01", True)


# ---------------------------------------------------------------- errors past the range

@pytest.mark.parametrize("expr, detail", [
    ("date({year: 1000000000, month: 1, day: 1})", "`year` must be between -999999999 and 999999999"),
    ("date({year: -1000000000})", "`year` must be between -999999999 and 999999999"),
    ("date('+999999999-12-31') + duration('P1D')", "outside the supported years -999999999 to 999999999"),
    ("date('-999999999-01-01') - duration('P1M')", "outside the supported years -999999999 to 999999999"),
    ("localdatetime('+999999999-12-31T23:59:59.999999999') + duration('PT0.000000001S')",
     "outside the supported years -999999999 to 999999999"),
    ("datetime({epochSeconds: 40000000000000000})", "outside the supported years -999999999 to 999999999"),
    ("date({year: 999999999, month: 12, day: 32})", "invalid date: day 32 of month 12 in year 999999999"),
    ("date({year: 999999999, week: 52, dayOfWeek: 7})", "the date is outside the supported years"),
])
def test_values_past_the_range_are_argument_errors(db, expr, detail):
    with pytest.raises(CypherArgumentError) as e:
        value(db, f"RETURN {expr}")
    assert detail in str(e.value)


# ---------------------------------------------------------------- the Python door

def test_python_rows_refuse_what_datetime_cannot_hold(db):
    for q, shown in [("RETURN date('+10000-01-01')", "+10000-01-01"),
                     ("RETURN localdatetime('-0001-01-01T00:00')", "-0001-01-01T00:00"),
                     ("RETURN datetime('0000-06-01T00:00Z')", "0000-06-01T00:00Z")]:
        with pytest.raises(UsageError) as e:
            db.execute(q)
        assert shown in str(e.value)
    with pytest.raises(UsageError, match=r"\+10000-01-01 is outside the years 1 to 9999"):
        Date(ymd_to_ordinal(10000, 1, 1)).to_date()
    # inside Python's years the door still works, at the old limits too
    assert db.execute("RETURN date('9999-12-31'), date('0001-01-01')").rows == [
        (dt.date(9999, 12, 31), dt.date(1, 1, 1))]
