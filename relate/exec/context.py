"""What a running plan reads besides its rows: the graph, the parameters, the counters, and what
may stop it: the deadline a caller's timeout sets and the cancel token a caller hands in.

There are no threads or signals in the browser build, so neither is an interrupt: the operators'
row loops (and the hop loops of pattern matching) poll them, as

    if ctx.deadline is not None: ctx.check_deadline()

`deadline` is not None whenever something can stop the run (infinite when only a token can), so a
run that nothing can stop pays one `is not None` test per row and no clock read.  A new operator
must poll in its row loops.
"""
from __future__ import annotations

from math import inf
from time import monotonic

from ..errors import E
from ..result import Stats
from ..values.depth import Depths


class CancelToken:
    """Stops a running statement from outside it.  Whoever may need to stop the statement (a
    transport whose client closed its connection, a server told to stop) calls `cancel` with the
    catalog kind to raise, e.g. `token.cancel(E.Cancelled.ClientGone)`; the statement's loops
    raise it at their next poll and the transaction rolls back.  Setting one attribute is the
    only step that crosses threads, so the core needs no lock, and a token cancelled before the
    run starts stops it before it reads anything."""

    __slots__ = ("reason",)

    def __init__(self) -> None:
        self.reason = None  # the kind to raise once cancelled (the first cancel wins)

    def cancel(self, reason) -> None:
        if self.reason is None:
            self.reason = reason

    @property
    def cancelled(self) -> bool:
        return self.reason is not None

    def check(self) -> None:
        reason = self.reason
        if reason is not None:
            raise reason()


class ExecContext:
    __slots__ = ("graph", "params", "stats", "txn", "timeout", "deadline", "cancel", "memory", "import_dir",
                 "profile", "search", "depths")  # search: the caller's search scope (search/scope.py), set by the run

    def __init__(self, graph, params: dict, txn=None, timeout: float | None = None, spent: float = 0.0,
                 cancel: CancelToken | None = None) -> None:
        """`spent`: seconds of the timeout already used before the run (parse, checks, plan).
        `cancel`: a token another party may cancel while the run goes on."""
        self.graph = graph
        self.params = params
        self.stats = Stats()
        self.txn = txn
        self.import_dir = None  # the folder LOAD CSV reads (`Policy.import_dir`), None: LOAD CSV is refused
        self.memory = None  # the run's `value_size.Budget` when a memory limit is set (`Policy.budget`)
        self.profile = None  # PROFILE: id(operator) -> [rows, ns] (`exec/profile.py`)
        self.depths = Depths()  # what the nesting checks measured (`values/depth.py`)
        self.timeout = timeout
        self.cancel = cancel
        if timeout is None and cancel is None:
            self.deadline = None  # nothing can stop the run: its loops never poll
            return
        self.deadline = None if timeout is None else monotonic() + timeout - spent
        if self.deadline is not None and spent >= timeout:
            raise E.Timeout.Timeout(seconds=timeout)
        if cancel is not None:
            cancel.check()
            if self.deadline is None:
                self.deadline = inf  # polled for the token; the clock is never read

    def check_deadline(self) -> None:
        """Stop the statement once its deadline has passed or its token was cancelled (the
        transaction then rolls back)."""
        cancel = self.cancel
        if cancel is not None and cancel.reason is not None:
            raise cancel.reason()
        if self.timeout is not None and monotonic() > self.deadline:
            raise E.Timeout.Timeout(seconds=self.timeout)
