"""One Bolt 5.x connection's protocol core: request messages in -> response messages out.

Sans-I/O: the transport (`net/bolt.py`, TCP or WebSocket) negotiates the version
(`bolt_framing.py`), splits the byte stream into messages and sends back what `handle` returns;
this class keeps the connection's state and runs statements through the shared `Transactions`
(one engine for every front door), each call under the transport's engine lock.

States: NEGOTIATION -HELLO-> AUTHENTICATION (5.1+; 5.0 authenticates in HELLO) -LOGON-> READY;
READY -RUN-> STREAMING (auto-commit) -PULL/DISCARD...-> READY; READY -BEGIN-> TX_READY -RUN->
TX_STREAMING -PULL/DISCARD-> TX_READY -COMMIT/ROLLBACK-> READY.  Any failure -> FAILED, where
everything but RESET and GOODBYE is IGNORED; RESET rolls back and returns to READY.  A wrong
credential, a message in the wrong state or bytes that do not decode get a FAILURE and the
connection is closed (`closed`).

Statements: RUN plans the statement (compile errors, missing parameters and refused writes fail
the RUN); the first PULL or DISCARD of its stream runs it (runtime errors fail that message); a
new RUN in a transaction first runs the streams still waiting, so statements take effect in the
order they were sent.  An auto-commit statement commits when it runs; its final summary carries
the bookmark.

Stopping a statement: the transport reads the connection while a message is handled and hands
each message's run a `CancelToken` (`token`).  A RESET seen on the wire calls `interrupt` at once:
the running statement is cancelled and every message before that RESET is IGNORED (as Neo4j's
INTERRUPTED state does), then the RESET rolls back and returns to READY.  A client gone
(`hang_up`) cancels the running statement; `close` then rolls its transaction back.
"""
from __future__ import annotations

import logging
import time
from contextlib import nullcontext
from typing import Callable, ContextManager

from ..errors import E, RelateError
from ..result import Result
from ..transactions import Transactions, Tx
from ..database import Prepared
from . import bolt_messages as M
from .bolt_values import from_bolt, to_bolt
from .neo4j_codes import code_of, failure_message
from .query_api import PING

SERVER_AGENT = "Neo4j/5.26.0"  # 5.x drivers refuse a server whose agent does not start with Neo4j/
DATABASE = "neo4j"
DATABASES = (None, "", DATABASE, "system")
ROUTING_TTL = 300

log = logging.getLogger("relate.bolt")


class _Stream:
    __slots__ = ("prepared", "params", "result", "pos", "qid", "auto", "read_only", "notes")

    def __init__(self, prepared: Prepared | None, params: dict, qid: int, auto: bool, read_only: bool,
                 notes: bool):
        self.prepared = prepared
        self.params = params
        self.result: Result | None = None
        self.pos = 0
        self.qid = qid
        self.auto = auto
        self.read_only = read_only
        self.notes = notes


