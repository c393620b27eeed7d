"""PackStream v1 (`relate.protocols.bolt_packstream`): the byte forms the Bolt spec gives, every
value back equal, and bytes from anyone decoded into a value or a typed InvalidFormat error."""
from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from relate.errors import ProtocolError
from relate.protocols.bolt_framing import Dechunker, chunk, negotiate
from relate.protocols.bolt_packstream import Structure, pack, unpack


@pytest.mark.parametrize("value, hexed", [
    (None, "C0"), (True, "C3"), (False, "C2"), (0, "00"), (127, "7F"), (-16, "F0"), (-17, "C8 EF"),
    (128, "C9 00 80"), (32768, "CA 00 00 80 00"), (2 ** 31, "CB 00 00 00 00 80 00 00 00"),
    (1.5, "C1 3F F8 00 00 00 00 00 00"), ("", "80"), ("a", "81 61"), ("x" * 16, "D0 10" + " 78" * 16),
    ([], "90"), ({}, "A0"), (b"\x01", "CC 01 01"), (Structure(0x70, ({},)), "B1 70 A0"),
])
def test_spec_byte_forms(value, hexed):
    assert pack(value) == bytes.fromhex(hexed)
    assert unpack(bytes.fromhex(hexed)) == value


values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2 ** 63), 2 ** 63 - 1) | st.floats(allow_nan=False)
    | st.text() | st.binary(),
    lambda inner: st.lists(inner, max_size=20) | st.dictionaries(st.text(), inner, max_size=20)
    | st.builds(lambda t, f: Structure(t, tuple(f)), st.integers(0, 255), st.lists(inner, max_size=15)),
    max_leaves=40)


@settings(max_examples=300, deadline=None)
@given(values)
def test_every_value_comes_back_equal(value):
    assert unpack(pack(value)) == value


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=64))
def test_any_bytes_decode_or_fail_typed(data):
    try:
        unpack(data)
    except ProtocolError as e:
        assert e.kind == "InvalidFormat"


def test_nan_and_limits():
    assert math.isnan(unpack(pack(float("nan"))))
    with pytest.raises(Exception):
        pack(2 ** 63)
    with pytest.raises(ProtocolError):
        unpack(b"\x91" * 200 + b"\x00")  # nested past the depth bound
    with pytest.raises(ProtocolError):
        unpack(b"\xD6\xff\xff\xff\xff")  # a list claiming more items than bytes


def test_chunks_reassemble_across_any_split():
    message = pack(["a" * 70000, 1])  # longer than one chunk
    framed = b"\x00\x00" + chunk(message) + b"\x00\x00" + chunk(pack(2))
    for step in (1, 3, 4096, len(framed)):
        d = Dechunker()
        got = []
        for i in range(0, len(framed), step):
            got += d.feed(framed[i:i + step])
        assert [unpack(m) for m in got] == [["a" * 70000, 1], 2] and not d.pending


def test_negotiation_picks_the_highest_supported_in_the_first_matching_proposal():
    assert negotiate(bytes.fromhex("000001FF 00080805 00020404 00000003")) == (5, 4)
    assert negotiate(bytes.fromhex("00000205 00000000 00000000 00000000")) == (5, 2)
    assert negotiate(bytes.fromhex("00000505 00000000 00000000 00000000")) is None
    assert negotiate(bytes.fromhex("00020404 00000003 00000000 00000000")) is None
