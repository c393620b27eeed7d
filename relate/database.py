"""`Database`: one open store, its plan cache, and statement execution.

statement text -> (plan cache | parse -> analyze -> plan) -> run in a transaction -> `Result`.

Store kinds by path (`storage/store.py`): `:memory:`; a path ending in `.rl` is one file; any other
path is a directory store with a WAL.  A write's transaction is on disk before `execute` returns,
so an acknowledged write survives a crash.  A read-only open never creates or changes
anything, and refuses statements whose plan writes.

Every statement runs under a `Policy` (`policy.py`): the connection's, or one passed with the
call.  `run` applies its checks, whatever the front door.
"""
from __future__ import annotations

import gc
import time
from dataclasses import dataclass, replace

from .errors import E
from .exec.context import CancelToken, ExecContext
from .exec.value_size import KIND as MEMORY_KIND
from .exec.pipeline import fuse
from .exec.profile import instrument
from . import gc_pause, temporal_run
from .plan.catalog import catalog
from .plan.explain import describe
from .plan.planner import Plan, Planner
from .lean_run import lean_eligible, lean_run, plan_rows
from .transaction_blocks import InnerTransactions as _InnerTransactions
from .transaction_blocks import TransactionBlock as _TransactionBlock
from .policy import OPEN, Policy
from .procedures import Procedure, ProcedureRegistry, builtins
from .search.procedures import procedures as search_procedures
from .result import Notification, PlanDescription, Result, Span, Stats, Timings
from .values import str_ids
from .semantic.analyze import analyze
from .storage.graph import Notes
from .storage.store import MEMORY, open_store
from .storage import constraint_check, schema_commands
from .syntax import ast as A
from .syntax.parser import parse, warm_parser
from .values.depth import too_deep
from .values.ints import DEEP, PARAMETER_RANGE, WIDE, scan_params, wide_int_path
from .values.python import params_from_python, rows_to_python
from .syntax.position import position

_STORE_READ_ONLY = "the store is open read-only; this statement writes"
_POLICY_READ_ONLY = "this connection's policy is read-only; this statement writes"


@dataclass(slots=True)
class Prepared:
    """A planned statement, ready to run any number of times."""

    text: str
    statement: A.Statement
    plan: Plan
    description: PlanDescription
    notifications: tuple[Notification, ...]
    cache: str
    timings: Timings
    schema_version: int
    # when planning started and how long it took (ns), for a run whose own clock starts later
    # (`prepare`, then `run`): its elapsed time takes in the planning (0 for a cached entry)
    planned_at: int = 0
    planning_ns: int = 0
    # a cache entry `lean_run` may run: nothing in the statement needs the general path
    lean: bool = False

    @property
    def query_type(self) -> str:
        return self.plan.query_type


def _ms(ns: int) -> float:
    return ns / 1_000_000


def _elapsed(ns: int, timings: Timings) -> float:
    """The run's elapsed milliseconds, never less than parse + plan + execute: those parts are
    measured inside it, so only rounding each part to a float can make them add up to more."""
    return max(_ms(ns), timings.parse_ms + timings.plan_ms + timings.execute_ms)


