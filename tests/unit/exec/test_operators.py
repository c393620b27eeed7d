"""Operators and aggregates on values: arithmetic, equality and comparison across types, the
global sort order, three-valued logic, lists, maps and aggregation."""
from __future__ import annotations

import math

import pytest
from hypothesis import given, settings, strategies as st

import relate
from relate.errors import RelateError
from tests.unit.answers import fails, one


def test_integer_division_and_modulo_truncate_toward_zero(db):
    assert one(db, "RETURN 7 / 2, -7 / 2, 7 % -3, -7 % 3, 7.5 % 2, -7.5 % 2") == (3, -3, 1, -1, 1.5, -1.5)


def test_power_is_always_a_float(db):
    got = one(db, "RETURN 2 ^ 10, 2 ^ -1, (-8) ^ (1.0 / 3), 0 ^ -1")
    assert got[:2] == (1024.0, 0.5) and math.isnan(got[2]) and got[3] == math.inf


def test_float_division_by_zero_gives_infinities_and_nan(db):
    got = one(db, "RETURN 1.0 / 0, -1 / 0.0, 0.0 / 0.0, 1 % 0.0")
    assert got[0] == math.inf and got[1] == -math.inf and math.isnan(got[2]) and math.isnan(got[3])


@pytest.mark.parametrize("q, kind", [
    ("RETURN 1 / $z", "DivisionByZero"), ("RETURN 1 % $z", "DivisionByZero"),
    ("RETURN 9223372036854775807 + $one", "IntegerOverflow"),
    ("RETURN -9223372036854775808 - $one", "IntegerOverflow"),
    ("RETURN 4611686018427387904 * 2", "IntegerOverflow"),
    ("RETURN -9223372036854775808 / -1", "IntegerOverflow"),
    ("RETURN abs(-9223372036854775808)", "IntegerOverflow"),
    ("UNWIND [9223372036854775807, 1] AS x RETURN sum(x)", "IntegerOverflow"),
])
def test_integer_arithmetic_errors(db, q, kind):
    e = fails(db, q, z=0, one=1)
    assert (e.tck_type, e.phase, e.kind) == ("ArithmeticError", "runtime", kind)


def test_the_smallest_integer_literal_is_allowed(db):
    assert one(db, "RETURN -9223372036854775808") == -(2 ** 63)


def test_list_concatenation(db):
    assert one(db, "RETURN [1] + [2], [1] + 2, 0 + [1], [1] + null") == ([1, 2], [1, 2], [0, 1], None)


@pytest.mark.parametrize("expr, expected", [
    ("true AND null", None), ("false AND null", False), ("true OR null", True), ("false OR null", None),
    ("true XOR null", None), ("NOT null", None), ("null IS NULL", True), ("null IN []", False),
    ("null IN [1]", None), ("1 IN [null, 1]", True), ("2 IN [null, 1]", None), ("[1] IN [[1]]", True),
])
def test_three_valued_logic(db, expr, expected):
    assert one(db, f"RETURN {expr}") is expected


def test_list_indexing_and_slicing(db):
    q = "WITH [1, 2, 3] AS l RETURN l[0], l[-1], l[5], l[1..], l[-2..], l[..-1], l[2..1], l[null]"
    assert one(db, q) == (1, 3, None, [2, 3], [2, 3], [1, 2], [], None)


def test_comprehensions_and_quantifiers(db):
    q = ("WITH [1, 2, 3, null] AS l RETURN [x IN l WHERE x > 1 | x * 10], all(x IN l WHERE x > 0), "
         "any(x IN l WHERE x > 2), none(x IN l WHERE x > 5), single(x IN l WHERE x = 2)")
    assert one(db, q) == ([20, 30], None, True, None, None)


def test_map_access_and_projection(db):
    db.execute("CREATE (:P {name: 'Ada', age: 36})")
    q = "MATCH (p:P) WITH p, {k: 1} AS m RETURN m.k, m['k'], m.missing, p {.name, x: 2}, p {.*}"
    assert one(db, q) == (1, 1, None, {"name": "Ada", "x": 2}, {"name": "Ada", "age": 36})


