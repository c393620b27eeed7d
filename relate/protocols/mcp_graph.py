"""The `graph` group's tool calls: (tool name, arguments) -> the JSON payload of the tool result.

Refusals of this group are JSON-RPC errors (`RpcError`), as the 1.4 tool line has them, not
`isError` results: -32602 for an argument the tool cannot take or a statement that does not
compile (missing parameters, a write on a read-only server, a reused idempotency key), -32603 for a
statement that fails while it runs (and, with the message `internal error` only, for a failure of
the engine itself, logged to `relate.mcp`), -32000 for a call stopped or timed out, or sent again
while its first run was in flight.  `data.kind` names the engine's error kind; `data.subcode`
carries the line's own codes (IDEMPOTENCY_KEY_REUSED, IDEMPOTENCY_KEY_IN_PROGRESS,
TOO_MANY_NEW_LABELS).

The caller (`Caller`): relate has one credential per server.  A caller that presented it (HTTP
Basic) is subject = its user name with the role `admin`; the stdio and browser doors, whose only
peer is the program that started the server, are subject `local`, also `admin`; an HTTP server
run with `--auth none` serves an anonymous caller (subject null, no roles), to whom graph_dir is
not shown.  There are no tenants yet: tenant is always null.
"""
from __future__ import annotations

import logging
import os
from dataclasses import dataclass

from ..database import Database
from ..errors import RelateError
from ..errors.tree import ParameterMissingError, ReadOnlyError, StatementCancelled, StatementTimeout, UsageError
from ..exec.context import CancelToken
from ..policy import Policy
from ..storage.base import MEMORY
from .cells import FORMATS, plain
from .graph_tools import CYPHER_QUERY, GET_NODE, GET_RELATIONSHIP, LIST_GRAPHS, LIST_INDEXES, SUMMARY, WHOAMI
from .idempotency import MAX_KEY, KeyRefused, Replays, fingerprint
from .label_limit import MAX_NEW_LABELS, new_labels
from .label_limit import SUBCODE as LABEL_SUBCODE

log = logging.getLogger("relate.mcp")

INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
SERVER_ERROR = -32000
_PROVENANCE_TEXT = ("actor", "source", "reason", "requestId")
_BAD_INPUT = frozenset({"InvalidTemporalPrefix"})  # runtime kinds that mean an argument was wrong (atTime)


