"""A message read whole by the C scanner is the message serde's reading (the port) gives; every
line the scanner is unsure of gets the port's answer, error text included."""
from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from relate.protocols.jsonrpc import _decode_port, decode

scalars = (st.none() | st.booleans() | st.integers(min_value=-(2 ** 66), max_value=2 ** 66)
           | st.floats(allow_nan=False) | st.text(max_size=8))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=12)
member_names = st.sampled_from(["jsonrpc", "id", "method", "params", "extra", "Id"])
member_values = st.sampled_from(["2.0", "1.0", "tools/call", "ping"]) | values


def _same(line: str) -> None:
    # repr tells 1 from 1.0 and -0.0 from 0.0, which == does not
    assert repr(decode(line)) == repr(_decode_port(line)), line


@settings(max_examples=600, deadline=None)
@given(st.lists(st.tuples(member_names, member_values), max_size=5), st.sampled_from(["", " ", "\n\t", "\r"]),
       st.booleans())
def test_random_messages_read_as_the_port_reads_them(members, space, ascii_only):
    body = ("," + space).join(f"{json.dumps(k)}:{space}{json.dumps(v, ensure_ascii=ascii_only)}"
                              for k, v in members)
    _same(f"{space}{{{space}{body}{space}}}{space}")


@settings(max_examples=300, deadline=None)
@given(values, values, st.booleans())
def test_well_formed_requests_read_as_the_port_reads_them(id_, params, notification):
    message = {"jsonrpc": "2.0", "method": "tools/call", "params": params}
    if not notification:
        message["id"] = id_
    _same(json.dumps(message))


def test_the_lines_only_the_port_may_judge():
    for line in [
        '{"jsonrpc":"2.0","id":1,"method":"m","id":2}',  # a repeated member
        '{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1,"a":2}}',  # repeated deeper: serde keeps the last
        '{"jsonrpc":"2.0","id":18446744073709551616,"method":"m"}',
        '{"jsonrpc":"2.0","id":-0,"method":"m","params":[1e400]}',
        '{"jsonrpc":"2.0","id":1,"method":"m","params":[NaN]}',
        '{"jsonrpc":"2.0","id":1,"method":"m","params":"\\ud800"}',
        '{"jsonrpc":"2.0","id":1,"method":"\\ud83d\\ude00"}',
        '{"jsonrpc":"2.0","id":1,"method":"m\ud800"}',
        '{"jsonrpc":"2.0","id":1,"method":"m","params":' + "[" * 127 + "]" * 127 + "}",
        '{"jsonrpc":"2.0","id":1,"method":"m","params":' + "[" * 126 + "]" * 126 + "}",
        '{"jsonrpc":"2.0","id":' + "[" * 127 + "]" * 127 + ',"method":"m"}',
        '{"jsonrpc":"2.1","id":1,"method":"m"}',
        '{"jsonrpc":2,"id":1,"method":"m"}',
        '{"jsonrpc":"2.0","method":null}',
        '["2.0",1,"m",{}]',
        '{"jsonrpc":"2.0","id":1,"method":"m"} x',
        '{"jsonrpc":"2.0","id":01,"method":"m"}',
        '{"jsonrpc":"2.0","id":1,"method":"m\x01"}',
        '{"json\\u0072pc":"2.0","id":1.5e3,"method":"m"}',
        '',
        '   ',
    ]:
        _same(line)
