"""The clocks `realtime`, `statement` and `transaction` -> epoch nanoseconds.

`realtime` always reads the system clock.  The engine pins the other two around a statement run
(`pinned_clock`), so every `date()` or `datetime.statement()` in one statement sees the same
instant; outside a pinned run they read the system clock too.  A context variable holds the pin,
which needs no threads and works the same in the browser.
"""
from __future__ import annotations

import contextvars
import time as _time
from contextlib import contextmanager

_PINNED: contextvars.ContextVar[tuple[int, int] | None] = contextvars.ContextVar(
    "relate_temporal_clock", default=None)


@contextmanager
def pinned_clock(transaction_ns: int | None = None, statement_ns: int | None = None):
    """Fix the `transaction` and `statement` clocks (epoch nanoseconds) for the code inside."""
    token = pin(transaction_ns, statement_ns)
    try:
        yield
    finally:
        _PINNED.reset(token)


def pin(transaction_ns: int | None = None, statement_ns: int | None = None):
    """`pinned_clock` without the context manager (a statement run pins the clocks this way: a
    generator-based `with` costs more than the rest of a point read's fixed path): -> the token
    to hand to `unpin`."""
    now = _time.time_ns()
    return _PINNED.set((transaction_ns if transaction_ns is not None else now,
                        statement_ns if statement_ns is not None else now))


unpin = _PINNED.reset  # the clocks as they were before `pin` returned this token


def clock_ns(clock: str) -> int:
    """Epoch nanoseconds of a clock: `realtime` always reads the system clock."""
    pinned = _PINNED.get()
    if clock == "realtime" or pinned is None:
        return _time.time_ns()
    return pinned[0] if clock == "transaction" else pinned[1]
