"""Sans-I/O JSON-RPC 2.0 framing for relate's MCP server.

What turns into what:

* ``decode(line)`` turns one inbound message (a stdio line without its line
  terminator, or an HTTP body) into a ``Message``, or into the complete error
  reply line when it cannot be one:

  - not JSON, a missing ``jsonrpc`` or ``method``, a member other than
    ``jsonrpc``/``id``/``method``/``params``, a repeated member, a non-string
    ``jsonrpc``/``method``, a batch (an array of messages) -> ``-32700``
    ``malformed JSON-RPC message: <serde_json's error text>``;
  - ``jsonrpc`` other than ``"2.0"`` -> ``-32600``
    ``unsupported JSON-RPC version '<version>'``;
  - an ``id`` that is an integer outside 64 bits (signed) -> ``-32700`` ``malformed JSON-RPC
    message: id: a number is out of range (integers must fit in 64 bits) at line L column C``,
    positioned at its last digit (an addition to the reference, which took such an id as a
    float; issue 14).  An id written with a fraction or an exponent is a float, echoed as one.

  Both replies carry ``"id":null``.  A message without ``id`` is a
  notification (``has_id`` False); ``"id":null`` is a request whose id is null.
  Split stdio input on ``"\n"`` only: ``str.splitlines`` also breaks at
  U+2028 and friends, which serde reads as string content.
* ``result_line(id, result)`` and ``error_line(id, code, message)`` turn a
  reply into one line: ``{"jsonrpc":"2.0","id":..,"result":..}`` or
  ``..,"error":{"code":..,"message":..}}``, with everything inside the id,
  result and error written the way serde_json writes a ``Value``: object keys
  sorted, no spaces, non-ASCII kept, floats in ryu's shortest form
  (``1e20``, ``0.00001``), non-finite floats as ``null``.

The reference server decodes with ``serde_json::from_str`` into a
serde_derive struct; the replay below follows that struct's visitor, so the
error texts and ``line L column C`` positions are serde's.  The struct as
reconstructed from the recorded replies (the name is a guess; it only shows
in ``expected struct JsonRpcMessage`` texts)::

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct JsonRpcMessage {
        jsonrpc: String,
        #[serde(default, deserialize_with = "present")]  // keeps "id": null apart from no id
        id: Option<Value>,
        method: String,
        #[serde(default)]
        params: Option<Value>,
    }
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from relate.protocols.json_decode import EOF_VALUE, JsonError, Reader, f64_from_parts
from relate.values.depth import json_too_deep
from relate.values.ints import INT_MAX, INT_MIN
from relate.jsonenc import dumps as _dumps  # the one serde-style writer; mcp.py imports this name

__all__ = [
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "INVALID_REQUEST",
    "METHOD_NOT_FOUND",
    "PARSE_ERROR",
    "Message",
    "decode",
    "error_line",
    "result_line",
]

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

_FIELDS = ("jsonrpc", "id", "method", "params")
_FIELD_SET = frozenset(_FIELDS)
_STRUCT = "struct JsonRpcMessage"
_UNKNOWN_FIELD = "unknown field `{}`, expected one of `jsonrpc`, `id`, `method`, `params`"
_SEQ_LENGTH = "invalid length {}, expected struct JsonRpcMessage with 4 elements"
_ID_RANGE = "id: a number is out of range (integers must fit in 64 bits)"


@dataclass(frozen=True, slots=True)
class Message:
    """A decoded, valid JSON-RPC request or notification."""

    method: str
    params: object  # None when absent (or null)
    id: object  # int | float | str | None (any JSON value is echoed); meaningful only if has_id
    has_id: bool  # False -> notification


@dataclass(frozen=True, slots=True)
class _Envelope:
    jsonrpc: str
    method: str
    params: object
    id: object
    has_id: bool


def decode(line: str) -> Message | str:
    """One inbound message -> a ``Message``, or the error reply line (id null)."""
    if len(line) <= _WHOLE_MAX:
        message = _decode_whole(line)
        if message is not None:
            return message
    return _decode_port(line)


def _decode_port(line: str) -> Message | str:
    """``decode`` through the port alone (serde's reading, every error worded)."""
    try:
        envelope = _deserialize(line)
    except JsonError as err:
        return error_line(None, PARSE_ERROR, f"malformed JSON-RPC message: {err}")
    if envelope.jsonrpc != "2.0":
        return error_line(None, INVALID_REQUEST, f"unsupported JSON-RPC version '{envelope.jsonrpc}'")
    return Message(envelope.method, envelope.params, envelope.id, envelope.has_id)


def _deserialize(text: str) -> _Envelope:
    """``serde_json::from_str::<JsonRpcMessage>``, i.e. deserialize_struct then end()."""
    reader = Reader(text)
    byte = reader.parse_whitespace()
    if byte is None:
        raise reader.peek_error(EOF_VALUE)
    if byte == 0x7B:  # '{'
        visit, close = _visit_map, reader.end_map
    elif byte == 0x5B:  # '[': a derived struct also accepts its fields in order
        visit, close = _visit_seq, reader.end_seq
    else:
        raise reader.peek_invalid_type(_STRUCT)
    reader.enter()
    reader.index += 1
    try:
        envelope = visit(reader)
    except JsonError as err:
        if err.line:
            raise
        # serde_json evaluates end_map()/end_seq() even after the visitor failed
        # and only then pins a custom error to the cursor: `{"extra" :1}` blames
        # column 9, past the space that end_map skipped.
        try:
            close()
        except JsonError:
            pass
        raise reader.fix(err) from None
    reader.leave()
    close()
    reader.end()
    return envelope


def _visit_map(reader: Reader) -> _Envelope:
    values: dict[str, object] = {}
    first = True
    while reader.map_has_next(first):
        first = False
        reader.index += 1
        key = reader.parse_str()
        if key not in _FIELDS:
            raise JsonError(_UNKNOWN_FIELD.format(key))
        if key in values:
            raise JsonError(f"duplicate field `{key}`")
        reader.parse_object_colon()
        if key == "jsonrpc" or key == "method":
            values[key] = reader.deserialize_string()
        elif key == "id":
            values[key] = _id(reader)
        else:
            values[key] = _value(reader)
    for required in ("jsonrpc", "method"):  # serde checks in declaration order
        if required not in values:
            raise JsonError(f"missing field `{required}`")
    return _Envelope(
        jsonrpc=values["jsonrpc"],
        method=values["method"],
        params=values.get("params"),
        id=values.get("id"),
        has_id="id" in values,
    )


def _visit_seq(reader: Reader) -> _Envelope:
    # serde_derive's visit_seq: fields by position; a missing `default` field is
    # fine, a missing required one is "invalid length <its index>".  So a batch
    # `[{...}]` fails as "invalid type: map, expected a string".
    first = True
    absent = object()

    def element(read) -> object:
        nonlocal first
        if not reader.seq_has_next(first):
            return absent
        first = False
        return read(reader)

    jsonrpc = element(Reader.deserialize_string)
    if jsonrpc is absent:
        raise JsonError(_SEQ_LENGTH.format(0))
    id_ = element(_id)
    method = element(Reader.deserialize_string)
    if method is absent:
        raise JsonError(_SEQ_LENGTH.format(2))
    params = element(_value)
    return _Envelope(
        jsonrpc=jsonrpc,
        method=method,
        params=None if params is absent else params,
        id=None if id_ is absent else id_,
        has_id=id_ is not absent,
    )


def _id(reader: Reader) -> object:
    """The ``id`` member; an integer outside 64 bits is refused where it ends."""
    value = _value(reader)
    if type(value) is int and not INT_MIN <= value <= INT_MAX:
        raise reader.error(_ID_RANGE)
    return value


# --- fast path ---------------------------------------------------------------
# A 16 MiB `rows` payload takes seconds in the byte-at-a-time port.  The
# stdlib's C scanner reads the same grammar; with number hooks that compute
# serde's values it returns the port's result whenever it succeeds, except
# for lone surrogate escapes and nesting past serde's limit, which are checked
# here.  Anything it refuses (every malformed value) goes through the port,
# which words the error.


class _Fallback(Exception):
    """The scanner met something only the port may judge (NaN, an out-of-range number)."""


def _exact_number(literal: str) -> int | float:
    try:
        return Reader(literal).parse_any()
    except JsonError:
        raise _Fallback from None


def _scan_int(literal: str) -> int | float:
    if len(literal) < 20:  # fits i64/u64; "-0" is a float in serde
        value = int(literal)
        if value != 0 or literal[0] != "-":
            return value
    return _exact_number(literal)


_FLOAT_PARTS = re.compile(r"-?(\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?")


def _scan_float(literal: str) -> float:
    whole, frac, exp = _FLOAT_PARTS.fullmatch(literal).groups()
    frac = frac or ""
    if len(whole) + len(frac) <= 19 and (exp is None or len(exp) <= 4):  # no u64 overflow
        value = f64_from_parts(int(whole + frac), (int(exp) if exp else 0) - len(frac))
        if value is not None:
            return -value if literal[0] == "-" else value
    return _exact_number(literal)


def _refuse_constant(name: str) -> object:
    raise _Fallback(name)


_SCANNER = json.JSONDecoder(parse_float=_scan_float, parse_int=_scan_int, parse_constant=_refuse_constant)
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abcdefABCDEF]")


