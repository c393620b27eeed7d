"""Bolt messages: a decoded PackStream structure -> a `Request`; summaries and records -> bytes.

Requests (tag: fields): HELLO 01 (extra), GOODBYE 02, RESET 0F, RUN 10 (query, parameters,
extra), BEGIN 11 (extra), COMMIT 12, ROLLBACK 13, DISCARD 2F (extra), PULL 3F (extra), TELEMETRY
54 (api), ROUTE 66 (routing, bookmarks, extra), LOGON 6A (auth), LOGOFF 6B.  Responses: SUCCESS
70 (metadata), RECORD 71 (values), IGNORED 7E, FAILURE 7F (metadata: code, message).

`request(data)` checks the field count and types of what the peer sent (a message of the wrong
shape is `Request.Invalid`; bytes that do not decode, `Request.InvalidFormat`), so the session
above it sees only well-formed requests.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import E
from .bolt_packstream import Structure, pack, unpack

SUCCESS, RECORD, IGNORED, FAILURE = 0x70, 0x71, 0x7E, 0x7F

# tag -> (name, the types of its fields; a trailing group may be missing: `optional` of them)
_REQUESTS: dict[int, tuple[str, tuple[type, ...], int]] = {
    0x01: ("HELLO", (dict,), 0),
    0x02: ("GOODBYE", (), 0),
    0x0F: ("RESET", (), 0),
    0x10: ("RUN", (str, dict, dict), 1),
    0x11: ("BEGIN", (dict,), 1),
    0x12: ("COMMIT", (), 0),
    0x13: ("ROLLBACK", (), 0),
    0x2F: ("DISCARD", (dict,), 1),
    0x3F: ("PULL", (dict,), 1),
    0x54: ("TELEMETRY", (int,), 0),
    0x66: ("ROUTE", (dict, list, object), 1),
    0x6A: ("LOGON", (dict,), 0),
    0x6B: ("LOGOFF", (), 0),
}


@dataclass(frozen=True, slots=True)
class Request:
    name: str
    fields: tuple


def request(data: bytes) -> Request:
    """One message's bytes -> the request it is."""
    msg = unpack(data)
    if not isinstance(msg, Structure):
        raise E.Request.Invalid("a Bolt message must be a structure")
    spec = _REQUESTS.get(msg.tag)
    if spec is None:
        raise E.Request.Invalid(f"unknown Bolt message 0x{msg.tag:02X}")
    name, types, optional = spec
    fields = msg.fields
    if not len(types) - optional <= len(fields) <= len(types):
        raise E.Request.Invalid(f"{name} takes {len(types)} fields, got {len(fields)}")
    for i, (value, want) in enumerate(zip(fields, types)):
        if want is int and (isinstance(value, bool) or not isinstance(value, int)) \
                or want is not object and want is not int and not isinstance(value, want):
            raise E.Request.Invalid(f"{name} field {i + 1} must be a {_TYPE_NAMES[want]}")
    defaults = tuple(t() for t in types[len(fields):])  # a missing trailing dict or list is empty
    return Request(name, fields + defaults)


_TYPE_NAMES = {dict: "dictionary", str: "string", int: "integer", list: "list", object: "value"}


def success(metadata: dict | None = None) -> bytes:
    return pack(Structure(SUCCESS, (metadata or {},)))


def record(values: list) -> bytes:
    return pack(Structure(RECORD, (values,)))


def ignored() -> bytes:
    return pack(Structure(IGNORED, ()))


def failure(code: str, message: str) -> bytes:
    return pack(Structure(FAILURE, ({"code": code, "message": message},)))
