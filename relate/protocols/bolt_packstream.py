"""PackStream v1, the value encoding of Bolt: Python values <-> bytes.

`pack(value)` -> bytes; `unpack(data)` -> one value that must fill `data` exactly.  Values are
None, bool, int (signed 64-bit), float, str, bytes, list, dict (string keys) and `Structure`
(a tag byte and up to 15 fields: nodes, dates, messages, ... -- what a tag means is decided one
layer up, in `bolt_values.py` and `bolt_messages.py`).

The decoder is written for bytes from anyone: every length is checked against what is left,
nesting is bounded, and every fault is a `Request.InvalidFormat` error naming the offset, so a
malformed message gets a typed failure and never an exception of Python's own.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass

from ..errors import E

MAX_DEPTH = 100  # lists in maps in structures...: deeper than any driver sends
INT64_MIN, INT64_MAX = -(2 ** 63), 2 ** 63 - 1

_F64 = struct.Struct(">d")


@dataclass(frozen=True, slots=True)
class Structure:
    """A tagged structure: `tag` is the signature byte (an int), `fields` its values."""

    tag: int
    fields: tuple

    def __repr__(self) -> str:
        return f"Structure({chr(self.tag) if 32 < self.tag < 127 else hex(self.tag)}, {list(self.fields)!r})"


def _size(out: bytearray, n: int, tiny: int | None, m8: int | None, m16: int, m32: int) -> None:
    if tiny is not None and n < 16:
        out.append(tiny + n)
    elif m8 is not None and n < 0x100:
        out += bytes((m8, n))
    elif n < 0x10000:
        out.append(m16)
        out += n.to_bytes(2, "big")
    elif n < 0x100000000:
        out.append(m32)
        out += n.to_bytes(4, "big")
    else:
        raise E.Usage.Usage(f"a value too large for PackStream ({n} items or bytes)")


def pack(value) -> bytes:
    out = bytearray()
    _pack(out, value, 0)
    return bytes(out)


def _pack(out: bytearray, v, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise E.Usage.Usage("a value nested too deeply for PackStream")
    if v is None:
        out.append(0xC0)
    elif v is True:
        out.append(0xC3)
    elif v is False:
        out.append(0xC2)
    elif isinstance(v, int):
        if -16 <= v <= 127:
            out.append(v & 0xFF)
        elif -128 <= v <= 127:
            out += b"\xC8" + v.to_bytes(1, "big", signed=True)
        elif -32768 <= v <= 32767:
            out += b"\xC9" + v.to_bytes(2, "big", signed=True)
        elif -(2 ** 31) <= v < 2 ** 31:
            out += b"\xCA" + v.to_bytes(4, "big", signed=True)
        elif INT64_MIN <= v <= INT64_MAX:
            out += b"\xCB" + v.to_bytes(8, "big", signed=True)
        else:
            raise E.Usage.Usage(f"integer {v} is outside the signed 64-bit range of PackStream")
    elif isinstance(v, float):
        out.append(0xC1)
        out += _F64.pack(v)
    elif isinstance(v, str):
        data = v.encode("utf-8", "surrogatepass")
        _size(out, len(data), 0x80, 0xD0, 0xD1, 0xD2)
        out += data
    elif isinstance(v, (bytes, bytearray)):
        _size(out, len(v), None, 0xCC, 0xCD, 0xCE)
        out += v
    elif isinstance(v, (list, tuple)):
        _size(out, len(v), 0x90, 0xD4, 0xD5, 0xD6)
        for item in v:
            _pack(out, item, depth + 1)
    elif isinstance(v, dict):
        _size(out, len(v), 0xA0, 0xD8, 0xD9, 0xDA)
        for key, item in v.items():
            if not isinstance(key, str):
                raise E.Usage.Usage("PackStream dictionary keys must be strings")
            _pack(out, key, depth + 1)
            _pack(out, item, depth + 1)
    elif isinstance(v, Structure):
        if len(v.fields) > 15:
            raise E.Usage.Usage("a PackStream structure holds at most 15 fields")
        out.append(0xB0 + len(v.fields))
        out.append(v.tag)
        for item in v.fields:
            _pack(out, item, depth + 1)
    else:
        raise E.Usage.Usage(f"no PackStream form for a Python {type(v).__name__}")


def _bad(detail: str, at: int):
    return E.Request.InvalidFormat(f"{detail} at byte {at}")


class _Reader:
    __slots__ = ("data", "pos")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def take(self, n: int) -> bytes:
        start = self.pos
        end = start + n
        if end > len(self.data):
            raise _bad(f"the message ends inside a value ({n} bytes wanted, {len(self.data) - start} left)", start)
        self.pos = end
        return self.data[start:end]

    def uint(self, n: int) -> int:
        return int.from_bytes(self.take(n), "big")

    def value(self, depth: int):
        if depth > MAX_DEPTH:
            raise _bad(f"values nested deeper than {MAX_DEPTH} levels", self.pos)
        at = self.pos
        m = self.uint(1)
        if m < 0x80:
            return m
        if m >= 0xF0:
            return m - 0x100
        hi = m & 0xF0
        if hi == 0x80:
            return self.text(m & 0x0F, at)
        if hi == 0x90:
            return self.items(m & 0x0F, depth)
        if hi == 0xA0:
            return self.mapping(m & 0x0F, depth, at)
        if hi == 0xB0:
            tag = self.uint(1)
            return Structure(tag, tuple(self.value(depth + 1) for _ in range(m & 0x0F)))
        if m == 0xC0:
            return None
        if m == 0xC1:
            return _F64.unpack(self.take(8))[0]
        if m == 0xC2:
            return False
        if m == 0xC3:
            return True
        if 0xC8 <= m <= 0xCB:
            return int.from_bytes(self.take(1 << (m - 0xC8)), "big", signed=True)
        if 0xCC <= m <= 0xCE:
            return self.take(self.uint(1 << (m - 0xCC)))
        if 0xD0 <= m <= 0xD2:
            return self.text(self.uint(1 << (m - 0xD0)), at)
        if 0xD4 <= m <= 0xD6:
            return self.items(self.uint(1 << (m - 0xD4)), depth)
        if 0xD8 <= m <= 0xDA:
            return self.mapping(self.uint(1 << (m - 0xD8)), depth, at)
        raise _bad(f"unknown PackStream marker 0x{m:02X}", at)

    def text(self, n: int, at: int) -> str:
        raw = self.take(n)
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise _bad("a string that is not UTF-8", at) from None

    def items(self, n: int, depth: int) -> list:
        if n > len(self.data) - self.pos:  # each item takes a byte at least
            raise _bad(f"a list of {n} items in fewer bytes", self.pos)
        return [self.value(depth + 1) for _ in range(n)]

    def mapping(self, n: int, depth: int, at: int) -> dict:
        if 2 * n > len(self.data) - self.pos:
            raise _bad(f"a dictionary of {n} entries in fewer bytes", self.pos)
        out = {}
        for _ in range(n):
            key_at = self.pos
            key = self.value(depth + 1)
            if not isinstance(key, str):
                raise _bad("a dictionary key that is not a string", key_at)
            out[key] = self.value(depth + 1)  # a repeated key: the last one wins
        return out


def unpack(data: bytes):
    """The one value `data` holds (InvalidFormat when it holds less, more, or nonsense)."""
    r = _Reader(bytes(data))
    if not r.data:
        raise _bad("an empty message", 0)
    v = r.value(0)
    if r.pos != len(r.data):
        raise _bad(f"{len(r.data) - r.pos} bytes after the end of the value", r.pos)
    return v
