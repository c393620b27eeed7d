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
from math import dist
from itertools import compress
from operator import mul

from ..errors import E
from . import embedder as embedders
from .scope import OPEN_SCOPE, Scope
from .state import state

METHODS = ("exact", "pruned")
PRUNED_MIN = 256     # candidates the pruned path scores exactly, at least
PRUNED_FACTOR = 20   # ... or this many per hit asked for
SAMPLE = 8           # the cut-off distance is read from every 8th vector's on large columns
RERANK_MIN = 40      # of those, the best by their int8 copies scored exactly in floats, at least
RERANK_FACTOR = 4    # ... or this many per hit asked for


class Quantized:
    """A unit vector's int8 copy: the components scaled by s = 127 / max |x| and rounded
    (A = s x + e, each |e_i| <= 1/2), kept 128 up as bytes (1..255: math.dist reads them as
    cached small ints, nothing allocated per component, and the offset cancels in a difference).
    For two such copies A.Q = (|A|^2 + |Q|^2 - |A - Q|^2) / 2, and
        |A.Q / (s_a s_q) - x.y| <= r_a + r_q + r_a r_q,   r = |e| / s,
    so the int8 dot product bounds the float one (`_exact` relies on it, `_pruned` ranks by it)."""

    __slots__ = ("data", "norm2", "half", "radius")

    def __init__(self, v: array) -> None:
        scale = 127.0 / max(map(abs, v))
        q = [round(x * scale) for x in v]
        self.data = bytes([x + 128 for x in q])
        self.norm2 = float(sum(x * x for x in q))
        self.half = 0.5 / scale                     # A.Q * half / s_q ~ x.y
        err = math.sqrt(sum((a - x * scale) ** 2 for a, x in zip(q, v)))
        self.radius = err / scale


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
        self.quant: dict[int, Quantized] = {}   # the int8 copies the pure-Python paths rank by
        self.generation = 0
        self._matrix = None     # (generation, ids, numpy matrix) once numpy scored this column
        self._packed = None     # (generation, ids, vectors, signatures, int8 bytes, norms, halves, max radius)

    def update(self, nid: int, node) -> None:
        got = _unit(node.props.get(self.key)) if node is not None and self.label in node.labels else None
        if got is None:
            if self.vectors.pop(nid, None) is not None:
                self.signs.pop(nid, None)
                self.quant.pop(nid, None)
                self.generation += 1
            return
        self.vectors[nid], self.signs[nid] = got
        self.quant[nid] = Quantized(got[0])
        self.generation += 1

    def packed(self) -> tuple:
        """Ids, vectors, signatures and the int8 copies' bytes, squared norms and halves as
        parallel lists, and the largest radius (scanning lists allocates no tuples, so a scan
        does not wake the garbage collector over every stored value)."""
        p = self._packed
        if p is None or p[0] != self.generation:
            ids = list(self.vectors)
            quant = [self.quant[i] for i in ids]
            p = self._packed = (self.generation, ids, [self.vectors[i] for i in ids], [self.signs[i] for i in ids],
                                [c.data for c in quant], [c.norm2 for c in quant], [c.half for c in quant],
                                max((c.radius for c in quant), default=0.0))
        return p[1:]

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


EXACT_SCAN = 256   # at most this many vectors are scored in floats without the int8 bound first


def _positions(ids: list[int], ok):
    """The positions of the visible vectors in the column's parallel lists (a range: all)."""
    return range(len(ids)) if ok is None else list(compress(range(len(ids)), [d in ok for d in ids]))


def _approx(pos, data, norm2, half, qc: Quantized) -> list[float]:
    """x.y * s_q estimated from the int8 copies for the vectors at `pos` (one C call each)."""
    qt, qn = tuple(qc.data), qc.norm2
    return [(norm2[i] + qn - dist(data[i], qt) ** 2) * half[i] for i in pos]


def _exact(col: VectorColumn, qv, k: int, ok) -> list:
    """Every vector's int8 estimate, then floats only for those whose bound reaches the k-th
    best lower bound: the same top k, scores and ties as scoring every vector in floats."""
    ids, vecs, _, data, norm2, half, rmax = col.packed()
    pos = _positions(ids, ok)
    if len(pos) > max(EXACT_SCAN, 2 * k):
        qc = Quantized(qv)
        est = _approx(pos, data, norm2, half, qc)
        s_q = 0.5 / qc.half
        # in units of s_q: every estimate is within `band` of s_q x.y (plus rounding room)
        band = (qc.radius + rmax + qc.radius * rmax) * s_q + 1e-9 * s_q
        floor = heapq.nlargest(k, est)[-1] - 2 * band
        pos = [pos[j] for j in compress(range(len(pos)), map(floor.__le__, est))]
    return _best([ids[i] for i in pos], [sum(map(mul, vecs[i], qv)) for i in pos], k)


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
    distance), then those candidates ranked by their int8 copies (one C call each), then the
    best of those scored exactly in floats."""
    width = max(PRUNED_MIN, PRUNED_FACTOR * k)
    ids, vecs, sigs, data, norm2, half, _ = col.packed()
    # positions into the parallel lists: only the candidates' entries are ever gathered
    pos = _positions(ids, ok)
    if len(pos) > width:
        # Hamming distances without a bytecode per vector (map over C callables)
        dists = list(map(int.bit_count, map(qsig.__xor__, sigs if ok is None else [sigs[i] for i in pos])))
        # the cut-off distance from every 8th vector's: about `width` candidates, a 1/8 of the sort
        sample = sorted(dists[::SAMPLE]) if len(dists) > SAMPLE * width else sorted(dists)
        limit = sample[min(len(sample), -(-width * len(sample) // len(dists))) - 1]
        pos = list(compress(pos, map(limit.__ge__, dists)))
    rerank = max(RERANK_MIN, RERANK_FACTOR * k)
    if len(pos) > rerank:
        est = _approx(pos, data, norm2, half, Quantized(qv))
        pos = [pos[j] for j in heapq.nlargest(rerank, range(len(pos)), key=est.__getitem__)]
    return _best([ids[i] for i in pos], [sum(map(mul, vecs[i], qv)) for i in pos], k)
