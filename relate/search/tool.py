"""The `fulltext_search` and `vector_search` tools of the 1.4 line: arguments (a JSON object)
-> the result object, or a refusal -> the JSON-RPC error the tool call answers with.

`call_fulltext(db, arguments)` / `call_vector(db, arguments)` take the tool's arguments as an MCP
client sends them (label, property, query / vector / queryText, k and the options), and
`refusal(error)` turns a search error into {code: -32602, message, data: {subcode}}.  The MCP
server's `search` tool group calls these (`protocols/mcp_search.py`) with the caller's `Scope`
(`scope.py`: the field-read-rule hook, applied before the ranking, and the clock and history
limit of at_valid / at_recorded).
"""
from __future__ import annotations

from ..errors import RelateError
from .fulltext import fulltext_search
from .scope import OPEN_SCOPE, Scope
from .vectors import vector_search

INVALID_PARAMS = -32602
SUBCODES = {
    "FulltextIndexNotFound": "FULLTEXT_INDEX_NOT_FOUND",
    "FulltextOptionInvalid": "FULLTEXT_OPTION_INVALID",
    "FulltextQueryInvalid": "FULLTEXT_QUERY_INVALID",
    "VectorArgumentInvalid": "VECTOR_ARGUMENT_INVALID",
}
_FULLTEXT_ARGS = ("label", "property", "query", "k")
_VECTOR_ARGS = ("label", "property", "vector", "queryText", "k", "method", "embedder")


def call_fulltext(graph, arguments: dict, scope: Scope = OPEN_SCOPE) -> dict:
    a = dict(arguments)
    label, prop, query = a.pop("label", None), a.pop("property", None), a.pop("query", None)
    k = a.pop("k", 10)
    return fulltext_search(graph, label, prop, query, k, a, scope)


def call_vector(graph, arguments: dict, scope: Scope = OPEN_SCOPE) -> dict:
    a = dict(arguments)
    opts = {key: a.pop(key) for key in ("method", "embedder") if key in a}
    label, prop = a.pop("label", None), a.pop("property", None)
    vector, text, k = a.pop("vector", None), a.pop("queryText", None), a.pop("k", 10)
    if a:
        from ..errors import E
        raise E.Argument.VectorArgumentInvalid(detail=f"unknown argument {next(iter(a))!r}")
    return vector_search(graph, label, prop, vector, text, k, opts, scope)


def is_refusal(error: BaseException) -> bool:
    return isinstance(error, RelateError) and error.kind in SUBCODES


def refusal(error: RelateError) -> dict:
    """The JSON-RPC error object of a refused search call."""
    subcode = SUBCODES[error.kind]
    return {"code": INVALID_PARAMS, "message": error.detail, "data": {"subcode": subcode}}
