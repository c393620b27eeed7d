"""A graph -> its search state: the full-text field indexes (declared and ad hoc) and the vector
columns, each kept up to date incrementally.

The first search on a graph installs `Graph.search_dirty`, a set the graph's node mutations (and
their undo steps) add node ids to.  Before each search, `catch_up` re-reads only those nodes into
every field index and vector column, then empties the set.  A declared index is a FULLTEXT
`IndexDef` (made by `db.createFulltextIndex` or `CREATE FULLTEXT INDEX`): every (label, key) it
covers has a field index under the index's analyzer; declaring and dropping come through the
graph's schema (and its undo), which `catch_up` compares against.  Nothing is stored: postings are
rebuilt from the nodes when a store is opened (or a live reader reloads and the state is gone).
"""
from __future__ import annotations

from .analyzers import ANALYZERS, DEFAULT
from .bm25 import FieldIndex

FULLTEXT = "FULLTEXT"


def declared_analyzer(d) -> str:
    opts = dict(d.options)
    name = opts.get("analyzer") or opts.get("fulltext.analyzer") or DEFAULT
    return name if name in ANALYZERS else DEFAULT


class SearchState:
    __slots__ = ("dirty", "fields", "declared", "vectors", "adhoc_order")

    def __init__(self, dirty: set[int]) -> None:
        self.dirty = dirty
        # (label, key, analyzer name) -> FieldIndex, declared or not
        self.fields: dict[tuple[str, str, str], FieldIndex] = {}
        # (label, key) -> (analyzer name, index name) of a declared full-text index
        self.declared: dict[tuple[str, str], tuple[str, str]] = {}
        self.vectors: dict[tuple[str, str], object] = {}
        self.adhoc_order: list[tuple[str, str, str]] = []   # ad hoc field indexes, oldest first


ADHOC_KEPT = 4   # ad hoc field indexes kept between searches (the oldest one goes first)


def state(graph) -> SearchState:
    """The graph's search state, caught up with every change so far."""
    st = graph.search_state
    if not isinstance(st, SearchState) or graph.search_dirty is not st.dirty:
        dirty: set[int] = set()
        graph.search_dirty = dirty
        st = graph.search_state = SearchState(dirty)
    _catch_up(graph, st)
    return st


def _catch_up(graph, st: SearchState) -> None:
    wanted: dict[tuple[str, str], tuple[str, str]] = {}
    for d in graph.indexes.values():
        if d.type == FULLTEXT and d.entity == "NODE":
            an = declared_analyzer(d)
            for lb in d.labels:
                for k in d.keys:
                    wanted.setdefault((lb, k), (an, d.name))
    if wanted != st.declared:
        keep = {(lb, k, an) for (lb, k), (an, _) in wanted.items()}
        for key in [f for f in st.fields if f not in keep and f not in st.adhoc_order]:
            del st.fields[key]
        st.declared = wanted
        for f in keep:
            if f not in st.fields:
                _build(graph, st, f)
    dirty = st.dirty
    if not dirty:
        return
    nodes = graph.nodes
    for (lb, k, _), idx in st.fields.items():
        for nid in dirty:
            node = nodes.get(nid)
            idx.put(nid, node.props.get(k) if node is not None and lb in node.labels else None)
    for col in st.vectors.values():
        for nid in dirty:
            col.update(nid, nodes.get(nid))  # type: ignore[attr-defined]
    dirty.clear()


def _build(graph, st: SearchState, f: tuple[str, str, str]) -> FieldIndex:
    label, key, an = f
    idx = FieldIndex(ANALYZERS[an])
    for node in graph.by_label.get(label, {}).values():
        idx.put(node.id, node.props.get(key))
    st.fields[f] = idx
    return idx


def field_index(graph, st: SearchState, label: str, key: str, analyzer: str) -> FieldIndex:
    """The field index of (label, key) under `analyzer`: the declared one, or an ad hoc one
    (built now, or kept from an earlier search and caught up like the declared ones)."""
    f = (label, key, analyzer)
    found = st.fields.get(f)
    if found is not None:
        return found
    idx = _build(graph, st, f)
    st.adhoc_order.append(f)
    while len(st.adhoc_order) > ADHOC_KEPT:
        old = st.adhoc_order.pop(0)
        if (old[0], old[1]) not in st.declared or st.declared[(old[0], old[1])][0] != old[2]:
            st.fields.pop(old, None)
    return idx
