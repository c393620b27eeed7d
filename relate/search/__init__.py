"""Full-text (BM25) and vector search over node properties.

text -> terms (`analyzers.py`, `porter.py`) -> per (label, property) postings (`bm25.py`), kept up
to date from the graph's writes (`state.py`); query text -> a tree (`query.py`) -> matches and
scores (`evaluate.py`) -> the tool-shaped answers of `fulltext.py` and `vectors.py` (the MCP
tools `fulltext_search` / `vector_search`, `Database.fulltext_search` / `vector_search` and the
`db.*` procedures of `procedures.py` all answer through them); `tool.py` turns a refusal into
the JSON-RPC error those tools send.
"""