def _value(reader: Reader) -> object:
    """A member's ``Value``: through the C scanner when it agrees with serde, else the port."""
    if reader.parse_whitespace() not in (0x5B, 0x7B):  # scalars are cheap in the port
        return reader.parse_any()
    if json_too_deep(reader.text, 128):
        # serde refuses it at 128 levels; the C scanner would build it first, and freeing a
        # value thousands deep kills Pyodide: the port reads it and stops where serde does
        return reader.parse_any()
    start = reader.index
    ascii_only = len(reader.data) == len(reader.text)
    char_start = start if ascii_only else len(reader.data[:start].decode("utf-8", "surrogatepass"))
    try:
        value, char_end = _SCANNER.raw_decode(reader.text, char_start)
    except (ValueError, RecursionError, _Fallback):
        return reader.parse_any()
    segment = reader.text[char_start:char_end]
    if _has_lone_surrogate(segment, value) or _too_deep(value, reader.depth):
        return reader.parse_any()
    reader.index = char_end if ascii_only else start + len(segment.encode("utf-8", "surrogatepass"))
    return value


def _has_lone_surrogate(segment: str, value: object) -> bool:
    # The scanner pairs surrogate escapes like serde but lets a lone one through;
    # a lone one cannot be encoded, which is a C-speed test.
    if not _SURROGATE_ESCAPE.search(segment):
        return False
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _too_deep(value: object, remaining: int) -> bool:
    """True when the nesting reaches serde's remaining depth, where serde would refuse it."""
    stack = [(value, 1)]
    while stack:
        node, level = stack.pop()
        if level >= remaining:
            return True
        for child in node.values() if type(node) is dict else node:
            if type(child) is list or type(child) is dict:
                stack.append((child, level + 1))
    return False


