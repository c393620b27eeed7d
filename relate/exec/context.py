"""What a running plan reads besides its rows: the graph, the parameters, the counters, and the
deadline a caller's timeout sets."""
from __future__ import annotations

from time import monotonic

from ..errors import E
from ..result import Stats


class ExecContext:
    __slots__ = ("graph", "params", "stats", "txn", "timeout", "deadline", "memory")

    def __init__(self, graph, params: dict, txn=None, timeout: float | None = None, spent: float = 0.0) -> None:
        """`spent`: seconds of the timeout already used before the run (parse, checks, plan)."""
        self.graph = graph
        self.params = params
        self.stats = Stats()
        self.txn = txn
        self.memory = None  # the run's `value_size.Budget` when a memory limit is set (`Policy.budget`)
        self.timeout = timeout
        # There are no threads or signals in the browser build, so a timeout is a deadline that
        # the operators' row loops poll (`if ctx.deadline is not None: ctx.check_deadline()`).
        self.deadline = None if timeout is None else monotonic() + timeout - spent
        if self.deadline is not None and spent >= timeout:
            raise E.Timeout.Timeout(seconds=timeout)

    def check_deadline(self) -> None:
        """Stop the statement once its deadline has passed (the transaction then rolls back)."""
        if monotonic() > self.deadline:
            raise E.Timeout.Timeout(seconds=self.timeout)
