"""PROFILE: a plan's operators -> the same operators, each counting the rows it yields and the
time spent getting them, per run, into `ExecContext.profile`.

Only a PROFILE statement's plan is instrumented (`instrument`, once, when it is planned; its
text starts with PROFILE, so the plan cache never hands it to a plain run): every other plan
runs the operators' own `rows`, with nothing counted.  An instrumented operator's `rows` is an
instance attribute that wraps the class's generator; it reads the counters from the run's
context, so a cached PROFILE plan reports each run afresh.

The counts are keyed by `id(operator)`: `[rows, nanoseconds]`, the time being inclusive (what
the operator's child did to give it rows is in it); `plan.explain.describe` turns that into
each operator's own time.  Operators EXPLAIN folds into the one above them (`shown` false) are
not wrapped: their rows and time count for the operator they are drawn in.
"""
from __future__ import annotations

from time import perf_counter_ns


def instrument(root) -> None:
    """Wrap `rows` of every shown operator under `root` (explicit stack: plans can be deep)."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        op = stack.pop()
        if op is None or id(op) in seen:
            continue
        seen.add(id(op))
        if op.shown:
            op.rows = _counted(op)
        stack.extend(op.children())


def _counted(op):
    inner = op.rows  # the class's method, bound to `op`
    key = id(op)

    def rows(ctx):
        counts = ctx.profile
        if counts is None:  # the plan run without PROFILE's counters (not expected; still right)
            yield from inner(ctx)
            return
        entry = counts.get(key)
        if entry is None:
            entry = counts[key] = [0, 0]
        clock = perf_counter_ns
        t = clock()
        it = iter(inner(ctx))
        entry[1] += clock() - t
        try:
            while True:
                t = clock()
                try:
                    row = next(it)
                except StopIteration:
                    entry[1] += clock() - t
                    return
                entry[1] += clock() - t
                entry[0] += 1
                yield row
        finally:
            close = getattr(it, "close", None)
            if close is not None:
                close()  # a LIMIT above stopped early: let the operator below finish as it would
    return rows
