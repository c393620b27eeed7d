"""A query tree + field indexes -> the matching documents and their scores.

Each positive leaf (a term, a prefix, a phrase, a proximity group) is scored over every searched
field: the sum of its terms' BM25 contributions, times the field's weight and the leaf's boost.
A phrase or proximity leaf holds only where the terms stand so in the document's text (read
again through the analyzer: positions are not kept).  The boolean structure then picks the
matching set: `must` parts intersect, `should` parts unite (only scoring beside a `must`),
`must_not` parts subtract.  The score of a match is the sum of its positive leaves' scores.
"""
from __future__ import annotations

from dataclasses import dataclass

from .query import Bool, Phrase, Term


@dataclass(slots=True)
class Field:
    key: str
    index: object        # FieldIndex
    stats: object        # Stats for this query
    weight: float = 1.0


@dataclass(slots=True)
class Scored:
    """What evaluating a query gave: docs -> score."""
    scores: dict[int, float]


class Evaluator:
    def __init__(self, fields: list[Field], text_of, max_expansions: int, allowed: set[int] | None) -> None:
        self.fields = fields
        self.text_of = text_of            # (doc, key) -> the text, for phrase checks
        self.max_expansions = max_expansions
        self.allowed = allowed            # None: every document
        self.leaf_cache: dict[int, dict[int, float]] = {}
        self.leaf_parts: dict[int, list] = {}
        self._parts: list = []   # the parts of the leaf being scored

    # ---------------------------------------------------------------- leaves
    def _terms(self, leaf, f: Field) -> list[str]:
        if isinstance(leaf, Term):
            if leaf.prefix:
                return f.index.expand(leaf.term, self.max_expansions)  # type: ignore[attr-defined]
            return [leaf.term]
        return list(dict.fromkeys(leaf.terms))

    def _phrase(self, leaf: Phrase, f: Field, w: float, allowed):
        """doc -> score of a phrase or proximity leaf in one field (None: no document holds every
        word); the part is recorded with the index terms it stood for."""
        per = [self._position(leaf, i, f, w) for i in range(len(leaf.terms))]
        terms = tuple(t for p in per for t in p.pop(-1))
        if any(not p for p in per):
            return None
        per.sort(key=len)
        docs = [d for d in per[0] if all(d in p for p in per[1:]) and (allowed is None or d in allowed)]
        an = f.index.analyzer  # type: ignore[attr-defined]
        docs = [d for d in docs if _placed(an.terms(self.text_of(d, f.key) or ""), leaf)]
        found = {d: sum(p[d] for p in per) for d in docs}
        self._parts.append((f.key, terms, found))
        return found

    def _position(self, leaf: Phrase, i: int, f: Field, w: float) -> dict:
        """doc -> score of the phrase's i-th word (a truncated word: its expansions), with the
        index terms it stands for under the key -1."""
        t = leaf.terms[i]
        terms = f.index.expand(t, self.max_expansions) if leaf.prefixes and leaf.prefixes[i] else [t]  # type: ignore[attr-defined]
        out: dict = {}
        for term in terms:
            for d, s in f.stats.scores(term, w).items():  # type: ignore[attr-defined]
                out[d] = out.get(d, 0.0) + s
        out[-1] = terms
        return out

    def leaf(self, leaf) -> dict[int, float]:
        """doc -> the leaf's score, over every field.  Only the per (field, term) score maps are
        kept beside it (`details` reads them for the hits shown): a map or set per matching
        document would be built for tens of thousands of documents on a common word, and waking
        the garbage collector over the whole graph costs more than the scoring."""
        got = self.leaf_cache.get(id(leaf))
        if got is not None:
            return got
        total: dict[int, float] = {}
        owned = False
        parts: list[tuple[str, tuple[str, ...], dict[int, float]]] = []
        self._parts = parts
        allowed = self.allowed
        for f in self.fields:
            terms = self._terms(leaf, f)
            if not terms:
                continue
            w = f.weight * leaf.boost
            if isinstance(leaf, Phrase):
                found = self._phrase(leaf, f, w, allowed)
                if found is None:
                    continue
                new = [found]
            else:
                new = []
                for t in terms:
                    got = f.stats.scores(t, w)  # type: ignore[attr-defined]
                    if allowed is not None:
                        got = {d: s for d, s in got.items() if d in allowed}
                    parts.append((f.key, (t,), got))
                    new.append(got)
            for got in new:
                if not total and not owned:
                    total = got
                    continue
                if not owned:
                    total, owned = dict(total), True
                get = total.get
                for d, s in got.items():
                    total[d] = get(d, 0.0) + s
        self.leaf_cache[id(leaf)] = total
        self.leaf_parts[id(leaf)] = parts
        return total

    # ---------------------------------------------------------------- structure
    def docs(self, q) -> set[int] | dict[int, float]:
        if not isinstance(q, Bool):
            return self.leaf(q)
        out: set[int] | dict[int, float]
        if q.must:
            parts = sorted((self.docs(p) for p in q.must), key=len)
            out = set(parts[0])
            for p in parts[1:]:
                out.intersection_update(p)
            for p in q.should:       # scored, not required
                self.docs(p)
        else:
            out = set()
            for p in q.should:
                out.update(self.docs(p))
        for p in q.must_not:
            out.difference_update(self.docs(p))
        return out

    def run(self, q, leaves: list) -> Scored:
        if isinstance(q, Bool) and not q.must and not q.must_not and not any(isinstance(p, Bool) for p in q.should):
            # words OR words: the sum of the leaves' maps, without a set of the matches first
            scores: dict[int, float] = {}
            get = scores.get
            for lf in q.should:
                for d, s in self.leaf(lf).items():
                    scores[d] = get(d, 0.0) + s
            return Scored(scores)
        found = self.docs(q)
        if isinstance(found, dict) and len(leaves) == 1:
            return Scored(dict(found))
        scores = dict.fromkeys(found, 0.0)
        for lf in leaves:
            for d, s in self.leaf(lf).items():
                if d in scores:
                    scores[d] += s
        return Scored(scores)

    def details(self, doc: int, leaves: list) -> tuple[dict[str, float], set[str]]:
        """Per field scores and matched terms of one document (for the hits shown)."""
        fs: dict[str, float] = {}
        terms: set[str] = set()
        for lf in leaves:
            self.leaf(lf)
            for key, ts, found in self.leaf_parts[id(lf)]:
                s = found.get(doc)
                if s is not None:
                    fs[key] = fs.get(key, 0.0) + s
                    terms.update(ts)
        return fs, terms


