"""The JSON writer's C pass writes what its walk (the definition: serde_json's text) writes."""
from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from relate.jsonenc import _walk, dumps

scalars = (st.none() | st.booleans() | st.integers(min_value=-(2 ** 70), max_value=2 ** 70)
           | st.floats(allow_nan=True, allow_infinity=True) | st.text())
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
                      | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=20)


@settings(max_examples=400, deadline=None)
@given(values)
def test_the_c_pass_writes_the_walks_text(value):
    assert dumps(value) == _walk(value)


def test_floats_in_ryus_layout_at_every_magnitude():
    for exp in range(-320, 300):
        for mantissa in ("1", "1.5", "9.999999999999999", "123456789.123"):
            x = float(f"{mantissa}e{exp}")
            assert dumps([x, -x, {"k": x}]) == _walk([x, -x, {"k": x}])
    assert dumps([1e20, 1e-5, 0.0001, 1e16, 1e15, -0.0]) == "[1e20,0.00001,0.0001,1e16,1000000000000000.0,-0.0]"


def test_non_finite_floats_and_lone_surrogates_as_serde_writes_them():
    assert dumps({"b": math.nan, "a": [math.inf, -math.inf]}) == '{"a":[null,null],"b":null}'
    assert dumps({"s": "x\ud800y", "\udfff": 1}) == '{"s":"x\\ud800y","\\udfff":1}'
    assert dumps("\u2028\x00\x1f\"\\") == '"\u2028\\u0000\\u001f\\"\\\\"'


def test_other_types_are_refused_with_the_walks_words():
    for value in ({"a": object()}, [b"bytes"], {1: 2, "a": 3}):
        try:
            dumps(value)
        except TypeError as e:
            try:
                _walk(value)
            except TypeError as walked:
                assert str(e) == str(walked)
        else:
            raise AssertionError(f"{value!r} was written")


def test_nesting_past_the_stack_is_written_whole():
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    assert dumps(deep) == "[" * 5001 + "]" * 5001
