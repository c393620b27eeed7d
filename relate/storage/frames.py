"""Bytes on disk: file headers, checksummed frames, and the value encoding inside them.

Every store file starts with one header line `<MAGIC> <format>\\n`, then holds frames:

    tag      1 byte   b"S" a snapshot of the whole graph, b"T" one committed transaction
    version  1 byte   the frame format (FORMAT)
    length   4 bytes  big-endian length of the payload
    crc      4 bytes  big-endian CRC-32 of tag, version, length and payload
    payload  length bytes of compact JSON (UTF-8)

A frame is valid only when all of it is present and the checksum matches.  `scan` turns a byte
string into the valid frames from its start and says how the rest ends: clean, a torn tail (a damaged
frame with nothing valid after it: an interrupted append), or damage in the middle (a damaged frame
with a valid one after it), which recovery refuses instead of skipping.

Values: property values are JSON scalars and lists; non-finite floats use JSON's NaN/Infinity
extension (Python's json reads them back exactly).  Values JSON cannot hold are written in a tagged
form `{"$t": <tag>, "v": <json>}` through `register`; property values are never maps, so a map in a
value position is always a tag.  A payload that holds a tag says so (`"tagged": true`), so the
common case decodes with no per-value Python work.
"""
from __future__ import annotations

import base64
import json
import struct
import zlib
from dataclasses import dataclass
from enum import Enum

from ..errors import E

FORMAT = 3
READABLE = (2, 3)  # format 2: before history (snapshot.py reads it, writers go on in 3)
STORE_MAGIC = b"RELATE-STORE"        # a `.rl` file and a directory store's snapshot files
WAL_MAGIC = b"RELATE-WAL"            # a directory store's WAL segment
DIRECTORY_MAGIC = b"RELATE-DIRECTORY"  # the marker file naming a folder a directory store

SNAPSHOT = b"S"
TXN = b"T"
_HEAD = struct.Struct(">cBII")
HEAD_SIZE = _HEAD.size


def header(magic: bytes) -> bytes:
    return magic + b" " + str(FORMAT).encode("ascii") + b"\n"


def check_header(raw: bytes, magic: bytes, where: str) -> int:
    """Validate the header line of `raw` -> the offset of the first frame."""
    end = raw.find(b"\n", 0, 64)
    parts = raw[:end].split(b" ") if end > 0 else []
    if len(parts) != 2 or parts[0] != magic or not parts[1].isdigit():
        raise E.Storage.Corrupt(f"not a relate store: {where}")
    version = int(parts[1])
    if version > FORMAT:
        raise E.Storage.FormatVersion(f"store format {version} is newer than this relate reads "
                                      f"({FORMAT}); open it with a newer relate: {where}")
    if version not in READABLE:
        raise E.Storage.FormatVersion(f"store format {version} is not readable here: {where}")
    return end + 1


def check_segment_format(raw: bytes, start: int, where: str) -> None:
    """A WAL segment is written whole by one relate (a new segment at every open), so its records
    carry its header's format; a record newer than the header means the header's digit was
    damaged (a `3` read as `2` still names a readable format), refused as damage."""
    if start + 1 < len(raw) and raw[start + 1] > int(raw[:start].split(b" ")[1]):
        raise E.Storage.Corrupt(f"the header of WAL segment {where} names an older format than its "
                                f"records; the store is damaged")


def frame(tag: bytes, payload: bytes) -> bytes:
    head = _HEAD.pack(tag, FORMAT, len(payload), 0)[:6]
    crc = zlib.crc32(payload, zlib.crc32(head))
    return head + struct.pack(">I", crc) + payload


class Ending(Enum):
    CLEAN = "clean"
    TORN = "torn"          # an interrupted append: drop it
    DAMAGED = "damaged"    # a bad frame with valid data after it: refuse


@dataclass(frozen=True, slots=True)
class Scan:
    frames: tuple[tuple[bytes, bytes, int], ...]  # (tag, payload, offset just past the frame)
    end: int        # offset just past the last valid frame
    ending: Ending


def _frame_at(raw: bytes, pos: int) -> tuple[bytes, bytes, int] | None:
    if pos + HEAD_SIZE > len(raw):
        return None
    tag, version, length, crc = _HEAD.unpack_from(raw, pos)
    if tag not in (SNAPSHOT, TXN) or version not in READABLE:
        return None
    stop = pos + HEAD_SIZE + length
    if stop > len(raw):
        return None
    payload = raw[pos + HEAD_SIZE:stop]
    if zlib.crc32(payload, zlib.crc32(raw[pos:pos + 6])) != crc:
        return None
    return tag, payload, stop