def _placed(tokens: list[str], leaf: Phrase) -> bool:
    """Whether the phrase (in order, within its slop) or proximity group (any order, within
    `near` words) stands in `tokens`."""
    terms = leaf.terms
    where: dict[str, list[int]] = {}
    prefixed = [t for i, t in enumerate(terms) if leaf.prefixes and leaf.prefixes[i]]
    for i, t in enumerate(tokens):
        if t in terms:
            where.setdefault(t, []).append(i)
        for p in prefixed:
            if t != p and t.startswith(p):
                where.setdefault(p, []).append(i)
    if any(t not in where for t in terms):
        return False
    if leaf.near is None:
        slop = leaf.slop
        for start in where[terms[0]]:
            pos, ok, used = start, True, 0
            for t in terms[1:]:
                nxt = [p for p in where[t] if p > pos and p - pos - 1 + used <= slop]
                if not nxt:
                    ok = False
                    break
                used += nxt[0] - pos - 1
                pos = nxt[0]
            if ok:
                return True
        return False
    # proximity: some window of (near + number of terms) tokens holds every term
    span = leaf.near + len(set(terms))
    events = sorted((p, t) for t in set(terms) for p in where[t])
    need = len(set(terms))
    count: dict[str, int] = {}
    lo = 0
    for hi, (p, t) in enumerate(events):
        count[t] = count.get(t, 0) + 1
        while events[lo][0] < p - span + 1:
            lt = events[lo][1]
            count[lt] -= 1
            if not count[lt]:
                del count[lt]
            lo += 1
        if len(count) == need:
            return True
    return False
