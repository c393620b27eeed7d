"""The MCP tool definitions `tools/list` answers with: names, descriptions, input schemas and
annotations.  The texts are part of the interface (hosts show them to models), so they are fixed."""
from __future__ import annotations

TOOL_WRITE = "write_cypher"
TOOL_READ = "read_cypher"
TOOL_GET_SCHEMA = "get_schema"

_CYPHER_INPUT = {
    "properties": {
        "parameters": {"default": {}, "description": "The statement's parameters; a `rows` array feeds `$rows`.",
                       "type": "object"},
        "statement": {"description": "The Cypher statement.", "type": "string"},
    },
    "required": ["statement"],
    "type": "object",
}

_WRITE = {
    "annotations": {"destructiveHint": True, "idempotentHint": False, "openWorldHint": False,
                    "readOnlyHint": False, "title": "Write Cypher"},
    "description": ("Execute one writing Cypher statement (CREATE, MERGE, SET, DELETE, …). `parameters` is passed "
                    "as the statement's parameters; an object with a `rows` array feeds the statement's `$rows` "
                    "parameter. Returns the mutation counters."),
    "inputSchema": _CYPHER_INPUT,
    "name": TOOL_WRITE,
}

_READ = {
    "annotations": {"destructiveHint": False, "idempotentHint": True, "openWorldHint": False,
                    "readOnlyHint": True, "title": "Read Cypher"},
    "description": ("Execute one read-only Cypher statement. Returns the result's rows. Write and schema (DDL) "
                    "statements are rejected."),
    "inputSchema": _CYPHER_INPUT,
    "name": TOOL_READ,
}

_SCHEMA = {
    "annotations": {"destructiveHint": False, "idempotentHint": True, "openWorldHint": False,
                    "readOnlyHint": True, "title": "Get Schema"},
    "description": ("Get the schema of the graph store: node labels with their property keys and inferred types, "
                    "and the relationship types between them. `sample_size` bounds how many nodes and "
                    "relationships are examined per label (larger is slower but more accurate; -1 examines all)."),
    "inputSchema": {
        "properties": {
            "sample_size": {
                "description": ("The sample size used to infer the graph schema. Larger samples are slower, but "
                                "more accurate. Smaller samples are faster, but might miss information. -1 samples "
                                "the whole graph."),
                "type": "integer",
            },
        },
        "type": "object",
    },
    "name": TOOL_GET_SCHEMA,
}


def tool_list(read_only: bool) -> list[dict]:
    """The tools in the order hosts see them; a read-only store does not offer `write_cypher`."""
    return [_READ, _SCHEMA] if read_only else [_WRITE, _READ, _SCHEMA]
