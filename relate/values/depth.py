"""How deeply a value nests lists and maps -> nothing, or a `ValueTooDeep` error past `MAX_DEPTH`.

Every value a statement holds is at most `MAX_DEPTH` levels deep: `[1]` and `{a: 1}` are one
level, `[[1]]` two, scalars, nodes, relationships and paths none.  The bound exists because a
value nested thousands deep is freed, compared, hashed and printed by code that recurses once per
level.  CPython natively has room for that; Pyodide's WebAssembly stack does not, and dies (a
fatal error that takes the page's engine with it, no RecursionError): measured under Node,
freeing dies past about 3,000 nested maps (5,000 lists), and the engine's own walks that recurse
through C (the table writer's text, DISTINCT's grouping keys) die past 200-250 levels, natively
they end in a RecursionError near 400 (Chromium's worker has more room: 400 passes there, 1,000
does not).  128 levels is half of the smallest of those, the depth serde_json (so every MCP
request) already stops at, and far more than any real value needs: a statement gets the same
verdict natively and in the browser, and a value at the bound is compared, grouped, sorted and
printed on both.

Where the depth can grow, the builder checks (`exec/compile.py`: list and map literals, map
projections, comprehensions, `+` appending a container; `exec/aggregates.py`: `collect`; the
parameters in `values/ints.py`'s scan; JSON texts at the doors through `json_too_deep`).  A check
costs nothing for members that are not lists or maps; a member that is one is measured by an
iterative walk, and a `Depths` memo (one per run, holding what it measured, so identity is a safe
key) remembers the depth of the containers built or measured last, so a value wrapped level by
level (`reduce(acc = [], x IN l | [acc])`) is never walked again.
"""
from __future__ import annotations

import re

from ..errors import E

MAX_DEPTH = 128  # serde_json's own bound, which MCP requests already meet
_MEMO = 64  # containers remembered per run


def depth_of(value: object, stop: int = MAX_DEPTH, memo: "Depths | None" = None) -> int:
    """The nesting depth of `value` (0 for anything but a list or a map), or some number over
    `stop` once it passes it.  Iterative: any depth."""
    if type(value) is not list and type(value) is not dict:
        return 0
    known = memo.known if memo is not None else None
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        v, level = stack.pop()
        if known is not None:
            hit = known.get(id(v))
            if hit is not None and hit[0] is v:
                level += hit[1] - 1
                if level > deepest:
                    deepest = level
                    if deepest > stop:
                        return deepest
                continue
        if level > deepest:
            deepest = level
            if deepest > stop:
                return deepest
        for child in v.values() if type(v) is dict else v:  # type: ignore[attr-defined]
            t = type(child)
            if t is list or t is dict:
                stack.append((child, level + 1))
    return deepest


class Depths:
    """The depths of the last containers a run built or measured (holding them: an id is only
    reused once its object is gone)."""

    __slots__ = ("known",)

    def __init__(self) -> None:
        self.known: dict[int, tuple[object, int]] = {}

    def remember(self, value: object, depth: int) -> None:
        known = self.known
        if len(known) >= _MEMO:
            del known[next(iter(known))]
        known[id(value)] = (value, depth)


def too_deep() -> Exception:
    return E.Runtime.ValueTooDeep(limit=MAX_DEPTH)


def check_members(value: list | dict, members, memo: Depths | None) -> None:
    """Refuse `value` (just built from `members`) when it nests past `MAX_DEPTH`; remember its
    depth when it holds containers.  Members that are not lists or maps cost one type test."""
    deepest = 0
    for m in members:
        t = type(m)
        if t is list or t is dict:
            d = depth_of(m, MAX_DEPTH - 1, memo)
            if d > deepest:
                deepest = d
                if d >= MAX_DEPTH:
                    raise too_deep()
            if memo is not None and len(m) > 16:
                memo.remember(m, d)  # a wide member met again (`collect(big)` row after row)
    if deepest and memo is not None:
        memo.remember(value, deepest + 1)


def check_member(member: list | dict, memo: Depths | None) -> None:
    """Refuse a list or map about to become a member of a new list or map when that would nest
    past `MAX_DEPTH` (`collect`, comprehensions and `+` add their members one at a time)."""
    d = depth_of(member, MAX_DEPTH - 1, memo)
    if d >= MAX_DEPTH:
        raise too_deep()
    if memo is not None and (d > 1 or len(member) > 16):
        memo.remember(member, d)


def check_value(value: object, memo: Depths | None = None) -> None:
    """Refuse `value` when it nests past `MAX_DEPTH`."""
    d = depth_of(value, MAX_DEPTH, memo)
    if d > MAX_DEPTH:
        raise too_deep()
    if d > 1 and memo is not None:
        memo.remember(value, d)


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def json_too_deep(text: str | bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether JSON `text` opens more than `limit` arrays or objects inside each other, read
    without decoding it (a decoder would build the value first).  Brackets inside strings do not
    count.  A text with fewer brackets than that is answered by two counts; otherwise the strings
    and everything but the brackets are cut out in C and only the brackets are walked."""
    if isinstance(text, (bytes, bytearray)):
        if text.count(b"[") + text.count(b"{") <= limit:
            return False
        text = bytes(text).decode("utf-8", "replace")
    elif text.count("[") + text.count("{") <= limit:
        return False
    level = 0
    for ch in _NOT_BRACKET.sub("", _STRING.sub("", text)):
        if ch == "[" or ch == "{":
            level += 1
            if level > limit:
                return True
        else:
            level -= 1
    return False