class BoltSession:
    def __init__(self, txs: Transactions, version: tuple[int, int], *,
                 authenticate: Callable[[dict], bool], address: str = "localhost:7687",
                 connection_id: str = "bolt-0", lock: Callable[[], ContextManager] = nullcontext) -> None:
        self.txs = txs
        self.version = version
        self._authenticate = authenticate
        self.address = address
        self.connection_id = connection_id
        self.lock = lock
        self.state = "NEGOTIATION"
        self.closed = False
        self.authenticated = False
        self.auth_failed = False
        self.tx: Tx | None = None
        self.streams: list[_Stream] = []
        self._qid = 0
        self.notifications = True  # notifications_minimum_severity "OFF" turns them off
        self.token = None  # the `CancelToken` of the message being handled (set by the transport)
        # RESETs the reader has seen / this side has handled: each counter is written by one thread
        self._resets_seen = 0
        self._resets_done = 0

    # ------------------------------------------------------------------ entry points
    def handle(self, data: bytes) -> list[bytes]:
        """One message's bytes -> the messages to send back (none after GOODBYE)."""
        if self.closed:
            return []
        try:
            req = M.request(data)
        except RelateError as e:
            return self._fatal(e)
        if req.name == "RESET":
            self._resets_done += 1
        elif (self._resets_seen > self._resets_done and req.name != "GOODBYE"
              and self.state not in ("NEGOTIATION", "AUTHENTICATION")):
            self.state = "FAILED"
            self.streams.clear()
            return [M.ignored()]  # sent before a RESET that has arrived since
        if self.state == "FAILED" and req.name not in ("RESET", "GOODBYE"):
            return [M.ignored()]
        handler = getattr(self, "_" + req.name.lower())
        try:
            return handler(*req.fields)
        except _Violation as v:
            return self._fatal(E.Request.Invalid(str(v)))
        except Exception as e:  # a statement's failure, or a bug: FAILURE and the FAILED state
            if self._resets_seen > self._resets_done:
                self.state = "FAILED"
                self.streams.clear()
                return [M.ignored()]  # stopped by a RESET on its way
            return self._fail(e)

    def interrupt(self) -> None:
        """A RESET has arrived (called by the transport's reader, on its thread): stop the running
        statement; the messages before the RESET are IGNORED."""
        self._resets_seen += 1
        token = self.token
        if token is not None:
            token.cancel(E.Cancelled.Reset)

    def hang_up(self, reason) -> None:
        """The client is gone or the server stops (`reason`, a `Cancelled` kind): stop the running
        statement (called by the transport's reader, on its thread)."""
        token = self.token
        if token is not None:
            token.cancel(reason)

    def close(self) -> None:
        """The connection is gone: an open transaction is rolled back."""
        self.closed = True
        self.streams.clear()
        if self.tx is not None:
            tx, self.tx = self.tx, None
            with self.lock():
                self.txs.rollback(tx)

    # ------------------------------------------------------------------ failures
    def _fail(self, error: BaseException) -> list[bytes]:
        if not isinstance(error, RelateError) or error.internal:
            log.error("bolt %s: internal error", self.connection_id, exc_info=error)
        self.state = "FAILED"
        self.streams.clear()
        return [M.failure(code_of(error), failure_message(error))]

    def _fatal(self, error: BaseException) -> list[bytes]:
        """A failure after which the connection closes (protocol violations, bad credentials)."""
        out = self._fail(error)
        self.close()
        return out

    def _need(self, *states: str) -> None:
        if self.state not in states:
            raise _Violation(f"the message is not allowed in state {self.state}")

    # ------------------------------------------------------------------ connection
    def _hello(self, extra: dict) -> list[bytes]:
        self._need("NEGOTIATION")
        routing = extra.get("routing")
        if isinstance(routing, dict) and isinstance(routing.get("address"), str):
            self.address = routing["address"]
        self._filters(extra)
        meta = {"server": SERVER_AGENT, "connection_id": self.connection_id}
        if self.version < (5, 1):
            if not self._logon_ok(extra):
                return self._fatal(E.Auth.Unauthorized())
            self.state = "READY"
        else:
            self.state = "AUTHENTICATION"
        return [M.success(meta)]

    def _logon(self, auth: dict) -> list[bytes]:
        if self.version < (5, 1):
            raise _Violation("LOGON needs Bolt 5.1 or later")
        self._need("AUTHENTICATION")
        if not self._logon_ok(auth):
            return self._fatal(E.Auth.Unauthorized())
        self.state = "READY"
        return [M.success()]

    def _logon_ok(self, auth: dict) -> bool:
        ok = self._authenticate(auth)
        self.authenticated = ok
        self.auth_failed = not ok
        return ok

    def _logoff(self) -> list[bytes]:
        if self.version < (5, 1):
            raise _Violation("LOGOFF needs Bolt 5.1 or later")
        self._need("READY")
        self.state = "AUTHENTICATION"
        self.authenticated = False
        return [M.success()]

    def _telemetry(self, api: int) -> list[bytes]:
        self._need("READY", "TX_READY")
        return [M.success()]

    def _goodbye(self) -> list[bytes]:
        self.close()
        return []

    def _reset(self) -> list[bytes]:
        if self.state in ("NEGOTIATION", "AUTHENTICATION"):
            return [M.success()]
        self.streams.clear()
        if self.tx is not None:
            tx, self.tx = self.tx, None
            with self.lock():
                self.txs.rollback(tx)
        self.state = "READY"
        return [M.success()]

    def _route(self, routing: dict, bookmarks: list, extra) -> list[bytes]:
        self._need("READY")
        db = extra.get("db") if isinstance(extra, dict) else extra
        self._database(db)
        address = routing.get("address") if isinstance(routing.get("address"), str) else self.address
        servers = [{"addresses": [address], "role": role} for role in ("ROUTE", "READ", "WRITE")]
        return [M.success({"rt": {"ttl": ROUTING_TTL, "db": DATABASE, "servers": servers}})]

    def _filters(self, extra: dict) -> None:
        severity = extra.get("notifications_minimum_severity")
        if severity is not None:
            self.notifications = severity != "OFF"

    @staticmethod
    def _database(db) -> None:
        if db not in DATABASES:
            raise E.Request.DatabaseNotFound(name=db if isinstance(db, str) else repr(db))

    # ------------------------------------------------------------------ transactions
    def _begin(self, extra: dict) -> list[bytes]:
        self._need("READY")
        self._database(extra.get("db"))
        self._filters(extra)
        with self.lock():
            self.tx = self.txs.begin(read_only=extra.get("mode") == "r")
        self.state = "TX_READY"
        return [M.success()]

    def _commit(self) -> list[bytes]:
        self._need("TX_READY", "TX_STREAMING")
        tx = self.tx
        assert tx is not None
        with self.lock():
            self._run_waiting()
            self.streams.clear()
            self.tx = None
            bookmark = self.txs.commit(tx)
        self.state = "READY"
        return [M.success({"bookmark": bookmark})]

    def _rollback(self) -> list[bytes]:
        self._need("TX_READY", "TX_STREAMING")
        tx, self.tx = self.tx, None
        self.streams.clear()
        if tx is not None:
            with self.lock():
                self.txs.rollback(tx)
        self.state = "READY"
        return [M.success()]

    # ------------------------------------------------------------------ statements
    def _run(self, query: str, parameters: dict, extra: dict) -> list[bytes]:
        self._need("READY", "TX_READY", "TX_STREAMING")
        started = time.perf_counter_ns()
        auto = self.state == "READY"
        if auto:
            self._database(extra.get("db"))
            self._filters(extra)
            if extra.get("db") == "system" and query.strip().rstrip(";").strip() == PING:
                return self._ping()
        params = {k: from_bolt(v) for k, v in parameters.items()}
        read_only = auto and extra.get("mode") == "r"
        with self.lock():
            if not auto:
                self._run_waiting()
            prepared = self.txs.prepare(self.tx, query)
        plan = prepared.plan
        missing = [p for p in plan.parameters if p not in params]
        if missing and not prepared.statement.explain:
            raise E.Parameter.ParameterMissing(names=missing)
        if plan.query_type != "r" and not prepared.statement.explain:
            if read_only or (self.tx is not None and self.tx.read_only):
                raise E.Transaction.AccessMode()
        stream = _Stream(prepared, params, self._qid, auto, read_only, self.notifications)
        meta = {"fields": list(plan.columns), "t_first": (time.perf_counter_ns() - started) // 1_000_000}
        if not auto:
            meta["qid"] = stream.qid
            self._qid += 1
            self.state = "TX_STREAMING"
        else:
            self.state = "STREAMING"
        self.streams.append(stream)
        return [M.success(meta)]

    def _ping(self) -> list[bytes]:
        """`CALL db.ping()` on `system`, a driver's connectivity probe: one row `success: true`,
        answered here (no procedure of that name exists), as the Query API answers it."""
        stream = _Stream(None, {}, self._qid, True, True, False)
        stream.result = Result(PING, ("success",), [(True,)])
        self.streams.append(stream)
        self.state = "STREAMING"
        return [M.success({"fields": ["success"], "t_first": 0})]

    def _run_waiting(self) -> None:
        """Run the transaction's streams that no PULL or DISCARD has reached yet (lock held)."""
        for s in self.streams:
            if s.result is None:
                assert s.prepared is not None  # only a ping has none, and it comes with its result
                s.result = self.txs.execute(self.tx, s.prepared, s.params, notifications=s.notes,
                                            cancel=self.token)

    def _pull(self, extra: dict) -> list[bytes]:
        return self._stream(extra, keep=True)

    def _discard(self, extra: dict) -> list[bytes]:
        return self._stream(extra, keep=False)

    def _stream(self, extra: dict, keep: bool) -> list[bytes]:
        self._need("STREAMING", "TX_STREAMING")
        n, qid = extra.get("n", -1), extra.get("qid", -1)
        if not isinstance(n, int) or isinstance(n, bool) or not (n == -1 or n > 0):
            raise _Violation("PULL and DISCARD take n > 0, or -1 for all")
        stream = self._find(qid)
        if stream.result is None:
            assert stream.prepared is not None
            with self.lock():
                tx = None if stream.auto else self.tx
                stream.result = self.txs.execute(tx, stream.prepared, stream.params, read_only=stream.read_only,
                                                 notifications=stream.notes, cancel=self.token)
        result = stream.result
        rows = result.rows
        end = len(rows) if n == -1 or not keep else min(len(rows), stream.pos + n)
        out = [M.record([to_bolt(v) for v in row]) for row in rows[stream.pos:end]] if keep else []
        stream.pos = end
        if end < len(rows):
            return out + [M.success({"has_more": True})]
        self.streams.remove(stream)
        out.append(M.success(self._summary(stream, result)))
        if stream.auto:
            self.state = "READY"
        elif not self.streams:
            self.state = "TX_READY"
        return out

    def _find(self, qid) -> _Stream:
        if not isinstance(qid, int) or isinstance(qid, bool):
            raise _Violation("qid must be an integer")
        if qid == -1:
            return self.streams[-1]
        for s in self.streams:
            if s.qid == qid:
                return s
        raise _Violation(f"no open result has qid {qid}")

    def _summary(self, stream: _Stream, result: Result) -> dict:
        meta: dict = {"type": result.query_type, "t_last": int(result.timings.execute_ms), "db": DATABASE}
        stats = {k.replace("_", "-"): v for k, v in result.stats.as_dict().items() if v}
        if stats:
            meta["stats"] = stats
        if stream.auto:
            meta["bookmark"] = self.txs.bookmark()
        if result.notifications and stream.notes:
            meta["notifications"] = [_notification(n) for n in result.notifications]
        stmt = stream.prepared.statement if stream.prepared is not None else None
        if stmt is not None and result.plan is not None and (stmt.explain or stmt.profile):
            meta["profile" if stmt.profile else "plan"] = _plan(result.plan, profiled=stmt.profile,
                                                               rows=len(result.rows))
        return meta


class _Violation(Exception):
    """A message the connection's state does not allow: FAILURE, then the connection closes."""


def _notification(n) -> dict:
    return {"code": n.code, "title": n.title, "description": n.description, "severity": n.severity,
            "category": n.category}


def _plan(root, *, profiled: bool, rows: int) -> dict:
    """A plan description -> the `plan` / `profile` map of a summary (iterative: plans can be deep)."""
    out: dict = {}
    stack = [(root, out)]
    while stack:
        node, into = stack.pop()
        children: list[dict] = [{} for _ in node.children]
        into.update({"operatorType": node.operator, "args": {"Details": node.details},
                     "identifiers": list(node.identifiers), "children": children})
        if profiled:
            into.update({"dbHits": 0, "rows": rows if into is out else 0, "pageCacheHits": 0,
                         "pageCacheMisses": 0, "time": 0})
        stack.extend(zip(node.children, children))
    return out