# --- the whole message at once ---------------------------------------------------
# A request of a few hundred bytes costs tens of microseconds in the port's top level.  The C
# scanner, with the number hooks above and a pairs hook that gives up on a repeated key (serde
# refuses one at the top level; deeper down it keeps the last, but the port can say so), returns
# the port's message whenever the message is well formed; anything else, or anything the checks
# below are unsure of (a surrogate escape, deep nesting, a member that is not what the struct
# declares), is left to the port, which answers it or words its error.

_WHOLE_MAX = 64 * 1024  # past this the pairs hook costs more than the port's top level saves
_SURROGATE_CHAR = re.compile("[\ud800-\udfff]")


def _unique_pairs(pairs: list) -> dict:
    value = dict(pairs)
    if len(value) != len(pairs):
        raise _Fallback("repeated key")
    return value


_WHOLE = json.JSONDecoder(parse_float=_scan_float, parse_int=_scan_int, parse_constant=_refuse_constant,
                          object_pairs_hook=_unique_pairs)


def _decode_whole(line: str) -> Message | None:
    """The message, when the C scanner reads it as serde would; None: ask the port."""
    if _SURROGATE_ESCAPE.search(line) or (not line.isascii() and _SURROGATE_CHAR.search(line)):
        return None
    if json_too_deep(line, 128):
        return None
    try:
        doc = _WHOLE.decode(line)
    except (ValueError, RecursionError, _Fallback):
        return None
    if type(doc) is not dict or not doc.keys() <= _FIELD_SET:
        return None
    jsonrpc, method = doc.get("jsonrpc"), doc.get("method")
    if type(jsonrpc) is not str or type(method) is not str or jsonrpc != "2.0":
        return None
    id_ = doc.get("id")
    if type(id_) is int and not INT_MIN <= id_ <= INT_MAX:
        return None
    params = doc.get("params")
    for member in (id_, params):
        if (type(member) is list or type(member) is dict) and _too_deep(member, 127):
            return None
    return Message(method, params, id_, "id" in doc)


# --- reply encoding ------------------------------------------------------------


def result_line(id: object, result: object) -> str:
    """The reply line for a successful request."""
    return f'{{"jsonrpc":"2.0","id":{_dumps(id)},"result":{_dumps(result)}}}'


def error_line(id: object, code: int, message: str, data: object = None) -> str:
    """The reply line for a failed request; ``id`` None writes ``"id":null``; ``data`` (when not
    None) is the error's `data` member."""
    extra = "" if data is None else f',"data":{_dumps(data)}'
    return f'{{"jsonrpc":"2.0","id":{_dumps(id)},"error":{{"code":{int(code)},"message":{_dumps(message)}{extra}}}}}'
