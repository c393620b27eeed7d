"""Scalar functions as a user sees them in `RETURN`: conversions, strings, lists, numbers and
graph elements, with their null and error behaviour."""
from __future__ import annotations

import math

import pytest

from tests.unit.answers import fails, one


@pytest.mark.parametrize("expr, text", [
    ("1.0", "1.0"), ("0.1", "0.1"), ("1e7", "1.0E7"), ("9999999.0", "9999999.0"), ("0.001", "0.001"),
    ("0.0001", "1.0E-4"), ("-2.5e-10", "-2.5E-10"), ("1.5e300", "1.5E300"), ("-0.0", "-0.0"),
    ("0.1 + 0.2", "0.30000000000000004"), ("0.0 / 0.0", "NaN"), ("1.0 / 0", "Infinity"),
    ("123", "123"), ("true", "true"), ("'s'", "s"),
])
def test_to_string_writes_numbers_as_java_does(db, expr, text):
    assert one(db, f"RETURN toString({expr})") == text


def test_string_concatenation_with_numbers_uses_the_same_text(db):
    assert one(db, "RETURN 'v' + 1.0 + 2") == "v1.02"


@pytest.mark.parametrize("arg, expected", [
    ("'42'", 42), ("' 42 '", 42), ("'1.9'", 1), ("'-1.9'", -1), ("'1e3'", 1000), ("'foo'", None),
    ("''", None), ("2.9", 2), ("-2.9", -2), ("true", 1), ("null", None),
])
def test_to_integer(db, arg, expected):
    assert one(db, f"RETURN toInteger({arg})") == expected


@pytest.mark.parametrize("arg, expected", [
    ("'1.5'", 1.5), ("' 2 '", 2.0), ("'Infinity'", math.inf), ("'inf'", None), ("'1_0'", None),
    ("3", 3.0), ("'x'", None),
])
def test_to_float(db, arg, expected):
    assert one(db, f"RETURN toFloat({arg})") == expected


def test_to_boolean(db):
    assert one(db, "RETURN [toBoolean('true'), toBoolean(' FALSE '), toBoolean('yes'), toBoolean(0)]") == \
        [True, False, None, False]


def test_or_null_conversions_never_fail(db):
    assert one(db, "RETURN [toIntegerOrNull([]), toFloatOrNull({}), toBooleanOrNull(1.5), "
                   "toStringOrNull([1]), toIntegerOrNull('7')]") == [None, None, None, None, 7]


def test_list_conversions_go_element_by_element(db):
    assert one(db, "RETURN toIntegerList(['1', 2.5, 'x', null])") == [1, 2, None, None]
    assert one(db, "RETURN toStringList([1, 1.5, true])") == ["1", "1.5", "true"]


def test_string_functions(db):
    q = ("RETURN substring('hello', 1, 3), substring('hello', 2), left('hello', 2), right('hello', 2), "
         "toUpper('abc'), toLower('ABC'), trim('  a  '), lTrim('  a'), rTrim('a  '), "
         "replace('banana', 'an', 'AN'), reverse('abc'), split('a,b,,c', ','), split('abc', '')")
    assert one(db, q) == ("ell", "llo", "he", "lo", "ABC", "abc", "a", "a", "a", "bANANa", "cba",
                          ["a", "b", "", "c"], ["a", "b", "c"])


def test_string_functions_return_null_for_a_null_string(db):
    assert one(db, "RETURN [substring(null, 1), left(null, 1), toUpper(null), split(null, ',')]") == \
        [None, None, None, None]


@pytest.mark.parametrize("q, kind", [
    ("RETURN substring('hello', -1)", "NegativeIntegerArgument"),
    ("RETURN left('hello', -1)", "NegativeIntegerArgument"),
    ("RETURN right('hello', $n)", "InvalidArgumentValue"),
])
def test_string_function_argument_errors(db, q, kind):
    e = fails(db, q, n=None)
    assert (e.tck_type, e.phase, e.kind) == ("ArgumentError", "runtime", kind)


def test_list_functions(db):
    q = ("RETURN head([1, 2]), last([1, 2]), tail([1, 2, 3]), reverse([1, 2]), size([1, 2, 3]), "
         "size('ab'), head([]), range(0, 10, 3), range(5, 1, -2), range(0, -1), coalesce(null, 2, 3)")
    assert one(db, q) == (1, 2, [2, 3], [2, 1], 3, 2, None, [0, 3, 6, 9], [5, 3, 1], [], 2)


def test_range_step_zero_is_out_of_range(db):
    e = fails(db, "RETURN range(1, 2, 0)")
    assert (e.tck_type, e.kind) == ("ArgumentError", "NumberOutOfRange")


@pytest.mark.parametrize("q, expected", [
    ("RETURN abs(-3), abs(-2.5), sign(-7), sign(0.5), sign(0)", (3, 2.5, -1, 1, 0)),
    ("RETURN ceil(1.2), floor(-1.2), round(2.5), round(-2.5), round(1.5)", (2.0, -2.0, 3.0, -2.0, 2.0)),
    # round(x, 0) without a mode agrees with round(x): ties go up, so -2.5 -> -2.0 (the manual: round(-1.5, 0) is -1.0)
    ("RETURN round(2.345, 2), round(-2.5, 0), round(2.5, 0, 'HALF_EVEN'), round(12.0, -1), round(-1.55, 1)",
     (2.35, -2.0, 2.0, 10.0, -1.6)),
    ("RETURN sqrt(16), log(0), exp(0), log10(100)", (4.0, -math.inf, 1.0, 2.0)),
])
def test_numeric_functions(db, q, expected):
    assert one(db, q) == expected


def test_numeric_functions_leave_their_domain_as_nan_or_infinity(db):
    got = one(db, "RETURN sqrt(-1), exp(1000), asin(2), log(-1)")
    assert math.isnan(got[0]) and got[1] == math.inf and math.isnan(got[2]) and math.isnan(got[3])


def test_graph_functions(db):
    db.execute("CREATE (:B:A {name: 'x', age: 3})-[:T {w: 1}]->(:C)")
    q = ("MATCH p = (a)-[r]->(b) RETURN labels(a), type(r), keys(a), properties(r), "
         "startNode(r) = a, endNode(r) = b, size(nodes(p)), size(relationships(p)), length(p)")
    assert one(db, q) == (["A", "B"], "T", ["name", "age"], {"w": 1}, True, True, 2, 1, 1)
