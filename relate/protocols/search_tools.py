"""The `search` group's tool definitions (`--tools search`): `fulltext_search` and
`vector_search` as `tools/list` shows them.  The handlers are in `mcp_search.py`; the searches
themselves in `relate/search/`.

As in `graph_tools.py`, descriptions are written for the model that calls the tool, and no input
schema has a top-level anyOf/oneOf/allOf: vector_search's "exactly one of vector and queryText"
is said in the two properties' descriptions and checked by the server.
"""
from __future__ import annotations

from .graph_tools import _notes

FULLTEXT_SEARCH = "fulltext_search"
VECTOR_SEARCH = "vector_search"

_LABEL = {"description": "The label whose nodes are searched.", "type": "string"}
_K = {"default": 10, "description": "How many hits to return at most (1 to 1000).", "maximum": 1000,
      "minimum": 1, "type": "integer"}
_DECLARED = " Needs a declared full-text index on the label and property."

_FULLTEXT = {
    "annotations": _notes(True, False, True, "Full-Text Search"),
    "description": (
        "Rank the nodes of a label by how well one text property matches keywords (BM25) and return the best k "
        "as {hits: [{node_id, score}], warnings}, best first (ties by node_id). node_id is the internal integer "
        "id (id(n) in Cypher). The default analyzer keeps only words of the letters a-z and digits 0-9; a query "
        "with other letters gets the warning FULLTEXT_TOKENIZER_LIMITED (choose analyzer \"unicode-v2\" for "
        "every script). When a full-text index is declared on the label and property (CALL "
        "db.createFulltextIndex('Label', 'property') through cypher_query), it answers by default "
        "(index \"auto\"): then each hit also has str_id (the node's string id, as elementId(n) gives it) and "
        "matches (how many query terms it holds), the result also has index \"declared\", total, complete, "
        "cursor (pass it back to get the next page; null on the last one), parsed (how the query was read) and "
        "stale (true when the graph changed since the cursor's page), and the options marked as needing a "
        "declared index may be used. index \"adhoc\" gives the plain answer even when an index exists. A "
        "declared-index option on a label and property with no declared index, or an option value the tool "
        "does not take, is refused with JSON-RPC error -32602, data.subcode FULLTEXT_INDEX_NOT_FOUND or "
        "FULLTEXT_OPTION_INVALID (FULLTEXT_QUERY_INVALID for query text its syntax cannot read)."),
    "inputSchema": {
        "properties": {
            "label": _LABEL,
            "property": {"description": "The text property searched.", "type": "string"},
            "query": {"description": "The keywords, read by syntax (default: words, any of which may match).",
                      "type": "string"},
            "k": _K,
            "index": {"default": "auto", "description": ("\"auto\": the declared index when there is one; "
                                                         "\"declared\": refuse when there is none; \"adhoc\": "
                                                         "ignore a declared index."),
                      "enum": ["auto", "declared", "adhoc"], "type": "string"},
            "analyzer": {"description": ("How text becomes words: \"default\" (a-z, 0-9), \"unicode-v2\" (every "
                                         "script), with +fold (accents removed) and/or +stem (English stems). "
                                         "With a declared index it must be the index's own."),
                         "enum": ["default", "unicode-v2", "unicode-v2+fold", "unicode-v2+stem",
                                  "unicode-v2+fold+stem"], "type": "string"},
            "syntax": {"default": "words", "description": ("How query is read: \"words\" (plain keywords), "
                                                           "\"lucene\" (+must, -not, AND OR NOT, "
                                                           "\"phrase\"~slop, term^boost, prefix*), \"fts5\" "
                                                           "(SQLite FTS5: AND OR NOT, \"phrase\", NEAR(a b, N), "
                                                           "prefix*), \"legal\" (& | %, a /5 b within 5 words, "
                                                           "root! truncation)." + _DECLARED),
                       "enum": ["words", "lucene", "fts5", "legal"], "type": "string"},
            "default_operator": {"default": "OR", "description": ("Whether words without an operator must all "
                                                                  "match (AND) or any may (OR)." + _DECLARED),
                                 "enum": ["AND", "OR"], "type": "string"},
            "order": {"default": "score", "description": "Rank by \"score\" or list matches by \"node_id\"."
                      + _DECLARED, "enum": ["score", "node_id"], "type": "string"},
            "cursor": {"description": "The cursor of the previous page of the same query and options." + _DECLARED,
                       "type": "string"},
            "max_expansions": {"default": 50, "description": ("How many indexed words a prefix* may stand for "
                                                              "(1 to 1000)." + _DECLARED),
                               "maximum": 1000, "minimum": 1, "type": "integer"},
            "snippets": {"description": ("true, or a number of words (1 to 64): each hit gets snippets, passages "
                                         "around the matched words." + _DECLARED),
                         "type": ["boolean", "integer"]},
            "total": {"default": True, "description": "Count every match in total." + _DECLARED, "type": "boolean"},
            "at_valid": {"description": ("Search the text as it was valid at this ISO-8601 time (default: now); "
                                         "hits are the nodes that existed then." + _DECLARED),
                         "type": "string"},
            "at_recorded": {"description": ("Search the text as the database had it recorded at this ISO-8601 "
                                            "time (default: as recorded now)." + _DECLARED),
                            "type": "string"},
            "fields": {"description": ("Search several declared properties at once: a list of property names or "
                                       "a map of property name to a positive weight; it must include property. "
                                       "Each hit then has field_scores." + _DECLARED),
                       "type": ["array", "object"]},
            "filter": {"description": ("Only nodes whose properties equal these values (a list value: any of "
                                       "them), applied before ranking." + _DECLARED),
                       "type": "object"},
            "node_ids": {"description": "Only these node ids, applied before ranking." + _DECLARED,
                         "items": {"type": "integer"}, "type": "array"},
            "filter_statistics": {"default": False, "description": ("Compute the word statistics over the filtered "
                                                                    "nodes only." + _DECLARED),
                                  "type": "boolean"},
            "matched_terms": {"default": False, "description": ("Each hit gets matched_terms (query terms it "
                                                                "holds) and matched_words (its words that "
                                                                "matched)." + _DECLARED),
                              "type": "boolean"},
            "excerpt": {"description": ("true, or a length in characters (20 to 2000): each hit gets excerpt, "
                                        "the best passage of property." + _DECLARED),
                        "type": ["boolean", "integer"]},
            "group_by": {"description": ("Return the best hit per value of this property; each hit gets group and "
                                         "group_hits, and total counts groups." + _DECLARED),
                         "type": "string"},
        },
        "required": ["label", "property", "query"],
        "type": "object",
    },
    "name": FULLTEXT_SEARCH,
}

