"""What a running plan reads besides its rows: the graph, the parameters, the counters."""
from __future__ import annotations

from ..result import Stats


class ExecContext:
    __slots__ = ("graph", "params", "stats", "txn")

    def __init__(self, graph, params: dict, txn=None) -> None:
        self.graph = graph
        self.params = params
        self.stats = Stats()
        self.txn = txn