class RpcError(Exception):
    """A tool call answered with a JSON-RPC error."""

    def __init__(self, code: int, message: str, data: dict | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data


@dataclass(frozen=True)
class Caller:
    """Who calls the tools of one server (see the module docstring)."""

    subject: str | None = "local"
    roles: tuple[str, ...] = ("admin",)
    tenant: str | None = None

    @property
    def admin(self) -> bool:
        return "admin" in self.roles


LOCAL = Caller()
ANONYMOUS = Caller(None, ())


def bad(detail: str) -> RpcError:
    return RpcError(INVALID_PARAMS, f"Invalid params: {detail}")


def graph_name(path: str) -> str:
    """The name a store goes by: its file or folder name without `.rl`; `memory` in memory."""
    if path == MEMORY:
        return "memory"
    base = os.path.basename(os.path.normpath(path))
    return base[:-3] if base.endswith(".rl") and len(base) > 3 else base


class GraphTools:
    """The graph group's handlers over one database, under one server's policy."""

    def __init__(self, db: Database, policy: Policy, caller: Caller = LOCAL) -> None:
        self.db = db
        self.policy = policy
        self.caller = caller
        self.replays = Replays()
        self.handlers = {CYPHER_QUERY: self.cypher_query, GET_NODE: self.get_node, GET_RELATIONSHIP: self.get_rel,
                         SUMMARY: self.summary, LIST_INDEXES: self.list_indexes, LIST_GRAPHS: self.list_graphs,
                         WHOAMI: self.whoami}

    def call(self, name: str, args: dict, cancel: CancelToken | None, ticket: str | None = None) -> object:
        if name != CYPHER_QUERY:
            return self.handlers[name](args)
        try:
            return self.cypher_query(args, cancel, ticket)
        finally:  # a call that did not end with a first answer holds no key (refused, failed, a read)
            key = args.get("idempotencyKey")
            if isinstance(key, str):
                self.replays.release(key)

    def arrive(self, args: object) -> str | None:
        """Before a concurrent transport's call waits for the engine: note its idempotency key."""
        key = args.get("idempotencyKey") if isinstance(args, dict) else None
        return self.replays.arrive(key) if isinstance(key, str) and 0 < len(key) <= MAX_KEY else None

    # ------------------------------------------------------------------ cypher_query
    def cypher_query(self, args: dict, cancel: CancelToken | None, ticket: str | None) -> dict:
        query = args.get("query")
        if not isinstance(query, str):
            raise bad('missing string "query"')
        params = args.get("parameters")
        if params is None:
            params = {}
        elif not isinstance(params, dict):
            raise bad('"parameters" must be an object')
        fmt = args.get("format", "plain")
        cell = FORMATS.get(fmt) if isinstance(fmt, str) else None
        if cell is None:
            raise bad('format must be "plain" or "tagged"')
        at_time = args.get("atTime")
        if at_time is not None and not isinstance(at_time, str):
            raise bad("atTime must be an ISO-8601 string")
        provenance = _provenance(args.get("provenance"))
        key = args.get("idempotencyKey")
        if key is not None and not (isinstance(key, str) and 0 < len(key) <= MAX_KEY):
            raise bad(f"idempotencyKey must be a string of 1 to {MAX_KEY} characters")
        extra: dict = {}
        if at_time is not None:
            extra["at_time"] = at_time
        if provenance is not None:
            extra["provenance"] = {**provenance, "principal": self.caller.subject}
        keyed = False
        try:
            prepared = self.db.prepare(query)
            writes = prepared.query_type != "r"
            if writes:
                fresh = new_labels(prepared.statement, self.db.graph.by_label)
                if len(fresh) > MAX_NEW_LABELS:
                    raise RpcError(INVALID_PARAMS, f"{LABEL_SUBCODE}: the statement names {len(fresh)} labels new to "
                                   f"the graph; at most {MAX_NEW_LABELS} are allowed in one statement",
                                   {"subcode": LABEL_SUBCODE})
            if key is not None and writes:
                replay = self.replays.decide(key, fingerprint(CYPHER_QUERY, args), ticket)
                if replay is not None:
                    return replay
                keyed = True
            result = self.db.run(prepared, params, policy=self.policy, cancel=cancel, **extra)
        except KeyRefused as e:
            raise RpcError(e.code, str(e), {"subcode": e.subcode}) from None
        except RelateError as e:
            raise _engine_error(e) from None
        except RecursionError:
            log.exception("internal error in %s", CYPHER_QUERY)
            raise RpcError(INTERNAL_ERROR, "internal error") from None
        columns = list(result.columns)
        payload = {
            "columns": columns,
            "rows": [[cell(v) for v in row] for row in result.rows] if columns else [],
            "stats": result.stats.as_dict(),
            "warnings": [n.as_dict() for n in getattr(result, "warnings", ())],
        }
        if keyed:
            payload["replayed"] = False
            self.replays.finish(key, payload)
        return payload

    # ------------------------------------------------------------------ records by string id
    def get_node(self, args: dict) -> dict | None:
        str_id = _str_id(args)
        node = self.db.node_by_str_id(str_id)
        if node is None:
            return None
        return {"id": str_id, "labels": sorted(node.labels),
                "properties": {k: plain(v) for k, v in node.props.items()}, "span": _span(self.db, node)}

    def get_rel(self, args: dict) -> dict | None:
        str_id = _str_id(args)
        rel = self.db.relationship_by_str_id(str_id)
        if rel is None:
            return None
        return {"id": str_id, "edge_type": rel.type, "source": rel.start.id, "target": rel.end.id,
                "properties": {k: plain(v) for k, v in rel.props.items()}, "span": _span(self.db, rel)}

    # ------------------------------------------------------------------ the graph as a whole
    def summary(self, args: dict) -> dict:
        self.db._current()  # the writer's latest commits (a live reader), and what became valid since
        graph = self.db.graph
        labels = sorted((label, len(nodes)) for label, nodes in graph.by_label.items() if nodes)
        types: dict[str, list] = {}
        for rel in graph.rels.values():
            entry = types.get(rel.type)
            if entry is None:
                entry = types[rel.type] = [0, set(), set()]
            entry[0] += 1
            entry[1].update(rel.start.labels)
            entry[2].update(rel.end.labels)
        return {
            "nodes": len(graph.nodes),
            "relationships": len(graph.rels),
            "labels": [{"label": label, "count": n} for label, n in labels],
            "relationship_types": [{"type": t, "count": e[0], "source_labels": sorted(e[1]),
                                    "target_labels": sorted(e[2])} for t, e in sorted(types.items())],
        }

    def list_indexes(self, args: dict) -> dict:
        self.db._current()
        found = [d for d in self.db.graph.indexes.values() if d.seekable]
        return {"indexes": [{"name": d.name, "entity": d.entity, "label": d.label, "property": d.key,
                             "state": "ONLINE"} for d in sorted(found, key=lambda d: d.name)]}

    def list_graphs(self, args: dict) -> dict:
        return {"graphs": [{"current": True, "name": graph_name(self.db.path), "read_only": self.policy.read_only}]}

    def whoami(self, args: dict) -> dict:
        self.db._current()
        caps = ["read"] if self.policy.read_only else ["read", "write"]
        return {
            "capabilities": caps,
            "current_snapshot_seq": self.snapshot_seq(),
            "graph": graph_name(self.db.path),
            "graph_dir": os.path.abspath(self.db.path) if self.caller.admin and self.db.path != MEMORY else (
                MEMORY if self.caller.admin else None),
            "roles": list(self.caller.roles),
            "subject": self.caller.subject,
            "tenant": self.caller.tenant,
        }

    def snapshot_seq(self) -> int:
        """The number of the store's last committed transaction (1, 2, ... in commit order)."""
        return self.db.graph.history.seq


def _span(db: Database, entity) -> dict | None:
    span = db.span(entity)
    return None if span is None else span.as_dict()


def _str_id(args: dict) -> str:
    s = args.get("str_id")
    if not isinstance(s, str):
        raise bad('missing string "str_id"')
    return s


def _provenance(value: object) -> dict | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise bad('"provenance" must be an object')
    for k, v in value.items():
        if k in _PROVENANCE_TEXT:
            if not isinstance(v, str):
                raise bad(f"provenance.{k} must be a string")
        elif k == "confidence":
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0.0 <= v <= 1.0:
                raise bad("provenance.confidence must be a number from 0.0 to 1.0")
        else:
            raise bad(f"provenance has no field {k!r} (it takes actor, source, reason, requestId, confidence)")
    return dict(value)


def _engine_error(e: RelateError) -> RpcError:
    """An engine refusal -> the JSON-RPC error of this tool line."""
    if e.internal:
        if e.kind != "WriteFailed":  # the store has logged the file and the OS error
            log.error("internal error in %s: %s", CYPHER_QUERY, e.message, exc_info=True)
        return RpcError(INTERNAL_ERROR, "internal error", {"kind": e.kind})
    if isinstance(e, (StatementCancelled, StatementTimeout)):
        return RpcError(SERVER_ERROR, e.message, {"kind": e.kind})
    if e.phase == "compile" or e.kind in _BAD_INPUT or isinstance(e, (ParameterMissingError, ReadOnlyError,
                                                                      UsageError)):
        return RpcError(INVALID_PARAMS, e.message, {"kind": e.kind})
    return RpcError(INTERNAL_ERROR, e.message, {"kind": e.kind})
