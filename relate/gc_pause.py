"""Blocks that make many long-lived objects and little garbage -> the cyclic collector kept off them.

Importing the engine and loading the parser's image each make some hundred thousand objects that
live as long as the process; with the collector on, every 700 new ones start a collection that
walks the young ones, and the older generations are walked again and again as they grow: about a
seventh of a bare `relate "RETURN 1"`.  `paused` switches the collector back on (if it was on) when
the block ends; what the block made is then collected in the ordinary course.

A write statement is such a block too: `Database.run` switches the collector off around it
(inline, on every write's path), so the statement's short-lived values are freed by their counts
instead of being promoted to the old generation, where each full collection they start walks the
whole graph (a load in `UNWIND` batches grew quadratic that way).  `after_write` then decides
about what a successful write made: when a committed one leaves many young objects (the graph's
new entities, which live long) every tracked object is frozen out of the collector's sight
(`gc.freeze`), so the loaded graph is not walked again by later collections.  Freezing also hides
whatever cyclic garbage existed then, so `release` gives the frozen objects back to the collector
when that matters: a statement that deleted entities (their cycles must be collectable), a
database closing, a new one opening (an old one may have been dropped without `close`).
"""
from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["KEEP_AT", "after_write", "keep_young", "paused", "release"]

# Young tracked objects at the end of a write past which they are frozen: a statement that made a
# few thousand entities (a batch of a load), not the single-row write
KEEP_AT = 10_000

_frozen = [False]  # whether this module froze objects that have not been given back


@contextmanager
def paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def keep_young() -> None:
    """A large write just ended: freeze what it made (and all else tracked) out of later collections."""
    gc.freeze()
    _frozen[0] = True


def release() -> None:
    """Give what `keep_young` froze back to the collector (it is walked by the next full collection)."""
    if _frozen[0]:
        _frozen[0] = False
        gc.unfreeze()


def after_write(stats, committed: bool) -> None:
    """A write statement succeeded (`stats`: its counters; `committed`: an auto-commit one, not a
    statement of a `transaction()` block that may still roll back)."""
    if stats.nodes_deleted or stats.relationships_deleted:
        release()
    elif committed and gc.get_count()[0] >= KEEP_AT:
        keep_young()
