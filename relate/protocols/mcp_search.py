"""The `search` group's tool calls: (tool name, arguments) -> the JSON payload of the tool result,
or an `RpcError`.

The searches are `relate/search/tool.py`'s (`call_fulltext`, `call_vector`), run under the
scope the database gives the server's policy (`Database.search_scope`: access hook, clock,
history limit); this file reads the database's latest state first (a live reader catches up
with the writer) and maps refusals to
the 1.4 line's JSON-RPC errors: a search refusal is -32602 with data.subcode
(FULLTEXT_INDEX_NOT_FOUND, FULLTEXT_OPTION_INVALID, FULLTEXT_QUERY_INVALID,
VECTOR_ARGUMENT_INVALID); any other engine error goes the graph group's way (`_engine_error`).
"""
from __future__ import annotations

import logging

from ..database import Database
from ..errors import RelateError
from ..policy import Policy
from ..search.tool import call_fulltext, call_vector, is_refusal, refusal
from .mcp_graph import INTERNAL_ERROR, RpcError, _engine_error
from .search_tools import FULLTEXT_SEARCH, VECTOR_SEARCH

log = logging.getLogger("relate.mcp")


class SearchTools:
    """The search group's handlers over one database."""

    def __init__(self, db: Database, policy: Policy | None = None) -> None:
        self.db = db
        self.policy = policy  # the server's (None: the database's own): its access rules hide hits
        self.handlers = {FULLTEXT_SEARCH: call_fulltext, VECTOR_SEARCH: call_vector}

    def call(self, name: str, args: dict) -> dict:
        search = self.handlers[name]
        try:
            self.db._current()  # a live reader's view of the writer's commits, as the graph tools read it
            return search(self.db.graph, args, self.db.search_scope(self.policy))
        except RelateError as e:
            if is_refusal(e):
                r = refusal(e)
                raise RpcError(r["code"], r["message"], r["data"]) from None
            raise _engine_error(e) from None
        except RecursionError:
            log.exception("internal error in %s", name)
            raise RpcError(INTERNAL_ERROR, "internal error") from None