def test_regular_expressions(db):
    assert one(db, "RETURN 'abc' =~ 'a.c', 'abc' =~ 'b', 'ABC' =~ '(?i)abc', null =~ 'a'") == (True, False, True, None)
    e = fails(db, "RETURN 'a' =~ '('")
    assert (e.tck_type, e.kind) == ("ArgumentError", "InvalidArgumentValue")


def test_case(db):
    q = ("UNWIND [1, 2, null] AS x RETURN CASE x WHEN 1 THEN 'one' WHEN null THEN 'null' ELSE 'other' END, "
         "CASE WHEN x > 1 THEN 'big' END")
    assert db.execute(q).rows == [("one", None), ("other", "big"), ("other", None)]


def test_aggregates(db):
    q = ("UNWIND [1, 2, 2, null, 5] AS x RETURN count(x), count(*), count(DISTINCT x), sum(x), avg(x), "
         "min(x), max(x), collect(x), collect(DISTINCT x)")
    assert one(db, q) == (4, 5, 3, 10, 2.5, 1, 5, [1, 2, 2, 5], [1, 2, 5])


def test_aggregates_over_nothing(db):
    q = "UNWIND [] AS x RETURN count(x), sum(x), avg(x), min(x), collect(x), stDev(x), percentileDisc(x, 0.5)"
    assert one(db, q) == (0, 0, None, None, [], 0.0, None)


def test_percentiles_and_deviation(db):
    q = ("UNWIND [10, 20, 30, 40] AS x RETURN percentileDisc(x, 0.5), percentileCont(x, 0.5), "
         "percentileDisc(x, 0), percentileDisc(x, 1), percentileCont(x, 0.25), stDevP(x)")
    assert one(db, q) == (20, 25.0, 10, 40, 17.5, math.sqrt(125))
    assert one(db, "UNWIND [2, 4] AS x RETURN stDev(x)") == pytest.approx(math.sqrt(2))


def test_percentile_outside_zero_to_one_is_out_of_range(db):
    e = fails(db, "UNWIND [1, 2] AS x RETURN percentileCont(x, 1.5)")
    assert (e.tck_type, e.phase, e.kind) == ("ArgumentError", "runtime", "NumberOutOfRange")


def test_sum_of_mixed_numbers_is_a_float(db):
    assert one(db, "UNWIND [1, 2.5] AS x RETURN sum(x), avg(x)") == (3.5, 1.75)


# ---------------------------------------------------------------- properties over many values

INT64 = st.integers(min_value=-(2 ** 63), max_value=2 ** 63 - 1)
_DB = relate.connect()


@settings(max_examples=200, deadline=None)
@given(INT64, INT64.filter(lambda b: b != 0))
def test_integer_division_identity(a, b):
    try:
        q, r = _DB.execute("RETURN $a / $b, $a % $b", {"a": a, "b": b}).rows[0]
    except RelateError as e:  # only MIN / -1 leaves the range
        assert (a, b, e.kind) == (-(2 ** 63), -1, "IntegerOverflow")
        return
    assert q * b + r == a                 # the division identity holds exactly
    assert abs(r) < abs(b)
    assert r == 0 or (r > 0) == (a > 0)   # the remainder takes the dividend's sign


@settings(max_examples=200, deadline=None)
@given(INT64, INT64)
def test_integer_addition_is_exact_or_an_overflow(a, b):
    try:
        (s,) = _DB.execute("RETURN $a + $b", {"a": a, "b": b}).rows[0]
    except RelateError as e:
        assert e.kind == "IntegerOverflow" and not -(2 ** 63) <= a + b < 2 ** 63
        return
    assert s == a + b


def test_reduce_folds_a_list(db):
    q = ("WITH 5 AS x RETURN reduce(acc = 0, y IN [1, 2, 3] | acc + y), "
         "reduce(s = '', w IN ['a', 'b'] | s + w), reduce(acc = x, x IN [1, 2] | acc * 10 + x), "
         "reduce(a = 1, n IN null | a), x")
    assert one(db, q) == (6, "ab", 512, None, 5)
    assert one(db, "UNWIND [1, 2] AS y RETURN reduce(acc = 0, x IN collect(y) | acc + x)") == 3
    e = fails(db, "MATCH (n) RETURN reduce(acc = 0, x IN [1] | acc + count(*))")
    assert (e.phase, e.kind) == ("compile", "InvalidAggregation")
