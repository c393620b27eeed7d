"""Bolt parameters carry dates as days since the epoch: any supported year crosses, years past
+/-999,999,999 are a `Request.Invalid` error naming the range."""
from __future__ import annotations

import pytest

from relate.errors import RelateError
from relate.protocols.bolt_packstream import Structure
from relate.protocols.bolt_values import from_bolt, to_bolt
from relate.temporal.build import from_text

FAR = (from_text("date", "+999999999-12-31"), from_text("date", "-0001-01-01"),
       from_text("localdatetime", "+10000-01-01T12:00"),
       from_text("datetime", "-999999999-01-01T00:00+18:00"),
       from_text("datetime", "+10000-07-01T00:00+02:00[Europe/Stockholm]"))


@pytest.mark.parametrize("v", FAR, ids=str)
def test_far_years_cross_both_ways(v):
    assert from_bolt(to_bolt(v)) == v


@pytest.mark.parametrize("tag, fields", [
    (0x44, [365_242_499_634 - 719_163 + 1]),  # the day after +999999999-12-31
    (0x64, [-(719_163 + 365_242_500_000) * 86_400, 0]),
    (0x69, [10 ** 17, 0, "Europe/Stockholm"]),
])
def test_past_the_range_is_refused(tag, fields):
    with pytest.raises(RelateError, match="outside the years -999999999 to 999999999"):
        from_bolt(Structure(tag, fields))