class Database:
    """An open store (the connection an embedding program holds).  Not thread-safe: one
    statement at a time.

    >>> import relate
    >>> with relate.connect(":memory:") as conn:
    ...     conn.execute("CREATE (:Person {name: $name})", {"name": "Ada"}).stats.nodes_created
    ...     result = conn.execute("MATCH (p:Person) RETURN p.name AS name")
    ...     result.columns, result.fetchall(), [row for row in result]
    1
    (('name',), [('Ada',)], [('Ada',)])

    A `transaction()` block commits once at its end, and rolls back every statement of the block
    when an exception leaves it:

    >>> conn = relate.connect(":memory:")
    >>> try:
    ...     with conn.transaction():
    ...         _ = conn.execute("CREATE (:Temp)")
    ...         raise ValueError("changed my mind")
    ... except ValueError:
    ...     pass
    >>> conn.execute("MATCH (t:Temp) RETURN count(t) AS n").rows
    [(0,)]
    """

    def __init__(self, path: str = MEMORY, read_only: bool = False, *, live: bool = False,
                 policy: Policy = OPEN, clock=None, temporal_read_limit: int | None = None) -> None:
        self.path = path
        self.read_only = read_only or live or policy.read_only  # the store opens read-only
        # what statements on this connection may do (a read-only open is a read-only policy)
        self.policy = replace(policy, read_only=True) if self.read_only and not policy.read_only else policy
        self.plan_cache: dict[str, Prepared] = {}
        gc_pause.release()  # a database dropped unclosed may sit frozen after a large write
        warm_parser()  # build the parser before any statement's clock starts
        self.store = open_store(path, self.read_only, live=live)
        self.graph = self.store.graph
        self.procedures = ProcedureRegistry(builtins() + search_procedures())
        self._explicit = None  # the open transaction of a `transaction()` block
        self._explicit_ns = 0  # when it began (epoch nanoseconds)
        self._read_txn = None  # the transaction reads on the common path share while it stays clean
        # the clock of the time travel (`temporal.md`): epoch nanoseconds; tests pass a fixed one
        self.clock = clock if clock is not None else time.time_ns
        # how many versions of the history a read at a past time may look at
        self.temporal_read_limit = temporal_read_limit if temporal_read_limit is not None else (
            policy.temporal_read_limit)

    def transaction(self):
        """A context manager: the statements run inside it form one transaction, made durable
        when the block ends normally and rolled back entirely when an exception leaves it.  A
        statement that fails inside the block still undoes only its own changes."""
        return _TransactionBlock(self)

    def register_procedure(self, proc: Procedure) -> None:
        """Make `proc` callable with `CALL` on this database (plans naming it are re-planned)."""
        self.procedures.register(proc)
        self.plan_cache.clear()

    def close(self) -> None:
        self.plan_cache.clear()
        self.store.close()
        gc_pause.release()  # the graph's objects may be frozen (a large write): let them be collected

    def __enter__(self) -> "Database":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _commit(self) -> None:
        graph = self.graph
        txn = graph.txn
        notes = txn.notes
        if notes is None:
            # it only created undated records: one clock reading, and on a memory store (no redo,
            # nothing to write or fold) the history needs only the created ids' range
            if not graph.durable:
                graph.history.created(graph, self.clock())
                return
            notes = txn.notes = Notes(self.now())
        elif notes.now is None:
            notes.now = self.now()
        self.store.commit()
        graph.history.commit(graph, notes)
        self.store.settle()  # a snapshot taken now holds the transaction's versions too

    def now(self) -> int:
        """One reading of the store's clock: epoch ns, later than every committed transaction."""
        t = self.clock()
        last = self.graph.history.last_time
        return t if t > last else last + 1

    # ------------------------------------------------------------------ planning
    def prepare(self, text: str) -> Prepared:
        """Plan `text` (from the cache when the same text was planned before on this schema)."""
        self.store.refresh()  # a live reader takes in the writer's latest commits first
        return self._prepare(text)

    def _prepare(self, text: str) -> Prepared:
        """`prepare` once the store is refreshed."""
        hit = self.plan_cache.get(text)
        if hit is not None and hit.schema_version == self.graph.schema_version:
            # the cached entry itself (planning took no time); no clock is read here: a clock
            # read costs ten times more in the browser build than natively
            return hit
        t0 = time.perf_counter_ns()
        stmt = parse(text)
        t1 = time.perf_counter_ns()
        # rewrite and lowering happen inside the planner today; their clocks are kept separate
        t2 = time.perf_counter_ns()
        t3 = time.perf_counter_ns()
        analyze(stmt, catalog(self.graph, self.procedures))  # counted in plan_ms, as it always was
        plan = Planner(self.graph, self.procedures).plan(stmt)
        desc, notes = describe(plan.root)
        if stmt.profile:
            instrument(plan.root)  # this plan only ever runs as PROFILE: its text says so
        elif plan.schema is None and not stmt.explain:
            plan.pipeline = fuse(plan.root)
        t4 = time.perf_counter_ns()
        timings = Timings(lex_parse_ms=_ms(t1 - t0), rewrite_ms=_ms(t2 - t1), lower_ms=_ms(t3 - t2),
                          parse_ms=_ms(t3 - t0), plan_ms=_ms(t4 - t3))
        # the plan enters the cache once a run of it succeeds, so a refused call leaves no trace
        return Prepared(text, stmt, plan, desc, tuple(notes), "miss", timings, self.graph.schema_version, t0, t4 - t0)

    # ------------------------------------------------------------------ running
    def execute(self, text: str, parameters: dict | None = None, *, notifications: bool = False,
                timeout: float | None = None, policy: Policy | None = None,
                cancel: CancelToken | None = None, at_time: str | None = None,
                provenance: dict | None = None) -> Result:
        """Run one statement with Python values: `parameters` may hold `datetime` values,
        `timedelta`, `bytes` and tuples beside JSON's kinds, and the rows hold `datetime` values
        for Cypher's temporal ones (`run` gives the engine's own values, as the CLI and MCP see
        them).  `notifications`: report the plan's advice (as EXPLAIN would).
        `timeout`: seconds the run may take before it is stopped and rolled back.  `policy`: what
        this call may do, instead of the connection's (a read-only store stays read-only).
        `cancel`: a token that stops the run (rolled back) once another thread cancels it.
        `at_time`: ISO-8601; the statement reads the graph as of that valid time (as `AS OF`).
        `provenance`: a dict kept with the transaction's record (`transaction_record`)."""
        t0 = time.perf_counter_ns()
        self.store.refresh()  # a live reader takes in the writer's latest commits first
        result = None
        if (notifications is False and timeout is None and policy is None and cancel is None
                and at_time is None and provenance is None):
            hit = self.plan_cache.get(text)  # the common path: see lean_run.py
            if hit is not None and hit.lean and hit.schema_version == self.graph.schema_version:
                result = lean_run(self, hit, parameters, t0)
        if result is None:
            result = self.run(self._prepare(text), parameters, notifications=notifications, started=t0,
                              timeout=timeout, policy=policy, cancel=cancel, at_time=at_time, provenance=provenance)
        rows = result.rows
        if rows:
            # the Python door: temporal values become datetime's (the renderers, which `run`
            # serves, read Cypher values); the engine's rows stay in `cypher_rows`
            result.cypher_rows = rows
            result.rows = rows_to_python(rows)
        return result

    def run(self, prepared: Prepared, parameters: dict | None = None, *, notifications: bool = False,
            started: int | None = None, timeout: float | None = None, policy: Policy | None = None,
            cancel: CancelToken | None = None, at_time: str | None = None,
            provenance: dict | None = None) -> Result:
        """Run a planned statement under `policy` (default: the connection's), checked here for
        every front door: see `policy.py` for the order of the refusals.  The policy's time limit
        applies when it is shorter than `timeout`.  Python parameter values are converted as for
        `execute`; the rows hold the engine's Cypher values (what the renderers take)."""
        t0 = started if started is not None else time.perf_counter_ns()
        # The common path (a cached plan, the OPEN policy, no LOAD CSV or IN TRANSACTIONS) pays
        # one test for each group of checks: the plan and the policy record once which apply.
        if policy is None:
            policy = self.policy
        stmt = prepared.statement
        plan = prepared.plan
        if parameters:
            params = dict(parameters)
            found = scan_params(params)
            if found:
                if found & WIDE:  # Cypher integers are 64-bit; refused at every door alike
                    raise E.Usage.Usage(f"parameter {wide_int_path(params)}: {PARAMETER_RANGE}")
                if found & DEEP:  # checked before anything is built from it, at every door alike
                    raise too_deep()
                params = params_from_python(params)  # Python's own values (a date, bytes, a tuple)
        else:
            params = {}
        hit = prepared.cache != "miss"
        if hit:
            timings = Timings()  # a cache entry's own timings are all zero, and nothing was planned
            before = 0
        else:
            # planning done before this call's clock started counts in its elapsed time
            before = prepared.planning_ns if started is None or started > prepared.planned_at else 0
            pt = prepared.timings
            timings = Timings(parse_ms=pt.parse_ms, lex_parse_ms=pt.lex_parse_ms, rewrite_ms=pt.rewrite_ms,
                              lower_ms=pt.lower_ms, plan_ms=pt.plan_ms)
        notes = prepared.notifications if notifications or stmt.explain or stmt.profile else ()
        graph = self.graph
        now = valid = None
        if graph.history.due or at_time is not None or stmt.temporal is not None:
            # something becomes due later (one clock reading, one heap-top comparison), or the
            # statement reads at a past time or dates its writes
            graph, now, valid = temporal_run.begin(self, prepared, params, at_time, policy)
        if stmt.explain:
            if not hit:
                self._remember(prepared)
            t_end = time.perf_counter_ns()
            timings.elapsed_ms = _elapsed(t_end - t0 + before, timings)
            return Result(prepared.text, plan.columns, [], Stats(), notes, prepared.description, timings,
                          prepared.cache, plan.query_type, explained=True)
        plain = policy.plain  # no hop bound, --safe, memory or time limit to apply
        if not plain:
            policy.check_statement(stmt)
            limit = policy.time_limit
            if limit is not None and (timeout is None or limit < timeout):
                timeout = limit  # the policy's limit applies when it is the shorter
        if plan.parameters and not params.keys() >= plan.parameter_set:
            raise E.Parameter.ParameterMissing(names=[p for p in plan.parameters if p not in params])
        if plan.query_type != "r" and (self.read_only or policy.read_only):
            raise E.ReadOnly.ReadOnly(_STORE_READ_ONLY if self.read_only else _POLICY_READ_ONLY)
        special = plan.special
        if special and plan.loads_csv is not None:
            policy.check_load_csv(self.read_only, position(prepared.text, plan.loads_csv))
        t_exec = t0 if hit else time.perf_counter_ns()
        if timeout is None:
            ctx = ExecContext(graph, params, None, None, 0.0, cancel)
        else:
            # the timeout counts from the call: time spent parsing, checking and planning is part of it
            ctx = ExecContext(graph, params, None, timeout, (time.perf_counter_ns() - t0) / 1e9, cancel)
        if not plain and policy.expression_memory_limit is not None:
            ctx.memory = policy.budget()  # the values the run builds are measured against the limit
        if stmt.profile:
            ctx.profile = {}
        ctx.search = (self, policy)  # the search procedures' scope, made when one runs (search/scope.py)
        outer = self._explicit
        if special:
            ctx.import_dir = policy.import_dir
            if plan.in_transactions and outer is not None:
                raise E.Runtime.ImplicitTransactionRequired()
        if outer is None:
            txn = self.graph.begin()
            if special and plan.in_transactions:  # CALL { } IN TRANSACTIONS commits its batches itself
                ctx.txn = _InnerTransactions(self, txn)
        else:
            txn = outer
            mark = txn.savepoint()
        if plan.query_type != "r" and (valid is not None or outer is not None or provenance is not None
                                       or now is not None or special):
            # a dated write, a block's, provenance, a clock already read, batches sharing one time:
            # notes now (the common write gets none: `_commit` reads the clock)
            history_notes = txn.notes  # (`notes` is the plan's notifications)
            if history_notes is None:
                history_notes = txn.notes = Notes(now if now is not None else self.now())
            if valid is not None or outer is not None:
                temporal_run.date_writes(txn, history_notes, valid, outer is not None)
            if provenance is not None:
                history_notes.provenance = dict(provenance)
        # constraints are checked on what the statement wrote, when its last row is made
        checked = plan.writes_rows and bool(self.graph.constraints)
        if checked:
            self.graph.touched = {}
        # a write runs with the cyclic collector off, back on however it ends (`gc_pause.py`)
        collecting = plan.query_type != "r" and gc.isenabled()
        if collecting:
            gc.disable()
        done = False
        try:
            if plan.schema is not None:
                rows = []
                self._schema(plan.schema, ctx)
            else:
                rows = plan_rows(plan, ctx, self._explicit_ns if outer is not None else None)
                if checked:
                    constraint_check.check_written(self.graph, self.graph.touched)
            t_gen = None  # the clock is read again only when there is a commit to time
            if outer is None and txn.dirty:
                t_gen = time.perf_counter_ns()
                if txn.notes is None and not self.graph.durable:
                    # `_commit`'s common case, without its frame: undated creates in memory
                    self.graph.history.created(self.graph, self.clock())
                else:
                    self._commit()
            done = True
        except BaseException as e:
            # a failing statement leaves the graph as it found it
            if outer is None:
                txn.rollback()
            else:
                txn.rollback_to(mark)
            if getattr(e, "kind", None) == MEMORY_KIND and not hit and plan.schema is None:
                self._remember(prepared)  # as when the result is refused: the plan is good, a value was not
            if isinstance(e, RecursionError):
                # each clause's operator pulls from the one before it: a chain of hundreds of them
                # outgrows the stack while running (the checks bound expression nesting earlier)
                raise E.Runtime.PipelineTooDeep() from None
            raise
        finally:
            if checked:
                self.graph.touched = None
            if outer is None:
                self.graph.end()
            if collecting:
                if done:
                    gc_pause.after_write(ctx.stats, outer is None)
                gc.enable()
        if not hit and plan.schema is None:
            self._remember(prepared)
        t_end = time.perf_counter_ns()
        timings.execute_ms = (t_end - t_exec) / 1e6
        if t_gen is not None:
            timings.result_generation_ms = (t_end - t_gen) / 1e6
        if hit:  # t_exec is t0 and nothing was planned: elapsed is the execute figure
            timings.elapsed_ms = timings.execute_ms
        else:
            timings.elapsed_ms = _elapsed(t_end - t0 + before, timings)
        if not plain and plan.query_type == "r":
            # after the plan entered the cache: the same text with smaller values gets a hit
            policy.check_result(rows)
        if ctx.profile is not None:
            result = Result(prepared.text, plan.columns, rows, ctx.stats, notes,
                            describe(plan.root, ctx.profile)[0], timings, prepared.cache, plan.query_type,
                            profiled=True)
        else:
            result = Result(prepared.text, plan.columns, rows, ctx.stats, notes, prepared.description, timings,
                            prepared.cache, plan.query_type)
        if self.graph.history.starts and graph is self.graph:
            # values that become valid later exist: say this read shows now (a read at a past
            # time shows that time, so it does not say so)
            result.warnings = (temporal_run.VALID_NOW,)
        return result

    def _remember(self, prepared: Prepared) -> None:
        """Cache a plan that ran: later calls of the same text get this entry back as is."""
        self.plan_cache[prepared.text] = Prepared(
            prepared.text, prepared.statement, prepared.plan, prepared.description,
            prepared.notifications, "hit-raw-fastpath", Timings(), prepared.schema_version,
            lean=lean_eligible(prepared))

    def _schema(self, body, ctx: ExecContext) -> None:
        schema_commands.run(self.graph, body, ctx.params, ctx.stats)

    # ------------------------------------------------------------------ search
    def create_fulltext_index(self, label: str, property: str, *, analyzer: str | None = None,
                              name: str | None = None) -> str:
        """Declare a full-text index on (label, property) (kept up to date on every write, stored
        with the schema) -> its name.  `analyzer`: default, unicode-v2, unicode-v2+fold, ...+stem."""
        options = {"analyzer": analyzer, "name": name}
        rows = self.execute("CALL db.createFulltextIndex($label, $property, $options) YIELD name RETURN name",
                            {"label": label, "property": property, "options": options}).rows
        return rows[0][0]

    def fulltext_search(self, label: str, property: str, query: str, k: int = 10, **options) -> dict:
        """BM25 search of `label` nodes' `property` -> {hits: [{node_id, score, ...}], ..., warnings}
        (the `fulltext_search` tool's answer; options as that tool takes them)."""
        from .search.fulltext import fulltext_search
        self._current()
        return fulltext_search(self.graph, label, property, query, k, options, self.search_scope())

    def vector_search(self, label: str, property: str, vector=None, *, query_text: str | None = None,
                      k: int = 10, **options) -> dict:
        """Nearest `label` nodes by the cosine of their `property` vectors to `vector`, or to
        `query_text` embedded (exactly one of the two) -> {hits: [{node_id, score}], warnings}."""
        from .search.vectors import vector_search
        self._current()
        return vector_search(self.graph, label, property, vector, query_text, k, options, self.search_scope())

    def search_scope(self, policy: Policy | None = None):
        """What a search by a caller under `policy` (default: the connection's) may see and when
        it reads (`search/scope.py`): every search door asks here."""
        from .search.scope import Scope
        policy = self.policy if policy is None else policy
        return Scope(policy, min(self.temporal_read_limit, policy.temporal_read_limit), self.now, self.graph)

    # ------------------------------------------------------------------ time travel
    def _current(self) -> None:
        """Before a lookup outside a statement: the writer's latest commits, what became due."""
        self.store.refresh()
        history = self.graph.history
        if history.due:
            now = self.now()
            if history.next_due <= now:
                history.apply_due(self.graph, now)

    def node_by_str_id(self, str_id: str):
        """The node whose string id (`elementId()`) is `str_id`, as valid now; None when there is none."""
        self._current()
        n = str_ids.parse(str_id, "n")
        return None if n is None else self.graph.nodes.get(n)

    def relationship_by_str_id(self, str_id: str):
        """The relationship whose string id is `str_id`, as valid now; None when there is none."""
        self._current()
        n = str_ids.parse(str_id, "r")
        return None if n is None else self.graph.rels.get(n)

    def span(self, entity) -> Span | None:
        """The existence span of `entity` (a node or relationship of a result): when its version
        valid now became valid and when it was recorded; None when it is not valid now."""
        self._current()
        got = self.graph.history.span(entity, self.now())
        return None if got is None else Span(*got)

    def transaction_record(self, seq: int) -> dict | None:
        """The record of committed transaction `seq` (1, 2, ... in commit order on this store):
        {seq, txnTime, txnTimeNanos, validTime, validTimeNanos, provenance}; None when unknown."""
        rec = self.graph.history.txns.get(seq)
        return None if rec is None else rec.as_dict()

    @property
    def last_transaction(self) -> int:
        """The number of the last committed transaction (0 before any)."""
        return self.graph.history.seq

    # ------------------------------------------------------------------ schema
    def schema(self, sample_size: int = 1000) -> dict:
        """Labels with exact counts, property types and outgoing relationship types (sampled)."""
        from .schema import infer_schema
        self.store.refresh()
        return infer_schema(self.graph, sample_size)


