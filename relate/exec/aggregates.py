"""Aggregate functions: one `AggSpec` per aggregate call, driving a per-group state through
`start() -> step(state, row, ctx)* -> finish(state)`.

Nulls are skipped by every aggregate but `count(*)`.  `DISTINCT` keeps a set of the values seen
(with Cypher equivalence: 1 and 1.0 are one value).  `min`/`max` use the global sort order, so
they work across types.  `sum` of integers stays an integer (checked for 64-bit overflow);
`avg`, `stDev`, `stDevP` and `percentileCont` give floats.  The percentile formulas are the ones
Neo4j uses, so results agree to the last bit.
"""
from __future__ import annotations

import math

from ..errors import E
from ..values import type_name
from .arith import add
from ..values.compare import hashable, order_key
from ..values.depth import check_member


def _number(name: str, v):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise E.Type.InvalidArgumentType(f"{name}() needs numbers, got {type_name(v)}")
    return v


def _add_duration(name: str, total, v):
    """sum() and avg() also add up durations (and nothing else that is not a number)."""
    from .. import temporal
    if not isinstance(v, temporal.Duration) or total is not None and not isinstance(total, temporal.Duration):
        raise E.Type.InvalidArgumentType(f"{name}() needs numbers or durations, got {type_name(v)}")
    return v if total is None else temporal.add(total, v)


class AggSpec:
    """An aggregate call: `name` is the lower-case function name (or `count*`), `arg` the closure
    of its argument (None for count(*)), `extra` the closure of percentile's second argument."""

    __slots__ = ("name", "arg", "distinct", "extra")

    def __init__(self, name: str, arg, distinct: bool, extra=None) -> None:
        self.name = name
        self.arg = arg
        self.distinct = distinct
        self.extra = extra

    # state: [seen set or None, collected values, count (for collect & co.: the values' size under a
    # memory limit), running value, percentile]
    def start(self):
        return [set() if self.distinct else None, [], 0, None, None]

    def step(self, state, row, ctx):
        if self.arg is None:
            state[2] += 1
            return state
        v = self.arg(row, ctx)
        if v is None:
            return state
        if self.distinct:
            h = hashable(v)
            if h in state[0]:
                return state
            state[0].add(h)
        name = self.name
        if name == "count":
            state[2] += 1
        elif name == "sum" or name == "avg":
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                state[3] = v if state[3] is None else add(state[3], v)
            else:
                state[3] = _add_duration(name, state[3], v)
            state[2] += 1
        elif name == "min":
            if state[3] is None or _before(v, state[3]):
                state[3] = v
        elif name == "max":
            if state[3] is None or _before(state[3], v):
                state[3] = v
        else:  # collect, stdev, stdevp, percentileDisc, percentileCont
            if name != "collect":
                _number(name, v)
            elif type(v) is list or type(v) is dict:
                check_member(v, ctx.depths)
            if ctx.memory is not None:  # the list kept so far, measured as it grows
                state[2] = ctx.memory.count(state[2], v)
            state[1].append(v)
            if self.extra is not None and state[4] is None:
                state[4] = (self.extra(row, ctx),)
        return state

    def finish(self, state):
        name = self.name
        if name in ("count", "count*"):
            return state[2]
        if name == "sum":
            return 0 if state[3] is None else state[3]
        if name == "avg":
            if state[2] == 0:
                return None
            if isinstance(state[3], (int, float)):
                return state[3] / state[2]
            from .. import temporal
            return temporal.divide(state[3], state[2])
        if name in ("min", "max"):
            return state[3]
        values = state[1]
        if name == "collect":
            return values
        if name in ("stdev", "stdevp"):
            return _stdev(values, sample=name == "stdev")
        if not values:
            return None
        p = state[4][0]
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0.0 <= p <= 1.0:
            raise E.Argument.NumberOutOfRange(f"the percentile must be a number between 0.0 and 1.0, got {p}")
        vals = sorted(values)
        n = len(vals)
        if name == "percentiledisc":
            if p == 1.0:
                return vals[-1]
            idx = p * n
            i = int(idx)
            return vals[i if (idx != i or i == 0) else i - 1]
        idx = p * (n - 1)
        lo, hi = int(idx), math.ceil(idx)
        if lo == hi or lo == n - 1:
            return float(vals[lo])
        return float(vals[lo]) * (hi - idx) + float(vals[hi]) * (idx - lo)


def _before(a, b) -> bool:
    """a sorts before b in the global order (plain comparison when both are ints or strings)."""
    ta = type(a)
    if ta is type(b) and (ta is int or ta is str):
        return a < b
    return order_key(a) < order_key(b)


def _stdev(values: list, sample: bool) -> float:
    n = len(values)
    if n < 2 and sample or n == 0:
        return 0.0
    # Welford's running mean: steadier than summing squares for large values
    mean = 0.0
    m2 = 0.0
    for k, x in enumerate(values, 1):
        x = float(x)
        delta = x - mean
        mean += delta / k
        m2 += delta * (x - mean)
    return math.sqrt(m2 / (n - 1 if sample else n))
