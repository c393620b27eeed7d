"""Aggregate functions as (start, step, finish) triples over a per-group state."""
from __future__ import annotations

import math

from ..errors import CypherArgumentError, CypherTypeError
from ..values import type_name
from .arith import add
from .compare import compare, hashable, order_key


class AggSpec:
    __slots__ = ("name", "arg", "distinct", "extra")

    def __init__(self, name: str, arg, distinct: bool, extra=None) -> None:
        self.name = name  # lower-case function name, or "count*"
        self.arg = arg    # closure or None for count(*)
        self.distinct = distinct
        self.extra = extra  # closure for percentile's second argument

    def start(self):
        return [set() if self.distinct else None, [] if self.name in _COLLECTING else None, 0, None]

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
        if name in _COLLECTING:
            state[1].append(v)
            if self.extra is not None and state[3] is None:
                state[3] = self.extra(row, ctx)
        elif name == "count":
            state[2] += 1
        elif name == "sum":
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise CypherTypeError("InvalidArgumentType", f"sum() cannot add {type_name(v)}")
            state[3] = v if state[3] is None else add(state[3], v)
            state[2] += 1
        elif name == "avg":
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise CypherTypeError("InvalidArgumentType", f"avg() cannot average {type_name(v)}")
            state[3] = v if state[3] is None else state[3] + v
            state[2] += 1
        elif name == "min":
            if state[3] is None or _less(v, state[3]):
                state[3] = v
        elif name == "max":
            if state[3] is None or _less(state[3], v):
                state[3] = v
        return state

    def finish(self, state):
        name = self.name
        if name in ("count", "count*"):
            return state[2]
        if name == "sum":
            return 0 if state[3] is None else state[3]
        if name == "avg":
            return None if state[2] == 0 else state[3] / state[2]
        if name in ("min", "max"):
            return state[3]
        values = state[1]
        if name == "collect":
            return values
        nums = [float(x) for x in values]
        if name in ("stdev", "stdevp"):
            n = len(nums)
            if n < 2 and name == "stdev" or n == 0:
                return 0.0
            mean = sum(nums) / n
            ss = sum((x - mean) ** 2 for x in nums)
            return math.sqrt(ss / (n - 1 if name == "stdev" else n))
        p = state[3]
        if not values:
            return None
        if p is None or not 0 <= p <= 1:
            raise CypherArgumentError("NumberOutOfRange", f"percentile must be between 0.0 and 1.0, got {p}")
        vals = sorted(values, key=order_key)
        if name == "percentiledisc":
            idx = max(0, math.ceil(p * len(vals)) - 1)
            return vals[idx]
        pos = p * (len(vals) - 1)
        lo = math.floor(pos)
        hi = math.ceil(pos)
        frac = pos - lo
        return float(vals[lo]) + (float(vals[hi]) - float(vals[lo])) * frac


_COLLECTING = {"collect", "stdev", "stdevp", "percentiledisc", "percentilecont"}


def _less(a, b) -> bool:
    c = compare(a, b)
    if c is None:
        return order_key(a) < order_key(b)
    return c < 0