def connect(path: str = MEMORY, read_only: bool = False, *, live: bool = False, policy: Policy = OPEN,
            import_dir: str | None = None, clock=None, temporal_read_limit: int | None = None) -> Database:
    """Open a store: `:memory:`, a `.rl` file, or a directory (`live`: a read-only open of a
    directory store that follows its writer's commits).  `policy`: what its statements may do.
    `import_dir`: the folder LOAD CSV may read (`file:///x.csv` is DIR/x.csv); without one LOAD CSV
    is refused, and it is refused on a read-only connection whatever the folder.  `clock`: a callable
    giving epoch nanoseconds, the time writes are recorded at (default `time.time_ns`).
    `temporal_read_limit`: the versions of history a read at a past time may look at."""
    if import_dir is not None:
        policy = replace(policy, import_dir=import_folder(import_dir))
    return Database(path, read_only=read_only, live=live, policy=policy, clock=clock,
                    temporal_read_limit=temporal_read_limit)


def import_folder(path) -> str:
    """The absolute path of an existing folder LOAD CSV may read, or a usage error."""
    import os
    text = os.fspath(path)
    if not isinstance(text, str) or not text or "\x00" in text or not os.path.isdir(text):
        raise E.Usage.Usage(f"the import folder is not a directory: {text!r}")
    return os.path.abspath(text)
