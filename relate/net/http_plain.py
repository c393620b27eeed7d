"""The plain request: bytes of one ordinary MCP POST -> its head, without h11; a response -> the
bytes h11 writes for it.

Most requests an MCP client sends are alike: `POST <target> HTTP/1.1`, CRLF line ends, one `Host`,
one `Content-Length`, no `Transfer-Encoding`, `Expect`, `Connection` or `Upgrade`, every header line
`name: value` in the grammar's strictest form.  `plain_head` recognises exactly those (a subset of
what h11 accepts, read the way h11 reads it: names lowercased, values without surrounding blanks)
and answers None for anything else, which then goes to h11 as before; so whatever h11 would refuse
or treat specially still meets h11.  Reading one with h11 costs about as much as answering a small
query.  `response_bytes` writes a response as h11 does for the ones `http.McpHttp` sends (a status
line with the standard reason, the headers as given, the body).
"""
from __future__ import annotations

import re

# the request line and header lines in a subset of h11's grammar (h11/_abnf.py): token names,
# values of visible bytes with single inner blanks allowed, optional blanks around the value
_REQUEST_LINE = re.compile(rb"POST ([\x21-\x7e]+) HTTP/1\.1\r\n")
_HEADER_LINE = re.compile(rb"([-!#$%&'*+.^_`|~0-9a-zA-Z]+):[ \t]*"
                          rb"((?:[\x21-\x7e\x80-\xff]+(?:[ \t]+[\x21-\x7e\x80-\xff]+)*)?)[ \t]*\r\n")
_DIGITS = re.compile(rb"[0-9]{1,12}")
_END = re.compile(rb"\n\r?\n")  # where h11 sees the end of a head
_SPECIAL = frozenset({b"transfer-encoding", b"expect", b"connection", b"upgrade", b"te", b"trailer"})


def head_end(data: bytes, start: int = 0) -> int:
    """The offset just past the head's blank line in `data` as h11 finds it, or -1 while incomplete;
    `start`: where new bytes begin (the search looks back only as far as a blank line can reach)."""
    m = _END.search(data, max(0, start - 2))
    return -1 if m is None else m.end()


def plain_head(data: bytes, end: int) -> tuple[bytes, list[tuple[bytes, bytes]], int] | None:
    """`data[:end]` (a complete head) -> (target, [(lowercased name, value)], content length), or
    None when the head is not a plain POST (h11 reads it instead)."""
    m = _REQUEST_LINE.match(data)
    if m is None:
        return None
    pos = m.end()
    stop = end - 2
    if data[stop:end] != b"\r\n":
        return None
    headers: list[tuple[bytes, bytes]] = []
    hosts = 0
    length: int | None = None
    match = _HEADER_LINE.match
    while pos < stop:
        line = match(data, pos)
        if line is None:
            return None
        pos = line.end()
        name = line.group(1).lower()
        value = line.group(2)
        if name in _SPECIAL:
            return None
        if name == b"host":
            hosts += 1
        elif name == b"content-length":
            if length is not None or _DIGITS.fullmatch(value) is None:
                return None
            length = int(value)
        headers.append((name, value))
    if pos != stop or hosts != 1 or length is None:
        return None
    return m.group(1), headers, length


_REASONS: dict[int, bytes] = {}


def response_bytes(status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> bytes:
    """One response as h11 writes it (status line with the standard reason, headers in order)."""
    reason = _REASONS.get(status)
    if reason is None:
        from http import HTTPStatus
        reason = _REASONS[status] = HTTPStatus(status).phrase.encode("ascii")
    lines = [b"HTTP/1.1 %d %s\r\n" % (status, reason)]
    lines.extend(b"%s: %s\r\n" % (name, value) for name, value in headers)
    lines.append(b"\r\n")
    lines.append(body)
    return b"".join(lines)
