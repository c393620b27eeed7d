"""`--expression-memory-limit`: the size of a value, measured where values are built and where a
read hands its result back -> nothing, or an `ExpressionMemoryLimit` error.

A policy with a memory limit (`relate/policy.py`; `relate serve` sets 256 MiB by default) gives
each run a `Budget` (`ExecContext.memory`; None, and no check anywhere, when no limit is set).
A value's size is estimated from what it holds: text by its UTF-8 length, numbers and booleans as
8 bytes, containers as 8 bytes per member plus their members, nodes and relationships by their
properties.  The walk is iterative and stops as soon as the running total passes the limit, so a
huge value costs no more than the limit to measure.

Where values grow, the builders ask the budget before they build (or, where the size is only
known by building, as they build):

- `range()` from its length (`functions/lists.py`), `replace()` and `split()` from counts of the
  separator (`functions/strings.py`);
- `+` on strings and lists from the sizes of both sides (`arith.add_within`);
- list and pattern comprehensions, `collect()` (and the value lists `percentile*`/`stDev*` keep)
  member by member, as they append;
- `reduce()` measures its accumulator after every step.

Each of these sizes is the estimate `value_size` gives for the value built (string concatenation
and the list members are additive, `range(a, b)` holds ints), so a value that passes where it is
built is not refused when it is returned.  The other way round, a value may pass every builder and
still be refused at the end: one made of several parts that each pass (`[range(...), range(...)]`).
The aggregates `percentile*`/`stDev*` return one number but are refused if the values they keep
pass the limit.  Writes are measured as they build too (the run then rolls back); only their
results are not measured after the commit.

To keep a growing accumulator from being walked again at every step, the budget remembers the
size of the last value it measured and of the accumulator of the innermost running `reduce()`
(holding them, so identity is a safe key); a walk that meets either adds its size.
"""
from __future__ import annotations

from ..errors import E
from ..values import Node, Path, Relationship

KIND = "ExpressionMemoryLimit"
DEFAULT_MEMORY_LIMIT = 256 * 1024 * 1024
_WORD = 8


def value_size(value: object, limit: int, known: "Budget | None" = None) -> int:
    """The estimated size of `value` in bytes, or some number over `limit` once it passes it.
    `known`: a budget whose remembered values count with their remembered sizes."""
    total = 0
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            total += len(v) if v.isascii() else len(v.encode("utf-8", "surrogatepass"))
        elif isinstance(v, (bytes, bytearray)):
            total += len(v)
        elif isinstance(v, (list, tuple)):
            if known is not None and (v is known.last or v is known.acc):
                total += known.last_size if v is known.last else known.acc_size
            else:
                total += _WORD * len(v)
                stack.extend(v)
        elif isinstance(v, dict):
            total += _WORD * len(v)
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, (Node, Relationship)):
            total += _WORD * 4
            stack.append(v.props)
        elif isinstance(v, Path):
            stack.extend(v.nodes)
            stack.extend(v.rels)
        else:
            total += _WORD
        if total > limit:
            return total
    return total


def check_result_size(rows, limit: int) -> None:
    """Raise `CypherRuntimeError(ExpressionMemoryLimit)` when one value of `rows` is over `limit`."""
    for row in rows:
        for v in row:
            if isinstance(v, (str, list, tuple, dict, bytes, bytearray, Path, Node, Relationship)):
                size = value_size(v, limit)
                if size > limit:
                    raise E.Runtime.ExpressionMemoryLimit(limit=limit)


_SMALL = (int, float, bool, type(None))


class Budget:
    """The memory limit of one run, as the builders of values see it (`ctx.memory`)."""

    __slots__ = ("limit", "last", "last_size", "acc", "acc_size")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.last: object = None  # the last list this budget measured, and its size
        self.last_size = 0
        self.acc: object = None  # the accumulator of the innermost running reduce(), and its size
        self.acc_size = 0

    def refuse(self):
        raise E.Runtime.ExpressionMemoryLimit(limit=self.limit)

    def size(self, v) -> int:
        """`value_size(v)`, with the remembered values counted without a walk."""
        if type(v) in _SMALL:
            return _WORD
        return value_size(v, self.limit, self)

    def check(self, size: int) -> None:
        """Refuse a value of `size` bytes before it is built."""
        if size > self.limit:
            self.refuse()

    def count(self, total: int, member) -> int:
        """The size of a list of `total` bytes once `member` is appended (refused past the limit)."""
        if type(member) in _SMALL:
            total += 2 * _WORD
        else:
            total += _WORD + value_size(member, self.limit, self)
        if total > self.limit:
            self.refuse()
        return total

    def built(self, v, size: int):
        """`v`, just built, of `size` bytes (within the limit): remembered for the next walk."""
        self.last = v
        self.last_size = size
        return v

    def text(self, a: str, b: str) -> None:
        """Refuse `a + b` past the limit (a code point takes at most 4 bytes in UTF-8)."""
        n = len(a) + len(b)
        if 4 * n > self.limit and (n > self.limit or value_size(a, self.limit) + value_size(b, self.limit)
                                   > self.limit):
            self.refuse()

    def hold(self, acc) -> None:
        """A reduce() step's accumulator: refused past the limit, else remembered."""
        if type(acc) in _SMALL:
            return
        size = value_size(acc, self.limit, self)
        if size > self.limit:
            self.refuse()
        self.acc = acc
        self.acc_size = size
