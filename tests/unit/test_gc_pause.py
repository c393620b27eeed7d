"""`gc_pause.paused` turns the cyclic collector off for its block only, and leaves a collector the
caller had switched off as it was."""
from __future__ import annotations

import gc

from relate.gc_pause import paused


def test_the_collector_is_off_inside_and_on_again_after():
    assert gc.isenabled()
    with paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_the_caller_switched_off_stays_off():
    gc.disable()
    try:
        with paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_collector_comes_back_when_the_block_raises():
    try:
        with paused():
            raise KeyError("x")
    except KeyError:
        pass
    assert gc.isenabled()
