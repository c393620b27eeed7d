"""A vector search (label, property, vector or queryText, k) -> {hits: [{node_id, score}],
warnings[, embedder]}, score the cosine similarity, best first, ties by node id.

The label's vectors (a property holding a list of numbers) are kept per (label, property) as a
`VectorColumn`: unit vectors as `array('d')` and a sign-bit signature per vector (a Python int,
one bit a dimension), caught up with the graph's writes like the text indexes (`state.py`).
Methods: `exact` (the default): every vector scored, with numpy's matrix product when numpy can
be imported, else in pure Python; `pruned`: the vectors whose signatures differ least from the
query's (Hamming distance through `int.bit_count`) are scored by their int8 copies (one
`math.dist` call in C each), the best of those exactly in floats, and the best k of those
returned (the same top k as `exact` unless the true neighbours' signs are unusually far).
The scope's access hook (`scope.py`, `visible(node) -> bool`) leaves hidden nodes out before the
ranking.
"""
from __future__ import annotations

import heapq
import math
from array import array
from math import dist, sqrt
from itertools import compress
from operator import mul

from ..errors import E
from . import embedder as embedders
from .scope import OPEN_SCOPE, Scope
from .state import state

METHODS = ("exact", "pruned")
PRUNED_MIN = 256     # candidates the pruned path scores exactly, at least
PRUNED_FACTOR = 20   # ... or this many per hit asked for
RERANK_MIN = 40      # of those, the best by their int8 copies scored exactly in floats, at least
RERANK_FACTOR = 4    # ... or this many per hit asked for


def _quantized(v: array) -> tuple[bytes, float]:
    """A unit vector -> its components scaled to -127..127 and rounded, stored 128 up as bytes
    (1..255), and the scaled vector's squared norm.  math.dist reads the bytes as small ints
    (cached objects: nothing allocated per component), and the offset cancels in a difference."""
    top = max(map(abs, v))
    scale = 127.0 / top
    q = [round(x * scale) for x in v]
    return bytes([x + 128 for x in q]), float(sum(x * x for x in q))


def _unit(values) -> tuple[array, int] | None:
    """A stored property value -> (unit vector, sign signature), None if it is not a vector."""
    if not isinstance(values, list) or not values:
        return None
    for x in values:
        if x.__class__ is not float and (x.__class__ is not int):
            return None
    norm = math.sqrt(sum(x * x for x in values))
    if not norm or norm != norm or norm == math.inf:
        return None
    v = array("d", [x / norm for x in values])
    sig = 0
    for i, x in enumerate(v):
        if x > 0:
            sig |= 1 << i
    return v, sig


class VectorColumn:
    __slots__ = ("label", "key", "vectors", "signs", "quant", "generation", "_matrix", "_packed")

    def __init__(self, label: str, key: str) -> None:
        self.label, self.key = label, key
        self.vectors: dict[int, array] = {}
        self.signs: dict[int, int] = {}
        self.quant: dict[int, tuple[bytes, float]] = {}   # the pruned path's int8 copy (_quantized)
        self.generation = 0
        self._matrix = None     # (generation, ids, numpy matrix) once numpy scored this column
        self._packed = None     # (generation, ids, vectors, signatures, int8 copies, their squared norms)

    def update(self, nid: int, node) -> None:
        got = _unit(node.props.get(self.key)) if node is not None and self.label in node.labels else None
        if got is None:
            if self.vectors.pop(nid, None) is not None:
                self.signs.pop(nid, None)
                self.quant.pop(nid, None)
                self.generation += 1
            return
        self.vectors[nid], self.signs[nid] = got
        self.quant[nid] = _quantized(got[0])
        self.generation += 1

    def packed(self) -> tuple[list[int], list[array], list[int], list[bytes], list[float]]:
        """Ids, vectors, signatures, int8 copies and their squared norms as parallel lists
        (scanning them allocates no tuples, so a scan does not wake the garbage collector over
        every stored value)."""
        p = self._packed
        if p is None or p[0] != self.generation:
            ids = list(self.vectors)
            quant = self.quant
            p = self._packed = (self.generation, ids, [self.vectors[i] for i in ids], [self.signs[i] for i in ids],
                                [quant[i][0] for i in ids], [quant[i][1] for i in ids])
        return p[1], p[2], p[3], p[4], p[5]

    def matrix(self, np):
        m = self._matrix
        if m is None or m[0] != self.generation:
            ids = list(self.vectors)
            mat = np.array([self.vectors[i] for i in ids], dtype=np.float64) if ids else np.zeros((0, 0))
            m = self._matrix = (self.generation, ids, mat)
        return m[1], m[2]


def column(graph, label: str, key: str) -> VectorColumn:
    st = state(graph)
    col = st.vectors.get((label, key))
    if col is None:
        col = VectorColumn(label, key)
        for node in graph.by_label.get(label, {}).values():
            col.update(node.id, node)
        st.vectors[(label, key)] = col
    return col


def _numpy():
    try:
        import numpy
    except ImportError:
        return None
    return numpy


