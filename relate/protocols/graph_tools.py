"""The `graph` group's tool definitions (`--tools graph`): names, descriptions, input schemas and
annotations, as `tools/list` shows them.  The handlers are in `mcp_graph.py`.

Descriptions are written for the model that picks and calls the tool: what it returns, in which
shape, and how each argument changes that.  No input schema has a top-level anyOf/oneOf/allOf
(some hosts refuse one); a rule between arguments is in the descriptions and the server checks it.
"""
from __future__ import annotations

CYPHER_QUERY = "cypher_query"
GET_NODE = "get_node_by_str"
GET_RELATIONSHIP = "get_relationship_by_str"
SUMMARY = "get_graph_summary"
LIST_INDEXES = "list_indexes"
LIST_GRAPHS = "list_graphs"
WHOAMI = "whoami"


def _notes(read_only: bool, destructive: bool, idempotent: bool, title: str) -> dict:
    return {"destructiveHint": destructive, "idempotentHint": idempotent, "openWorldHint": False,
            "readOnlyHint": read_only, "title": title}


_NO_INPUT = {"properties": {}, "type": "object"}
_STR_ID = {
    "properties": {"str_id": {"description": "The string id, as elementId() returns it.", "type": "string"}},
    "required": ["str_id"],
    "type": "object",
}

_CYPHER_QUERY = {
    "annotations": _notes(False, True, False, "Cypher Query"),
    "description": (
        "Run one Cypher statement (read or write) and return {columns, rows, stats, warnings}: columns is the "
        "list of column names, rows a list of rows, each a list of cells in column order, stats the write "
        "counters. Cells are plain JSON by default (nodes and relationships as objects with id, labels or type "
        "and properties; dates and times as ISO-8601 text; an infinite or not-a-number float as the string "
        "\"Infinity\", \"-Infinity\" or \"NaN\"). With format \"tagged\" every non-null cell is "
        "{\"type\": <Cypher type name>, \"value\": ...}, nested values tagged too, and null stays null. "
        "parameters fills $name placeholders. atTime (ISO-8601) reads the graph as it was valid at that time: "
        "the statement needs at least one top-level MATCH, must not start with its own AS OF prefix, and must "
        "not write. To date a write, start it with AT VALID '<ISO-8601>', e.g. "
        "AT VALID '2025-11-01T00:00:00Z' CREATE (p:Person {name: 'A'}) (also MERGE, MATCH ... SET, "
        "MATCH ... DELETE). Without atTime the answer is what is valid now; while the graph holds values that "
        "become valid later, warnings has CURRENT_READ_VALID_NOW. provenance records who made a write and why. "
        "idempotencyKey makes a write safe to resend: the same key and request answer the first result again "
        "with replayed: true and write nothing. Errors are JSON-RPC errors: -32602 for a bad argument or a "
        "statement that does not compile, -32603 when the statement fails while it runs."),
    "inputSchema": {
        "properties": {
            "query": {"description": "The Cypher statement (one statement).", "type": "string"},
            "parameters": {"default": {}, "description": "Values for the statement's $name placeholders.",
                           "type": "object"},
            "format": {"default": "plain", "description": "Cell form: \"plain\" JSON or \"tagged\" {type, value}.",
                       "enum": ["plain", "tagged"], "type": "string"},
            "atTime": {"description": ("Read the graph as valid at this ISO-8601 time (e.g. 2024-01-01 or "
                                       "2024-01-01T12:00:00Z); reads with a top-level MATCH only."),
                       "type": "string"},
            "provenance": {
                "description": ("Who made this write and why; stored with what it writes. confidence is "
                                "0.0 to 1.0. The server adds the calling credential as principal."),
                "properties": {
                    "actor": {"type": "string"}, "source": {"type": "string"}, "reason": {"type": "string"},
                    "requestId": {"type": "string"},
                    "confidence": {"maximum": 1.0, "minimum": 0.0, "type": "number"},
                },
                "type": "object",
            },
            "idempotencyKey": {"description": ("1 to 256 characters naming this write; resending the same "
                                               "call with the same key does not write twice. Ignored for reads."),
                               "maxLength": 256, "minLength": 1, "type": "string"},
        },
        "required": ["query"],
        "type": "object",
    },
    "name": CYPHER_QUERY,
}