def valid_frame_after(raw: bytes, pos: int) -> bool:
    """Whether any complete, checksummed frame starts after `pos` (the bytes of a torn append
    cannot form one by chance: the odds are those of a CRC-32 collision)."""
    for tag in (TXN, SNAPSHOT):
        for version in READABLE:
            probe = tag + bytes([version])
            i = raw.find(probe, pos + 1)
            while i >= 0:
                if _frame_at(raw, i) is not None:
                    return True
                i = raw.find(probe, i + 1)
    return False


def scan(raw: bytes, start: int) -> Scan:
    frames: list[tuple[bytes, bytes, int]] = []
    pos = start
    n = len(raw)
    while pos < n:
        f = _frame_at(raw, pos)
        if f is None:
            ending = Ending.DAMAGED if valid_frame_after(raw, pos) else Ending.TORN
            return Scan(tuple(frames), pos, ending)
        frames.append(f)
        pos = f[2]
    return Scan(tuple(frames), pos, Ending.CLEAN)


# ---------------------------------------------------------------------------- values
_ENCODERS: dict[type, tuple[str, object]] = {}
_DECODERS: dict[str, object] = {}


def register(cls: type, tag: str, to_json, from_json) -> None:
    """Teach the stores a value type JSON cannot hold: `to_json(value)` -> JSON data, and back."""
    _ENCODERS[cls] = (tag, to_json)
    _DECODERS[tag] = from_json


def _default(v):
    entry = _ENCODERS.get(type(v))
    if entry is None:
        raise E.Storage.Encode(type=type(v).__name__)
    _TAGGED.append(True)
    return {"$t": entry[0], "v": entry[1](v)}


_TAGGED: list = []  # grows while a payload with tagged values is encoded (`encode` looks at its length)


def _make_encoder():
    """One JSON encoder built once (compact, UTF-8 text, NaN/Infinity, tags through `_default`), so a
    commit's small payload pays one C call instead of setting up `json.dumps`' Python layers."""
    c_make = getattr(json.encoder, "c_make_encoder", None)
    if c_make is None:  # no C accelerator: the pure-Python encoder, same bytes
        enc = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False,
                               default=_default)
        return enc.encode
    # payloads are trees built by the store (no cycles), so no cycle markers
    one_shot = c_make(None, _default, json.encoder.encode_basestring, None, ":", ",", False, False, True)
    return lambda payload: "".join(one_shot(payload, 0))


_encode_text = _make_encoder()


def encode(payload: dict) -> bytes:
    """A payload dict -> compact JSON bytes, tagging values JSON cannot hold."""
    before = len(_TAGGED)
    text = _encode_text(payload)
    if len(_TAGGED) != before:
        del _TAGGED[:]
        text = _encode_text(dict(payload, tagged=True))
        del _TAGGED[:]
    return text.encode("utf-8", "surrogatepass")


def decode(raw: bytes, where: str) -> dict:
    try:
        return json.loads(raw.decode("utf-8", "surrogatepass"))
    except (UnicodeDecodeError, ValueError):
        raise E.Storage.Corrupt(
            f"a checksummed frame does not decode, the store is damaged: {where}") from None


def untag(v):
    """Decode the tagged values inside one property value (only called on tagged payloads)."""
    if type(v) is dict:
        fn = _DECODERS.get(v.get("$t"))
        if fn is None:
            raise E.Storage.FormatVersion(f"unknown stored value type {v.get('$t')!r}; "
                                          "open the store with a newer relate")
        return fn(v["v"])
    if type(v) is list:
        return [untag(x) for x in v]
    return v


def untag_props(props: dict) -> dict:
    for k, v in props.items():
        if type(v) in (dict, list):
            props[k] = untag(v)
    return props


def _register_temporal() -> None:
    # temporal values and points are stored as their ISO 8601 text (zone names kept)
    from .. import temporal
    for cls, tag, to_json, from_json in temporal.STORE_CODECS:
        register(cls, tag, to_json, from_json)
    # byte arrays (from the Python API's parameters) as base64 text
    register(bytes, "bytes", lambda b: base64.b64encode(b).decode("ascii"), base64.b64decode)


_register_temporal()
