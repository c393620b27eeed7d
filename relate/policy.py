"""What a connection allows -> the checks `Database.run` applies to every statement.

A `Policy` is one frozen value: read-only, `--safe`, the largest explicit hop bound
(`--max-traversal-depth`), the largest value a read may hand back (`--expression-memory-limit`)
and the longest a statement may run (`relate serve --call-timeout-secs`; a shorter `timeout` of
one call still wins, and a statement over the limit stops with the timeout error, rolled back).
Every front door hands its policy to the database instead of running the checks itself: the
`relate` command and its shell open their `Database` with one (`cli/main.py`), `relate serve`
opens its store with one and its MCP core passes it with each call (`protocols/mcp.py`; the
browser's two MCP cores share one database, each with its own policy), and a Python program
passes one to `connect` or to a single `execute`.  Access rules will be fields of this object too.

The order in which `Database.run` refuses a statement (an `EXPLAIN` runs nothing and passes):
the hop bound, then `--safe` (both are compile-time checks on the typed statement, in
`semantic/`), then missing parameters, then read-only; while any statement runs, the memory limit
on the values it builds (`Policy.budget`, the run's `ExecContext.memory`); after a read has run,
the memory limit on its result values (`exec/value_size.py`).  Before all of them, EXPLAIN
included, any door's parameter holding an integer outside 64 bits is refused as a usage error
(`values/ints.py`).
A statement with LOAD CSV is refused after the read-only check on a read-only connection (store
or policy), then when the policy names no import folder (`import_dir`: `connect(import_dir=...)`,
`--import-dir`).

`OPEN` (the default of `connect`) checks nothing; `SERVED` is what `relate serve` starts from.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .errors import E
from .exec.value_size import DEFAULT_MEMORY_LIMIT, Budget, check_result_size
from .semantic.safe_mode import check_safe
from .semantic.traversal_depth import DEFAULT_MAX_DEPTH, check_traversal_depth
from .syntax import ast as A


@dataclass(frozen=True, slots=True)
class Policy:
    """What statements on a connection may do.  `None` limits are off."""

    read_only: bool = False  # refuse statements whose plan writes
    safe: bool = False  # refuse unbounded MATCH reads and unlabelled new named nodes
    max_traversal_depth: int | None = None  # the largest explicit hop bound a pattern may name
    expression_memory_limit: int | None = None  # bytes: the largest value a statement may build or return
    time_limit: float | None = None  # seconds a statement may run (`relate serve --call-timeout-secs`)
    import_dir: str | None = None  # the folder LOAD CSV reads; None refuses LOAD CSV (`--import-dir`)
    # versions of history a read at a past time may look at (`--temporal-read-limit`)
    temporal_read_limit: int = 1_000_000
    # derived, not set: no hop bound, no --safe, no memory limit, no time limit, so `Database.run`
    # skips those checks (and their bookkeeping) with one test; read-only and LOAD CSV are checked
    # on their own, from what the plan does
    plain: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "plain", self.max_traversal_depth is None and not self.safe
                           and self.expression_memory_limit is None and self.time_limit is None)

    def check_statement(self, statement: A.Statement) -> None:
        """Refuse a planned statement before it runs: the hop bound first, then `--safe`."""
        if self.max_traversal_depth is not None:
            check_traversal_depth(statement, self.max_traversal_depth)
        if self.safe:
            check_safe(statement)

    def check_load_csv(self, store_read_only: bool, where=None) -> None:
        """Refuse a statement with LOAD CSV (its first clause at `where`) on a read-only connection,
        or without an import folder."""
        if self.read_only or store_read_only:
            raise E.ReadOnly.ReadOnly("LOAD CSV reads files of the import folder; it is refused on a read-only "
                                      "connection", position=where)
        if self.import_dir is None:
            from .exec.load_csv import DISABLED
            raise E.Runtime.LoadCsvDisabled(DISABLED, position=where)

    def budget(self) -> Budget | None:
        """What one run's value builders check against the memory limit (None: nothing to check)."""
        limit = self.expression_memory_limit
        return None if limit is None else Budget(limit)

    def check_result(self, rows) -> None:
        """Refuse a read's result holding a value over the memory limit."""
        if self.expression_memory_limit is not None:
            check_result_size(rows, self.expression_memory_limit)


OPEN = Policy()
SERVED = Policy(max_traversal_depth=DEFAULT_MAX_DEPTH, expression_memory_limit=DEFAULT_MEMORY_LIMIT)
