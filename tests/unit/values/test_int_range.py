"""The one 64-bit integer range (`relate.values.ints`), as literals, arithmetic, conversions and
command-line parameters see it."""
from __future__ import annotations

import pytest

import relate
from relate.errors import RelateError, UsageError
from relate.cli.params import parse_param
from relate.values.ints import INT_MAX, INT_MIN, check_int


def test_the_range_is_signed_64_bit():
    assert (INT_MIN, INT_MAX) == (-(2 ** 63), 2 ** 63 - 1)
    assert check_int(INT_MIN) == INT_MIN and check_int(INT_MAX) == INT_MAX
    for n in (INT_MIN - 1, INT_MAX + 1):
        with pytest.raises(RelateError) as e:
            check_int(n)
        assert e.value.kind == "IntegerOverflow"


@pytest.mark.parametrize("query", [
    "RETURN 9223372036854775807 + 1", "RETURN -9223372036854775808 - 1",
    "RETURN toInteger('9223372036854775808')", "RETURN abs(-9223372036854775808)",
])
def test_results_past_the_range_overflow(query):
    with pytest.raises(RelateError) as e:
        relate.connect().execute(query)
    assert e.value.kind == "IntegerOverflow"


def test_the_ends_of_the_range_are_values():
    rows = relate.connect().execute("RETURN 9223372036854775807, -9223372036854775808").rows
    assert rows == [(INT_MAX, INT_MIN)]


def test_a_parameter_must_fit_the_range():
    assert parse_param(f"n={INT_MAX}") == ("n", INT_MAX)
    with pytest.raises(UsageError):
        parse_param(f"n={INT_MAX + 1}")


@pytest.mark.needs_native_stack
def test_wide_int_path_names_the_first_integer_past_the_range():
    from relate.values.ints import wide_int_path

    assert wide_int_path({"a": INT_MAX, "b": [INT_MIN, 1.5e300, True, None, "x"], "c": {"d": ()}}) is None
    assert wide_int_path({"a": 1, "x": INT_MAX + 1}) == "$x"
    assert wide_int_path({"rows": [{"v": 1}, {"v": 2, "w": [0, INT_MIN - 1]}]}) == "$rows[1].w[1]"
    assert wide_int_path({"a b": (1, {"c`d": 2 ** 70})}) == "$`a b`[1].`c``d`"
    deep: list = [2 ** 64]
    for _ in range(5000):  # any depth, no recursion
        deep = [deep]
    assert wide_int_path({"x": deep}) == "$x" + "[0]" * 5001
