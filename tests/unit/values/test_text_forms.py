"""Values -> text in each format (`relate.values.text`): toString's Java form, the JSON
writer's serde/ryu form, TOON's plain decimal, and the Cypher literal of the table mode."""
from __future__ import annotations

import math
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import relate
from relate.values import Node, to_text
from relate.values.text import java_double, ryu_format, string_form, toon_number

FINITE = st.floats(allow_nan=False, allow_infinity=False)


@pytest.mark.parametrize("x, text", [
    (1.0, "1.0"), (-2.5, "-2.5"), (0.0, "0.0"), (-0.0, "-0.0"), (0.001, "0.001"),
    (0.0001, "1.0E-4"), (1234567.0, "1234567.0"), (1e7, "1.0E7"), (123456789.0, "1.23456789E8"),
    (1e-300, "1.0E-300"), (math.nan, "NaN"), (math.inf, "Infinity"), (-math.inf, "-Infinity"),
])
def test_tostring_writes_floats_as_java_does(x, text):
    assert java_double(x) == text
    assert relate.connect().execute("RETURN toString($x)", {"x": x}).rows == [(text,)]


@pytest.mark.parametrize("x, text", [
    (1.0, "1.0"), (0.00001, "0.00001"), (1e-7, "1e-7"), (1e20, "1e20"), (1.5e300, "1.5e300"),
    (-0.0, "-0.0"), (1e16, "1e16"), (123.456, "123.456"),
])
def test_json_floats_are_written_as_serde_json_writes_them(x, text):
    assert ryu_format(x) == text


def _digits(text: str) -> str:
    """The significant digits of a number's text, whatever its layout."""
    mantissa = re.split("[eE]", text.lstrip("-"))[0]
    return mantissa.replace(".", "").strip("0")


@given(FINITE)
def test_every_float_form_reads_back_and_carries_the_same_digits(x):
    forms = [java_double(x), ryu_format(x)]
    toon = toon_number(x)
    if x.is_integer() and abs(x) < 1e21:
        # TOON decoders read an integer-looking number as an integer: its digits are the float's
        # exact value, not the shortest ones that read back as the float
        assert int(toon) == x
    else:
        forms.append(toon)
    for text in forms:
        assert float(text) == x
    assert len({_digits(t) for t in forms}) == 1


def test_only_scalars_and_temporal_values_have_a_string_form():
    assert string_form("a") == "a" and string_form(True) == "true" and string_form(7) == "7"
    for v in (None, [1], {"a": 1}, Node(1)):
        assert string_form(v) is None
    day = relate.connect().execute("RETURN date('2024-02-29')").cypher_rows[0][0]
    assert string_form(day) == "2024-02-29"


def test_cypher_literals_of_special_floats_and_names():
    assert [to_text(x) for x in (math.nan, math.inf, -math.inf, 0.5)] == ["NaN", "Infinity", "-Infinity", "0.5"]
    assert to_text({"a b": None, "ok": [True, "x\ty"]}) == '{`a b`: null, ok: [true, "x\\ty"]}'