_VECTOR = {
    "annotations": _notes(True, False, True, "Vector Search"),
    "description": (
        "Find the nodes of a label whose vector property (a list of numbers) is nearest to a query vector by "
        "cosine similarity and return the best k as {hits: [{node_id, score}], warnings}, best first (ties by "
        "node_id); score is the cosine, from -1 to 1. node_id is the internal integer id (id(n) in Cypher). "
        "Give exactly one of vector (a precomputed embedding, with as many numbers as the stored vectors) and "
        "queryText (text the server embeds with its embedder; the result then names it in embedder); both or "
        "neither is refused with JSON-RPC error -32602 (data.subcode VECTOR_ARGUMENT_INVALID), as is a vector "
        "of the wrong length. Nodes without a vector in the property are not searched."),
    "inputSchema": {
        "properties": {
            "label": _LABEL,
            "property": {"description": "The property holding each node's vector.", "type": "string"},
            "vector": {"description": "The query embedding. Give this or queryText, not both.",
                       "items": {"type": "number"}, "type": "array"},
            "queryText": {"description": "Text to embed as the query. Give this or vector, not both.",
                          "type": "string"},
            "k": _K,
            "method": {"default": "exact", "description": ("\"exact\" scores every vector; \"pruned\" scores only "
                                                           "the vectors whose signs are closest to the query's "
                                                           "(faster on large labels, almost always the same hits)."),
                       "enum": ["exact", "pruned"], "type": "string"},
            "embedder": {"description": ("The embedder for queryText: \"hashing\" (the default; shared wording) "
                                         "or, where the server has it installed, \"static-model\" (a sentence "
                                         "model: meaning). The stored vectors must come from the same one."),
                         "type": "string"},
        },
        "required": ["label", "property"],
        "type": "object",
    },
    "name": VECTOR_SEARCH,
}

SEARCH_TOOLS = tuple({**t, "title": t["annotations"]["title"]} for t in (_FULLTEXT, _VECTOR))
SEARCH_TOOL_NAMES = frozenset(t["name"] for t in SEARCH_TOOLS)
