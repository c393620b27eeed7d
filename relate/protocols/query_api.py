"""Neo4j's HTTP Query API v2, sans-I/O: (method, path, body, content types) -> (status, JSON body).

The transport (`net/query_http.py`, on the project's h11 layer) checks the credential and the
origin, reads the body and sends back what `handle` returns; this class routes the request, runs
its statement through the shared `Transactions` (one engine and one writer for every front door)
under the transport's engine lock, and shapes the answer:

  GET    /                                  discovery (no credential needed)
  POST   /db/{db}/query/v2                  one statement, auto-commit
  POST   /db/{db}/query/v2/tx               begin (optionally with a first statement)
  POST   /db/{db}/query/v2/tx/{id}          a statement in the transaction (none: keep it alive)
  POST   /db/{db}/query/v2/tx/{id}/commit   commit (optionally after a last statement)
  DELETE /db/{db}/query/v2/tx/{id}          roll back

Success is 202 with `{data: {fields, values}, counters?, bookmarks, notifications?, queryType,
transaction?}`; every failure is `{"errors": [{"code", "message"}]}` with the status its code
calls for (400 client errors, 401 credentials, 404 unknown database / transaction / path, 405, 409
for a retryable conflict, 415 a content type that is not JSON, 500 internal).  A failure inside
an explicit transaction rolls it back (its answer has no `transaction`).  Values are plain or
typed JSON (`query_api_values.py`) as the request's `Content-Type` and `Accept` ask.

Transactions are found by an opaque string id and live `tx_timeout` seconds after their last
request; `expire` (called by the transport on a timer and before each request) rolls back the
ones whose time is up, so an abandoned transaction never holds the write role for long.
"""
from __future__ import annotations

import datetime as dt
import json
import secrets
import time
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Callable, ContextManager
from urllib.parse import unquote

from ..errors import E, RelateError
from ..jsonenc import escape_lone_surrogates
from ..result import Result
from ..values.depth import MAX_DEPTH, json_too_deep
from ..transactions import Transactions, Tx
from .neo4j_codes import code_of, failure_message
from .query_api_values import from_typed, plain, typed

NEO4J_VERSION = "5.26.0"
DATABASE = "neo4j"
DATABASES = ("", DATABASE, "system")
DEFAULT_TX_TIMEOUT = 60.0
TYPED = "application/vnd.neo4j.query"
PLAIN = "application/json"
COUNTER_KEYS = ("containsUpdates", "nodesCreated", "nodesDeleted", "propertiesSet", "relationshipsCreated",
                "relationshipsDeleted", "labelsAdded", "labelsRemoved", "indexesAdded", "indexesRemoved",
                "constraintsAdded", "constraintsRemoved", "containsSystemUpdates", "systemUpdates")
_STATS = {"nodesCreated": "nodes_created", "nodesDeleted": "nodes_deleted", "propertiesSet": "properties_set",
          "relationshipsCreated": "relationships_created", "relationshipsDeleted": "relationships_deleted",
          "labelsAdded": "labels_added", "labelsRemoved": "labels_removed", "indexesAdded": "indexes_added",
          "indexesRemoved": "indexes_removed", "constraintsAdded": "constraints_added",
          "constraintsRemoved": "constraints_removed"}
PING = "CALL db.ping()"  # the driver's connectivity probe (against `system`)


@dataclass(frozen=True, slots=True)
class Reply:
    status: int
    body: dict
    typed: bool = False  # answer in typed JSON

    @property
    def content_type(self) -> str:
        return TYPED if self.typed else PLAIN

    def encode(self) -> bytes:
        text = json.dumps(self.body, ensure_ascii=False, separators=(",", ":"))
        return escape_lone_surrogates(text).encode("utf-8")  # a Cypher string may hold a lone surrogate


def error_body(code: str, message: str) -> dict:
    return {"errors": [{"code": code, "message": message}]}


