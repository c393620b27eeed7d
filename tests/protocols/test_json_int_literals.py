"""The strict JSON reader and integer literals past 64 bits (issue 14): serde_json makes floats
of them, relate's reader keeps them exact, so the layers above can refuse them as integers; the
fast path (the stdlib's scanner) and the byte-at-a-time port agree, and no error reply changes."""
from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from relate.protocols import jsonrpc
from relate.protocols.json_decode import JsonError, parse_value
from relate.protocols.jsonrpc import Message, decode

MAX, MIN = 2 ** 63 - 1, -(2 ** 63)


@pytest.mark.parametrize("literal, value", [
    (str(MAX), MAX), (str(MIN), MIN), (str(MAX + 1), MAX + 1), (str(MIN - 1), MIN - 1),
    (str(2 ** 64 - 1), 2 ** 64 - 1), (str(2 ** 64), 2 ** 64), (str(-(2 ** 64)), -(2 ** 64)),
    (str(2 ** 70), 2 ** 70), ("9" * 300, int("9" * 300)), ("-" + "9" * 300, -int("9" * 300)),
])
def test_integer_literals_are_exact_ints(literal, value):
    got = parse_value(literal)
    assert type(got) is int and got == value
    # inside a container the stdlib's scanner reads it first; the answer is the same
    assert parse_value(f"[{literal}]") == [value]
    assert decode('{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[%s]}}' % literal).params == {"a": [value]}


@pytest.mark.parametrize("literal, value", [
    ("1e19", 1e19), ("1E19", 1e19), ("1e30", 1e30), ("18446744073709551616.0", 1.8446744073709552e19),
    ("18446744073709551616e0", 1.8446744073709552e19), ("-9223372036854775809.5", -9.223372036854776e18),
    ("-0", -0.0), ("1.0", 1.0),
])
def test_a_fraction_or_an_exponent_still_makes_a_float(literal, value):
    for got in (parse_value(literal), parse_value(f"[{literal}]")[0]):
        assert type(got) is float and got == value and str(got) == str(value)


def test_a_literal_too_large_for_a_float_is_still_serdes_refusal():
    with pytest.raises(JsonError) as caught:
        parse_value("[1, " + "9" * 400 + "]")
    assert str(caught.value) == "number out of range at line 1 column 404"


def test_serde_still_names_a_long_integer_as_its_float_in_errors():
    reply = decode('{"jsonrpc":123456789012345678901234,"method":"m"}')
    assert json.loads(reply)["error"]["message"] == ("malformed JSON-RPC message: invalid type: floating point "
                                                     "`1.2345678901234567e23`, expected a string at line 1 column 35")


@pytest.mark.parametrize("line, where", [
    ('{"jsonrpc":"2.0","id":9223372036854775808,"method":"ping"}', "line 1 column 41"),
    ('{"jsonrpc":"2.0","id":-9223372036854775809,"method":"ping"}', "line 1 column 42"),
    ('{"jsonrpc":"2.0","id":1180591620717411303424,"method":"ping"}', "line 1 column 44"),
    ('{"jsonrpc":"2.0",\n "id" :  18446744073709551615 ,"method":"ping"}', "line 2 column 29"),
    ('["2.0", 9223372036854775808, "ping"]', "line 1 column 27"),
])
def test_an_id_past_64_bits_is_refused_where_it_ends(line, where):
    reply = json.loads(decode(line))
    assert reply == {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": (
        f"malformed JSON-RPC message: id: a number is out of range (integers must fit in 64 bits) at {where}")}}


@pytest.mark.parametrize("id_", [MAX, MIN, 0, 1e19, 1.5, "x", None])
def test_ids_within_range_and_floats_are_echoed(id_):
    message = decode(json.dumps({"jsonrpc": "2.0", "id": id_, "method": "ping"}))
    assert message == Message("ping", None, id_, True)


@given(st.lists(st.integers(-(2 ** 80), 2 ** 80) | st.floats(allow_nan=False, allow_infinity=False), max_size=6))
def test_the_fast_path_and_the_port_agree(values):
    line = '{"jsonrpc":"2.0","id":1,"method":"m","params":[%s]}' % ",".join(map(json.dumps, values))
    fast = decode(line)
    port_value = jsonrpc._value
    jsonrpc._value = lambda reader: reader.parse_any()
    try:
        slow = decode(line)
    finally:
        jsonrpc._value = port_value
    assert fast == slow
    for got, want in zip(fast.params, values):
        if isinstance(want, int):
            assert type(got) is int and got == want
