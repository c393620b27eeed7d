"""Idempotency keys of the 1.4.2 tool line: (key, the request's fingerprint) -> the first answer.

A tool call that writes and carries `idempotencyKey` runs once: the same key with the same
request answers the first result again, marked `replayed: true`, and writes nothing; the same
key with a different request is refused (-32602, IDEMPOTENCY_KEY_REUSED); a call that arrived
while the key's first call was still running answers -32000 IDEMPOTENCY_KEY_IN_PROGRESS once it
gets its turn (the caller sends it again and gets the replay).  A call that fails keeps no entry,
so its key may be used again.

The table is in memory, per server process (a restart forgets it), bounded to the most recent
`CAPACITY` keys.  It is not kept in the store: a replayed answer is a protocol matter, and keeping
it durable would cost a write per keyed call.  Transports that answer calls concurrently call
`arrive` before the engine lock and hand its ticket to the call, so a second call knows the
first was still running when it came; the others (stdio, the browser) answer one call at a time
and never see a key in progress.  Entries are changed only by single dict operations (atomic in
CPython), so no lock is needed here.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

CAPACITY = 10_000
MAX_KEY = 256
REUSED = "IDEMPOTENCY_KEY_REUSED"
IN_PROGRESS = "IDEMPOTENCY_KEY_IN_PROGRESS"


def fingerprint(tool: str, args: dict) -> str:
    """The request a key stands for: the tool and its arguments other than the key, as canonical JSON."""
    rest = {k: v for k, v in args.items() if k != "idempotencyKey"}
    return json.dumps([tool, rest], sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=repr)


OWNER, BUSY, KNOWN = "owner", "busy", "known"  # what `arrive` saw


class KeyRefused(Exception):
    """A keyed call refused: `code` is the JSON-RPC code, `subcode` the 1.4 line's name."""

    def __init__(self, code: int, subcode: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.subcode = subcode


@dataclass
class Entry:
    fingerprint: str | None  # None: noted on arrival, before the request was read
    result: dict | None = None  # None while the first call runs


class Replays:
    """The key table of one server."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self.capacity = capacity
        self._entries: dict[str, Entry] = {}

    def arrive(self, key: str) -> str:
        """Note a keyed call as it arrives, before it waits for the engine -> OWNER (the key is
        new: this call holds it), BUSY (the key's first call is running) or KNOWN (it finished)."""
        entry = self._entries.get(key)
        if entry is None:
            self._put(key, Entry(None))
            return OWNER
        return BUSY if entry.result is None else KNOWN

    def decide(self, key: str, fp: str, ticket: str | None) -> dict | None:
        """For a call that writes -> the first answer to replay, or None to run it (the key is
        then held until `finish` or `drop`); raises `KeyRefused`."""
        entry = self._entries.get(key)
        if entry is not None and entry.result is not None and entry.fingerprint != fp:
            raise KeyRefused(-32602, REUSED, f"{REUSED}: the idempotencyKey was used before with a different "
                                             "request; use a new key for a new request")
        if ticket == BUSY and entry is not None:
            raise KeyRefused(-32000, IN_PROGRESS, f"{IN_PROGRESS}: the first call with this idempotencyKey was "
                                                  "still running when this one arrived; send the same call again")
        if entry is not None and entry.result is not None:
            return {**entry.result, "replayed": True}
        self._put(key, Entry(fp))
        return None

    def finish(self, key: str, result: dict) -> None:
        entry = self._entries.get(key)
        if entry is not None:
            entry.result = result

    def release(self, key: str) -> None:
        """After a keyed call: forget the key unless it holds a first answer.  Calls run one at a
        time, so an entry still without one is this call's, or the arrival note of a call still
        waiting, which notes the key again when it runs (`decide`)."""
        entry = self._entries.get(key)
        if entry is not None and entry.result is None:
            self._entries.pop(key, None)

    def _put(self, key: str, entry: Entry) -> None:
        self._entries.pop(key, None)
        self._entries[key] = entry
        while len(self._entries) > self.capacity:  # the oldest key goes first (dicts keep insertion order)
            self._entries.pop(next(iter(self._entries)))
