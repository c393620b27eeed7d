"""What a store reports while it opens -> lines on the command's stderr.

Recovery reports what it set aside (an interrupted write a crashed writer left, moved to a file
beside the store) to the `relate.storage` logger and as a `StoreRecoveryWarning` (durable.py).  While a
command opens its store it prints the logger's lines on its own stderr, `warning: <message>` (and
not again through the handler a command puts on `relate`), and silences the Python warning, which
would only say the same thing again in Python's format.
"""
from __future__ import annotations

import logging
import warnings
from contextlib import contextmanager
from typing import Iterator, TextIO

from ..errors import StoreRecoveryWarning


class _Lines(logging.Handler):
    def __init__(self, stream: TextIO, prefix: str) -> None:
        super().__init__(logging.INFO)
        self.stream = stream
        self.prefix = prefix

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.stream.write(f"{self.prefix}{record.getMessage()}\n")
            self.stream.flush()
        except Exception:  # a closed stderr must not fail the open
            self.handleError(record)


@contextmanager
def store_notices(stderr: TextIO, prefix: str = "warning: ") -> Iterator[None]:
    """While the block runs, the stores' reports go to `stderr` as `<prefix><message>` lines."""
    logger = logging.getLogger("relate.storage")
    handler = _Lines(stderr, prefix)
    logger.addHandler(handler)
    propagate, logger.propagate = logger.propagate, False  # not a second time through `relate`'s handler
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", StoreRecoveryWarning)
            yield
    finally:
        logger.propagate = propagate
        logger.removeHandler(handler)


def open_for_reading(path: str, stderr: TextIO):
    """A command's source store, opened read-only with its reports on `stderr` -> (store, None),
    or (None, exit code) after the refusal's line `Error: Failed to open Relate: ...`."""
    from ..errors import RelateError
    from ..storage.store import open_store
    try:
        with store_notices(stderr):
            return open_store(path, read_only=True), None
    except RelateError as e:
        stderr.write(f"Error: Failed to open Relate: {e.message}\n")
        return None, e.exit_code