def status_of(code: str) -> int:
    """The HTTP status for a Neo4j code."""
    if code == "Neo.ClientError.Security.Unauthorized":
        return 401
    if code == "Neo.ClientError.Database.DatabaseNotFound":
        return 404
    if code.startswith("Neo.TransientError."):
        return 409
    if code.startswith("Neo.ClientError."):
        return 400
    return 500


def failure(error: BaseException, typed_: bool = False) -> Reply:
    code = code_of(error)
    status = 404 if getattr(error, "kind", None) == "TransactionNotFound" else status_of(code)
    return Reply(status, error_body(code, failure_message(error)), typed_)


def media(value: bytes | str | None) -> str:
    """`application/vnd.neo4j.query.v1.0; charset=utf-8` -> `application/vnd.neo4j.query`; '' for none."""
    if value is None:
        return ""
    text = value.decode("latin-1") if isinstance(value, bytes) else value
    m = text.split(";", 1)[0].strip().lower()
    if m.startswith(TYPED + ".v1"):
        return TYPED
    return m


def wants_typed(accept: bytes | str | None) -> bool:
    """Does an `Accept` header ask for typed JSON (before plain, when it lists both)?"""
    if accept is None:
        return False
    text = accept.decode("latin-1") if isinstance(accept, bytes) else accept
    for part in text.split(","):
        m = media(part)
        if m == TYPED:
            return True
        if m in (PLAIN, "*/*", "application/*"):
            return False
    return False


def accepts_json(accept: bytes | str | None) -> bool:
    if accept is None:
        return True
    text = accept.decode("latin-1") if isinstance(accept, bytes) else accept
    return any(media(p) in (TYPED, PLAIN, "*/*", "application/*", "") for p in text.split(","))


class _Open:
    __slots__ = ("tx", "deadline", "expires")

    def __init__(self, tx: Tx, deadline: float, expires: str) -> None:
        self.tx = tx
        self.deadline = deadline
        self.expires = expires


