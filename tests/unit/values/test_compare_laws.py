"""Cypher equality, comparison, sort order and grouping keys (`relate.values.compare`): the
laws `=`, `<`, ORDER BY, DISTINCT and grouping rely on, over random values of every basic kind."""
from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from relate.values import Node, Path, Relationship
from relate.values.compare import compare, equals, hashable, order_key

INT64 = st.integers(min_value=-(2 ** 63), max_value=2 ** 63 - 1)
SCALARS = st.none() | st.booleans() | INT64 | st.floats() | st.text(max_size=5)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.text(max_size=2), inner, max_size=3), max_leaves=8)


def _has_null_or_nan(v: object) -> bool:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return True
    if isinstance(v, list):
        return any(_has_null_or_nan(x) for x in v)
    if isinstance(v, dict):
        return any(_has_null_or_nan(x) for x in v.values())
    return False


@settings(max_examples=200, deadline=None)
@given(VALUES, VALUES)
def test_equality_is_symmetric_and_three_valued(a, b):
    r = equals(a, b)
    assert r in (True, False, None)
    assert equals(b, a) is r


@settings(max_examples=200, deadline=None)
@given(VALUES)
def test_a_value_equals_itself_unless_null_or_nan_is_inside(v):
    if _has_null_or_nan(v):
        assert equals(v, v) is not True
    else:
        assert equals(v, v) is True


@settings(max_examples=200, deadline=None)
@given(VALUES, VALUES)
def test_equal_values_group_together(a, b):
    if equals(a, b) is True:
        assert hashable(a) == hashable(b)
        assert hash(hashable(a)) == hash(hashable(b))


@settings(max_examples=200, deadline=None)
@given(VALUES, VALUES)
def test_the_sort_order_agrees_with_comparison(a, b):
    c = compare(a, b)
    ka, kb = order_key(a), order_key(b)
    if c == -1:
        assert ka < kb
    elif c == 1:
        assert ka > kb
    elif c == 0:
        assert ka == kb


@settings(max_examples=200, deadline=None)
@given(st.lists(VALUES, max_size=8))
def test_any_values_sort_and_null_sorts_last(values):
    ordered = sorted(values + [None], key=order_key)
    assert ordered[-1] is None


def test_numbers_compare_by_value_across_integer_and_float():
    assert equals(1, 1.0) is True and equals(1.0, 1) is True
    assert compare(1, 1.5) == -1 and compare(2.5, 2) == 1
    assert hashable(1) == hashable(1.0)


def test_booleans_are_not_numbers():
    assert equals(True, 1) is False and equals(1, True) is False
    assert compare(True, 1) is None
    assert hashable(True) != hashable(1)
    assert order_key(True) < order_key(0)  # booleans sort before numbers


def test_nan_equals_nothing_but_groups_with_nan():
    nan = float("nan")
    assert equals(nan, nan) is False
    assert math.isnan(compare(nan, 1))
    assert hashable(nan) == hashable(float("nan"))
    assert sorted([nan, math.inf, 1], key=order_key)[-1] is nan  # NaN after every number


def test_null_makes_equality_and_comparison_unknown():
    assert equals(None, None) is None and equals([1, None], [1, 2]) is None
    assert equals([1, None], [2, 2]) is False  # a known difference wins
    assert compare(None, 1) is None and compare(1, "a") is None


def test_entities_compare_by_id_and_sort_after_maps():
    a, b = Node(1, frozenset({"A"})), Node(2)
    same = Node(1)
    r = Relationship(7, "T", a, b)
    assert equals(a, same) is True and equals(a, b) is False
    assert equals(Path((a, b), (r,)), Path((same, b), (r,))) is True
    assert compare(a, b) is None  # nodes cannot be ordered against each other with `<`
    assert sorted([r, b, {}, a], key=order_key) == [{}, a, b, r]


def test_subclasses_of_the_basic_kinds_behave_like_them():
    class Count(int):
        pass

    class Name(str):
        pass

    assert equals(Count(3), 3.0) is True and equals(3, Count(3)) is True
    assert compare(Count(3), 4) == -1 and compare(Name("b"), "a") == 1
    assert order_key(Count(3)) == order_key(3) and hashable(Name("x")) == "x"