_SPAN = ("span is {valid_from, valid_to, txn_from, txn_to} in nanoseconds since the Unix epoch and the same "
         "times as validFrom, validTo, txnFrom, txnTo in ISO-8601 (null for an open end): when the record "
         "became valid, and when it was recorded.")

_GET_NODE = {
    "annotations": _notes(True, False, True, "Get Node by String Id"),
    "description": ("Return the node with this string id (what elementId(n) gives) as {id, labels, properties, "
                    "span}, or null when there is none. The version valid now is returned: a node created for a "
                    "future date is null until then. " + _SPAN),
    "inputSchema": _STR_ID,
    "name": GET_NODE,
}

_GET_RELATIONSHIP = {
    "annotations": _notes(True, False, True, "Get Relationship by String Id"),
    "description": ("Return the relationship with this string id (what elementId(r) gives) as {id, edge_type, "
                    "source, target, properties, span}, or null when there is none. source and target are the "
                    "internal integer ids of its start and end nodes (id(n)). The version valid now is "
                    "returned. " + _SPAN),
    "inputSchema": _STR_ID,
    "name": GET_RELATIONSHIP,
}

_SUMMARY = {
    "annotations": _notes(True, False, True, "Graph Summary"),
    "description": ("Count what the graph holds now: {nodes, relationships, labels: [{label, count}], "
                    "relationship_types: [{type, count, source_labels, target_labels}]}. source_labels and "
                    "target_labels are the labels of the start and end nodes of that type's relationships. "
                    "Property names are not listed (get_schema has them). Counts include every committed write."),
    "inputSchema": _NO_INPUT,
    "name": SUMMARY,
}

_LIST_INDEXES = {
    "annotations": _notes(True, False, True, "List Indexes"),
    "description": ("List the single-property range indexes as {indexes: [{name, entity, label, property, "
                    "state}]}: entity is NODE or RELATIONSHIP, label the label or relationship type, state "
                    "ONLINE once the index answers lookups. Indexes are made with CREATE INDEX ... FOR (n:Label) "
                    "ON (n.property) through cypher_query."),
    "inputSchema": _NO_INPUT,
    "name": LIST_INDEXES,
}

_LIST_GRAPHS = {
    "annotations": _notes(True, False, True, "List Graphs"),
    "description": ("List the graphs this credential can use, as {graphs: [{name, current, read_only}]}. This "
                    "server serves one graph, the one the connection is bound to (current: true)."),
    "inputSchema": _NO_INPUT,
    "name": LIST_GRAPHS,
}

_WHOAMI = {
    "annotations": _notes(True, False, True, "Who Am I"),
    "description": ("Say which graph and which credential this connection uses: {current_snapshot_seq, subject, "
                    "tenant, roles, capabilities, graph, graph_dir}. current_snapshot_seq grows each time a "
                    "committed change becomes visible, so comparing two answers tells whether the graph changed. "
                    "subject is the credential's user name; graph the graph's name; graph_dir its storage path, "
                    "given to admin credentials only (null otherwise)."),
    "inputSchema": _NO_INPUT,
    "name": WHOAMI,
}

# a top-level title too (MCP 2025-06-18), which newer hosts show; the default tools keep the
# reference pages' bytes and have only annotations.title
GRAPH_TOOLS = tuple({**t, "title": t["annotations"]["title"]}
                    for t in (_CYPHER_QUERY, _GET_NODE, _GET_RELATIONSHIP, _SUMMARY, _LIST_INDEXES, _LIST_GRAPHS,
                              _WHOAMI))
GRAPH_TOOL_NAMES = frozenset(t["name"] for t in GRAPH_TOOLS)
