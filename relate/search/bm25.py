"""One text property of one label -> postings and BM25 scores.

`FieldIndex` keeps, per term, the documents holding it with their term frequency, and per
document its length and its terms (so that a changed document leaves its old postings).  A
document is a node id.  Scores are Lucene's / FTS5's BM25: idf = ln(1 + (N - n + 0.5) / (n +
0.5)) (never negative), tf part tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl)), k1 1.2,
b 0.75.  `stats(hidden)` leaves hidden documents out of N, n and avgdl, so that a node the caller
may not read changes no other node's score.
"""
from __future__ import annotations

import math
from collections import Counter

K1 = 1.2
B = 0.75


class Stats:
    """N and the average length for one query, over the visible documents."""

    __slots__ = ("n_docs", "avgdl", "hidden", "index")

    def __init__(self, index: "FieldIndex", hidden: frozenset[int] | set[int] | None) -> None:
        self.index = index
        self.hidden = hidden or None
        lengths = index.lengths
        total, n = index.total_length, len(lengths)
        if self.hidden:
            for d in self.hidden:
                dl = lengths.get(d)
                if dl is not None:
                    total -= dl
                    n -= 1
        self.n_docs = n
        self.avgdl = total / n if n else 0.0

    def df(self, term: str) -> int:
        docs = self.index.postings.get(term)
        if not docs:
            return 0
        if self.hidden:
            return sum(1 for d in docs if d not in self.hidden)
        return len(docs)

    def idf(self, term: str) -> float:
        n = self.df(term)
        return math.log(1.0 + (self.n_docs - n + 0.5) / (n + 0.5))

    def scores(self, term: str, weight: float = 1.0) -> dict[int, float]:
        """doc -> this term's BM25 contribution, for the visible documents holding it."""
        docs = self.index.postings.get(term)
        if not docs:
            return {}
        w = self.idf(term) * (K1 + 1) * weight
        # the length norm per posting, not kept per document: every write moves avgdl, and a
        # kept table would cost a pass over all documents after each one
        a, c = K1 * (1 - B), K1 * B / (self.avgdl or 1.0)
        lengths = self.index.lengths
        hidden = self.hidden
        if hidden:
            return {d: w * tf / (tf + a + c * lengths[d]) for d, tf in docs.items() if d not in hidden}
        return {d: w * tf / (tf + a + c * lengths[d]) for d, tf in docs.items()}


class FieldIndex:
    """Postings of one (label, property) under one analyzer."""

    __slots__ = ("analyzer", "postings", "lengths", "doc_terms", "texts", "total_length", "generation")

    def __init__(self, analyzer) -> None:
        self.analyzer = analyzer
        self.postings: dict[str, dict[int, int]] = {}
        self.lengths: dict[int, int] = {}
        self.doc_terms: dict[int, tuple[str, ...]] = {}
        self.texts: dict[int, str] = {}     # the text each document was indexed with (shared, not copied)
        self.total_length = 0
        self.generation = 0      # bumped by every change (cursors tell a stale page by it)

    def __len__(self) -> int:
        return len(self.lengths)

    def put(self, doc: int, text: object) -> None:
        """Index `doc` with `text` (not a string: the document leaves the index)."""
        old = self.texts.get(doc)
        if old is not None and (old is text or old == text):
            return      # another property of the node changed
        self.remove(doc)
        if not isinstance(text, str):
            return
        self.texts[doc] = text
        terms = self.analyzer.terms(text)
        if not terms:
            return
        counts = Counter(terms)
        postings = self.postings
        for t, tf in counts.items():
            held = postings.get(t)
            if held is None:
                postings[t] = {doc: tf}
            else:
                held[doc] = tf
        self.lengths[doc] = len(terms)
        self.doc_terms[doc] = tuple(counts)
        self.total_length += len(terms)
        self.generation += 1

    def remove(self, doc: int) -> None:
        self.texts.pop(doc, None)
        terms = self.doc_terms.pop(doc, None)
        if terms is None:
            return
        postings = self.postings
        for t in terms:
            held = postings[t]
            del held[doc]
            if not held:
                del postings[t]
        self.total_length -= self.lengths.pop(doc)
        self.generation += 1

    def stats(self, hidden=None) -> Stats:
        return Stats(self, hidden)

    def expand(self, prefix: str, limit: int) -> list[str]:
        """The index terms starting with `prefix`, most frequent first, at most `limit`."""
        found = [t for t in self.postings if t.startswith(prefix)]
        found.sort(key=lambda t: (-len(self.postings[t]), t))
        return found[:limit]