class QueryApi:
    def __init__(self, txs: Transactions, *, lock: Callable[[], ContextManager] = nullcontext,
                 tx_timeout: float = DEFAULT_TX_TIMEOUT, discovery: dict | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.txs = txs
        self.lock = lock
        self.tx_timeout = tx_timeout
        self.discovery = {"neo4j_version": NEO4J_VERSION, "neo4j_edition": "community", **(discovery or {})}
        self.clock = clock
        self.open: dict[str, _Open] = {}

    # ------------------------------------------------------------------ entry point
    def handle(self, method: str, path: str, body: bytes = b"", *, content_type: bytes | str | None = None,
               accept: bytes | str | None = None, cancel=None) -> Reply:
        """`cancel`: a `CancelToken` the transport cancels when its client hangs up."""
        out_typed = wants_typed(accept)
        try:
            return self._route(method, path, body, media(content_type), out_typed, cancel)
        except RelateError as e:
            return failure(e, out_typed)

    def expire(self) -> int:
        """Roll back the transactions whose idle time is up -> how many (engine lock held by the caller)."""
        now = self.clock()
        gone = [key for key, o in self.open.items() if o.deadline <= now]
        for key in gone:
            self.txs.rollback(self.open.pop(key).tx)
        return len(gone)

    def close(self) -> None:
        """The server stops: every open transaction is rolled back."""
        with self.lock():
            for o in self.open.values():
                self.txs.rollback(o.tx)
            self.open.clear()

    # ------------------------------------------------------------------ routing
    def _route(self, method: str, path: str, body: bytes, ctype: str, out_typed: bool, cancel=None) -> Reply:
        path = path.split("?", 1)[0]
        if path in ("/", ""):
            if method not in ("GET", "HEAD"):
                raise E.Request.Invalid(f"{method} / is not supported: discovery is GET /")
            return Reply(200, dict(self.discovery))
        parts = path.split("/")
        # ['', 'db', DB, 'query', 'v2', ('tx', (ID, ('commit')))]
        if len(parts) < 5 or parts[1] != "db" or parts[3:5] != ["query", "v2"] or len(parts) > 8:
            return _not_found(path)
        db = unquote(parts[2])
        rest = parts[5:]
        if rest and rest[0] != "tx" or len(rest) == 3 and rest[2] != "commit" or len(rest) >= 2 and not rest[1]:
            return _not_found(path)
        allowed = ("POST", "DELETE") if len(rest) == 2 else ("POST",)
        if method not in allowed:
            return Reply(405, error_body("Neo.ClientError.Request.Invalid",
                                         f"{method} is not allowed on {path}; use {' or '.join(allowed)}"), out_typed)
        if db not in DATABASES:
            raise E.Request.DatabaseNotFound(name=db)
        if method == "DELETE":
            return self._rollback(rest[1], out_typed)
        request = self._body(body, ctype, required=not rest)
        in_typed = ctype == TYPED
        if not rest:
            return self._implicit(db, request, in_typed, out_typed, cancel)
        if len(rest) == 1:
            return self._begin(request, in_typed, out_typed, cancel)
        if len(rest) == 2:
            return self._in_tx(rest[1], request, in_typed, out_typed, cancel)
        return self._commit(rest[1], request, in_typed, out_typed, cancel)

    def _body(self, body: bytes, ctype: str, required: bool) -> dict:
        if ctype not in (PLAIN, TYPED, "") and body.strip():
            raise E.Request.InvalidFormat(f"unsupported Content-Type {ctype!r}: send {PLAIN} or {TYPED}")
        if not body.strip():
            if required:
                raise E.Request.Invalid('the request needs a JSON body with a "statement"')
            return {}
        if json_too_deep(body, MAX_DEPTH + 2):  # the body and its parameter map add two levels
            raise E.Request.InvalidFormat("the body is not JSON: nested too deeply")
        try:
            request = json.loads(body.decode("utf-8"))
        except UnicodeDecodeError as e:
            raise E.Request.InvalidFormat(f"the body is not UTF-8 (byte {e.start})") from None
        except json.JSONDecodeError as e:
            where = f"line {e.lineno} column {e.colno}"
            raise E.Request.InvalidFormat(f"the body is not JSON: {e.msg} at {where}") from None
        except RecursionError:
            raise E.Request.InvalidFormat("the body is not JSON: nested too deeply") from None
        if not isinstance(request, dict):
            raise E.Request.Invalid("the body must be a JSON object")
        if required and "statement" not in request:
            raise E.Request.Invalid('the request needs a "statement"')
        return request

    # ------------------------------------------------------------------ requests
    def _implicit(self, db: str, req: dict, in_typed: bool, out_typed: bool, cancel=None) -> Reply:
        statement, params, counters = _statement(req, in_typed)
        read = _access_read(req)
        if db == "system" and statement.strip().rstrip(";").strip() == PING:
            return Reply(202, _shaped(["success"], [[True]], out_typed) | {"bookmarks": [self.txs.bookmark()]},
                         out_typed)
        with self.lock():
            self.expire()
            prepared = self.txs.prepare(None, statement)
            result = self.txs.execute(None, prepared, params, read_only=read, cancel=cancel)
            body = self._result(result, counters, out_typed)
            body["bookmarks"] = [self.txs.bookmark()]
        return Reply(202, body, out_typed)

    def _begin(self, req: dict, in_typed: bool, out_typed: bool, cancel=None) -> Reply:
        with self.lock():
            self.expire()
            tx = self.txs.begin(read_only=_access_read(req))
            key = secrets.token_urlsafe(12)
            opened = _Open(tx, 0.0, "")
            self.open[key] = opened
            body: dict = {}
            if req.get("statement"):
                body = self._run_in(key, opened, req, in_typed, out_typed, cancel)
            body["transaction"] = self._touch(key, opened)
        return Reply(202, body, out_typed)

    def _in_tx(self, key: str, req: dict, in_typed: bool, out_typed: bool, cancel=None) -> Reply:
        with self.lock():
            self.expire()
            opened = self._find(key)
            body: dict = {}
            if req.get("statement"):
                body = self._run_in(key, opened, req, in_typed, out_typed, cancel)
            body["transaction"] = self._touch(key, opened)
        return Reply(202, body, out_typed)

    def _commit(self, key: str, req: dict, in_typed: bool, out_typed: bool, cancel=None) -> Reply:
        with self.lock():
            self.expire()
            opened = self._find(key)
            body: dict = {}
            if req.get("statement"):
                body = self._run_in(key, opened, req, in_typed, out_typed, cancel)
            del self.open[key]
            try:
                bookmark = self.txs.commit(opened.tx)
            except BaseException:
                self.txs.rollback(opened.tx)
                raise
            body["bookmarks"] = [bookmark]
        return Reply(202, body, out_typed)

    def _rollback(self, key: str, out_typed: bool) -> Reply:
        with self.lock():
            self.expire()
            opened = self._find(key)
            del self.open[key]
            self.txs.rollback(opened.tx)
        return Reply(202, {}, out_typed)

    # ------------------------------------------------------------------ helpers (engine lock held)
    def _find(self, key: str) -> _Open:
        opened = self.open.get(key)
        if opened is None:
            raise E.Request.TransactionNotFound(id=key)
        return opened

    def _touch(self, key: str, opened: _Open) -> dict:
        opened.deadline = self.clock() + self.tx_timeout
        when = dt.datetime.now(dt.timezone.utc) + dt.timedelta(seconds=self.tx_timeout)
        opened.expires = when.strftime("%Y-%m-%dT%H:%M:%SZ")
        return {"id": key, "expires": opened.expires}

    def _run_in(self, key: str, opened: _Open, req: dict, in_typed: bool, out_typed: bool, cancel=None) -> dict:
        """A statement in an open transaction; a failure rolls the transaction back."""
        try:
            statement, params, counters = _statement(req, in_typed)
            prepared = self.txs.prepare(opened.tx, statement)
            result = self.txs.execute(opened.tx, prepared, params, cancel=cancel)
        except BaseException:
            self.open.pop(key, None)
            self.txs.rollback(opened.tx)
            raise
        return self._result(result, counters, out_typed)

    def _result(self, result: Result, counters: bool, out_typed: bool) -> dict:
        body = _shaped(list(result.columns), result.rows, out_typed)
        if counters:
            stats = result.stats
            c: dict = {"containsUpdates": stats.contains_updates}
            for key in COUNTER_KEYS[1:12]:
                c[key] = getattr(stats, _STATS[key])
            c["containsSystemUpdates"] = False
            c["systemUpdates"] = 0
            body["counters"] = c
        if result.notifications:
            body["notifications"] = [{"code": n.code, "title": n.title, "description": n.description,
                                      "severity": n.severity, "category": n.category}
                                     for n in result.notifications]
        body["queryType"] = result.query_type
        return body


def _not_found(path: str) -> Reply:
    return Reply(404, error_body("Neo.ClientError.Request.Invalid", f"no Query API endpoint at {path}"))


def _shaped(fields: list, rows, out_typed: bool) -> dict:
    enc = typed if out_typed else plain
    return {"data": {"fields": fields, "values": [[enc(v) for v in row] for row in rows]}}


def _access_read(req: dict) -> bool:
    mode = req.get("accessMode")
    if mode is None:
        return False
    if not isinstance(mode, str) or mode.lower() not in ("read", "write"):
        raise E.Request.Invalid('"accessMode" takes "Read" or "Write"')
    return mode.lower() == "read"


def _statement(req: dict, in_typed: bool) -> tuple[str, dict, bool]:
    statement = req.get("statement")
    if not isinstance(statement, str):
        raise E.Request.Invalid('"statement" must be a string')
    params = req.get("parameters")
    if params is None:
        params = {}
    elif not isinstance(params, dict):
        raise E.Request.Invalid('"parameters" must be a JSON object')
    elif in_typed:
        params = {k: from_typed(v) for k, v in params.items()}
    counters = req.get("includeCounters", req.get("includeQueryStatistics", False))
    if not isinstance(counters, bool):
        raise E.Request.Invalid('"includeCounters" takes true or false')
    return statement, params, counters
