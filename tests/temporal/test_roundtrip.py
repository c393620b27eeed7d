"""Property tests: the text relate prints for a temporal value reads back as the same value, and
the stores' (tag, JSON data) form keeps every value and zone name."""
from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

import relate.temporal as T
from relate.temporal import FUNCTIONS, Date, DateTime, Duration, LocalDateTime, LocalTime, Point, Time
from relate.temporal.build import make

F = {name: entry[0] for name, entry in FUNCTIONS.items()}
NANOS_PER_DAY = 86_400 * 10 ** 9
ZONES = ["Europe/Stockholm", "Europe/London", "America/New_York", "Australia/Eucla",
         "Asia/Kolkata", "Pacific/Chatham", "America/St_Johns", "UTC", "Africa/Monrovia"]

ordinals = st.integers(1, 3_652_059)  # 0001-01-01 .. 9999-12-31
times = st.one_of(st.integers(0, NANOS_PER_DAY - 1),
                  st.integers(0, 86_399).map(lambda s: s * 10 ** 9),
                  st.integers(0, 86_399_999).map(lambda ms: ms * 10 ** 6))
offsets = st.one_of(st.integers(-18 * 3600, 18 * 3600), st.integers(-72, 72).map(lambda q: q * 900))
dates = st.builds(Date, ordinals)
localtimes = st.builds(LocalTime, times)
offset_times = st.builds(Time, times, offsets)
localdatetimes = st.builds(LocalDateTime, ordinals, times)
fixed_datetimes = st.builds(DateTime, ordinals, times, offsets)
# Region zones decide the offset themselves; build through the zone rules (years 2..9998 so that
# the local time plus any offset stays inside the supported range).
zoned_datetimes = st.builds(lambda o, n, z: make("datetime", o, n, None, z),
                            st.integers(366, 3_651_694), times, st.sampled_from(ZONES))
durations = st.builds(Duration, st.integers(-10 ** 6, 10 ** 6), st.integers(-10 ** 7, 10 ** 7),
                      st.integers(-10 ** 20, 10 ** 20))
points = st.one_of(
    st.builds(lambda x, y: Point(7203, (x, y)), st.floats(allow_nan=False), st.floats(allow_nan=False)),
    st.builds(lambda x, y, z: Point(9157, (x, y, z)), st.floats(allow_nan=False),
              st.floats(allow_nan=False), st.floats(allow_nan=False)),
    st.builds(lambda x, y: Point(4326, (x, y)), st.floats(-180, 180), st.floats(-90, 90)),
    st.builds(lambda x, y, h: Point(4979, (x, y, h)), st.floats(-180, 180), st.floats(-90, 90),
              st.floats(-1e6, 1e6)),
)

KIND = {Date: "date", LocalTime: "localtime", Time: "time", LocalDateTime: "localdatetime",
        DateTime: "datetime"}
any_temporal = st.one_of(dates, localtimes, offset_times, localdatetimes, fixed_datetimes,
                         zoned_datetimes)


@settings(max_examples=400)
@given(any_temporal)
def test_render_parse_render_is_identity(value):
    text = str(value)
    again = F[KIND[type(value)]](text)
    assert str(again) == text
    assert again == value


@settings(max_examples=400)
@given(durations)
def test_duration_render_parse_render_is_identity(value):
    text = str(value)
    again = F["duration"](text)
    assert str(again) == text
    assert again == value


@settings(max_examples=300)
@given(st.one_of(any_temporal, durations, points))
def test_store_form_round_trips(value):
    tag, data = T.encode(value)
    back = T.decode(tag, json.loads(json.dumps(data)))
    assert back == value and type(back) is type(value)
    if isinstance(value, DateTime):
        assert back.zone == value.zone


@given(zoned_datetimes)
def test_zoned_offset_agrees_with_the_zone_rules(value):
    # the same instant seen in the same zone gives back the same local fields and offset
    from relate.temporal.build import at_instant
    assert at_instant(value.epoch_nanos(), None, value.zone) == value


time_durations = st.builds(Duration, st.just(0), st.just(0), st.integers(-10 ** 15, 10 ** 15))
small_ldt = st.builds(LocalDateTime, st.integers(40_000, 3_600_000), times)


@given(small_ldt, time_durations)
def test_adding_then_subtracting_a_time_duration_returns_the_start(value, d):
    moved = T.add(value, d)
    assert T.subtract(moved, d) == value
    assert F["duration.inseconds"](value, moved) == d


@given(dates, st.integers(-10_000, 10_000))
def test_days_between_a_date_and_the_date_moved_by_days(value, days):
    d = Duration(0, days, 0)
    if not 1 <= value.ordinal + days <= 3_652_059:
        return
    assert F["duration.indays"](value, T.add(value, d)) == d
