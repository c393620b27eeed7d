"""A block that makes many long-lived objects and no garbage -> run with the cyclic collector off.

Importing the engine and loading the parser's image each make some hundred thousand objects that
live as long as the process; with the collector on, every 700 new ones start a collection that
walks the young ones, and the older generations are walked again and again as they grow: about a
seventh of a bare `relate "RETURN 1"`.  The collector is switched back on (if it was on) when the
block ends; what the block made is then collected in the ordinary course.
"""
from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["paused"]


@contextmanager
def paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