def vector_search(graph, label: str, prop: str, vector=None, query_text=None, k: int = 10,
                  options: dict | None = None, scope: Scope = OPEN_SCOPE) -> dict:
    opts = {key: v for key, v in (options or {}).items() if v is not None}
    for key in opts:
        if key not in ("method", "embedder"):
            raise E.Argument.VectorArgumentInvalid(detail=f"unknown option {key!r} (options: method, embedder)")
    method = opts.get("method", "exact")
    if method not in METHODS:
        raise E.Argument.VectorArgumentInvalid(detail=f"method must be exact or pruned, got {method!r}")
    if (vector is None) == (query_text is None):
        raise E.Argument.VectorArgumentInvalid(detail="pass exactly one of vector and queryText")
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= 1000:
        raise E.Argument.VectorArgumentInvalid(detail=f"k must be an integer from 1 to 1000, got {k!r}")
    out_embedder = None
    if query_text is not None:
        if not isinstance(query_text, str) or not query_text.strip():
            raise E.Argument.VectorArgumentInvalid(detail="queryText must be a non-empty string")
        emb = embedders.get(opts.get("embedder"))
        if emb is None:
            raise E.Argument.VectorArgumentInvalid(
                detail=f"no embedder {opts.get('embedder')!r} (embedders: {', '.join(embedders.names())})")
        vector = emb.embed([query_text])[0]  # type: ignore[attr-defined]
        out_embedder = emb.name  # type: ignore[attr-defined]
    q = _unit(list(vector) if isinstance(vector, (list, tuple)) else vector)
    if q is None:
        raise E.Argument.VectorArgumentInvalid(detail="vector must be a non-empty list of numbers, not all zero")
    qv, qsig = q
    col = column(graph, label, prop)
    nodes = graph.nodes
    dims = len(qv)
    ok = None
    visible = scope.visible(label, prop)
    if visible is not None:
        ok = {d for d in col.vectors if visible(nodes[d])}
    warnings: list[dict] = []
    some = next(iter(col.vectors.values()), None)
    if some is not None and len(some) != dims:
        raise E.Argument.VectorArgumentInvalid(
            detail=f"the vector has {dims} dimensions; :{label}({prop}) holds vectors of {len(some)}")
    if method == "pruned":
        scored = _pruned(col, qv, qsig, k, ok)
    else:
        np = _numpy()
        scored = _exact_numpy(np, col, qv, k, ok) if np is not None else _exact(col, qv, k, ok)
    out: dict = {"hits": [{"node_id": d, "score": s} for d, s in scored], "warnings": warnings}
    if out_embedder is not None:
        out["embedder"] = out_embedder
    return out


def _top(pairs, k: int):
    return heapq.nsmallest(k, pairs, key=lambda it: (-it[1], it[0]))


def _best(ids: list[int], scores: list[float], k: int) -> list:
    """The k best (id, score), ties by id, from parallel lists."""
    if not ids:
        return []
    idx = heapq.nlargest(k, range(len(ids)), key=scores.__getitem__)
    kth = scores[idx[-1]]
    # every candidate tied with the k-th competes by id
    tied = [i for i in compress(range(len(ids)), [x >= kth for x in scores])] if len(idx) == k else idx
    return _top([(ids[i], scores[i]) for i in tied], k)


def _exact(col: VectorColumn, qv, k: int, ok) -> list:
    ids, vecs = col.packed()[:2]
    if ok is not None:
        keep = [d in ok for d in ids]
        ids, vecs = list(compress(ids, keep)), list(compress(vecs, keep))
    return _best(ids, [sum(map(mul, v, qv)) for v in vecs], k)


def _exact_numpy(np, col: VectorColumn, qv, k: int, ok) -> list:
    ids, mat = col.matrix(np)
    if not ids:
        return []
    scores = mat @ np.asarray(qv, dtype=np.float64)
    if ok is not None:
        keep = np.array([d in ok for d in ids], dtype=bool)
        scores = np.where(keep, scores, -np.inf)
    n = min(len(ids), k)
    part = np.argpartition(-scores, n - 1)[:n] if n < len(ids) else np.arange(len(ids))
    kth = scores[part].min()
    # every candidate within rounding of the k-th is scored again as the pure-Python path scores
    # it (to the last bit), so both paths rank, and break ties, alike
    near = np.nonzero(scores >= kth - 1e-9)[0]
    vecs = col.vectors
    return _top([(ids[i], sum(map(mul, vecs[ids[i]], qv))) for i in near if scores[i] != -np.inf], k)


def _pruned(col: VectorColumn, qv, qsig: int, k: int, ok) -> list:
    """Three steps, each on fewer vectors: the sign signatures nearest the query's (Hamming
    distance), then those candidates' int8 copies scored by one C call each (math.dist of the
    byte strings: the cosine of the int8 vectors follows from the distance and the two norms),
    then the best of those scored exactly in floats."""
    width = max(PRUNED_MIN, PRUNED_FACTOR * k)
    ids, vecs, sigs, qbytes, qnorms = col.packed()
    # positions into the parallel lists: only the candidates' entries are ever gathered
    if ok is not None:
        pos = list(compress(range(len(ids)), [d in ok for d in ids]))
        if len(pos) > width:
            dists = [(sigs[i] ^ qsig).bit_count() for i in pos]
            limit = sorted(dists)[width - 1]
            pos = list(compress(pos, map(limit.__ge__, dists)))
    elif len(ids) > width:
        dists = [(s ^ qsig).bit_count() for s in sigs]
        limit = sorted(dists)[width - 1]
        pos = list(compress(range(len(ids)), map(limit.__ge__, dists)))
    else:
        pos = list(range(len(ids)))
    rerank = max(RERANK_MIN, RERANK_FACTOR * k)
    if len(pos) > rerank:
        qb, qn = _quantized(qv)
        qt = tuple(qb)
        # A.Q = (|A|^2 + |Q|^2 - |A - Q|^2) / 2; the cosine divides by |A| |Q| (|Q| is the same for all)
        approx = [(qnorms[i] + qn - dist(qbytes[i], qt) ** 2) / sqrt(qnorms[i]) for i in pos]
        pos = [pos[j] for j in heapq.nlargest(rerank, range(len(pos)), key=approx.__getitem__)]
    return _best([ids[i] for i in pos], [sum(map(mul, vecs[i], qv)) for i in pos], k)
