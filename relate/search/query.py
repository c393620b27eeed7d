"""Query text -> a query tree, by one of four syntaxes, and the tree -> its normalised text.

- `words`: every word of the text, joined by the default operator (OR unless told AND).
- `fts5`: SQLite FTS5's: `"phrase"`, `pre*`, `NEAR(a b, N)`, AND / OR / NOT (NOT binds
  tightest, then AND, then OR), parentheses; words side by side are ANDed.
- `lucene`: `+must`, `-not`, AND / && , OR / ||, NOT / !, `"phrase"~slop`, `term^boost`,
  `pre*`, parentheses; words side by side take the default operator.
- `legal` (terms and connectors): `&` / AND, `|` / OR, `%` / BUT NOT, `a /5 b` or `a w/5 b`
  (within 5 words, either order), `/s` (20 words) and `/p` (50 words), `root!` truncation,
  `"phrase"`; words side by side take the default operator.

A query word that the analyzer splits into several terms is a phrase of them.  `QueryError`
carries the message a caller shows.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

SYNTAXES = ("words", "legal", "lucene", "fts5")


class QueryError(ValueError):
    pass


@dataclass(frozen=True, slots=True)
class Term:
    term: str
    prefix: bool = False
    boost: float = 1.0


@dataclass(frozen=True, slots=True)
class Phrase:
    terms: tuple[str, ...]
    slop: int = 0           # phrase: extra positions allowed between the terms, in order
    near: int | None = None  # NEAR / proximity: all terms within this many words, any order
    boost: float = 1.0
    prefixes: tuple[bool, ...] = ()   # per term: a truncated word (`breach!`), matching by prefix


@dataclass(frozen=True, slots=True)
class Bool:
    must: tuple = ()
    should: tuple = ()
    must_not: tuple = ()


Node = Term | Phrase | Bool


def leaves(q) -> list:
    """The positive leaves (terms and phrases that count in the score), in query order."""
    if isinstance(q, Bool):
        out: list = []
        for part in q.must + q.should:
            out.extend(leaves(part))
        return out
    return [q]


def render(q) -> str:
    if isinstance(q, Term):
        s = q.term + ("*" if q.prefix else "")
        return s + (f"^{q.boost:g}" if q.boost != 1.0 else "")
    if isinstance(q, Phrase):
        inner = " ".join(t + ("*" if q.prefixes and q.prefixes[i] else "") for i, t in enumerate(q.terms))
        if q.near is not None:
            s = f"NEAR({inner}, {q.near})"
        else:
            s = f'"{inner}"' + (f"~{q.slop}" if q.slop else "")
        return s + (f"^{q.boost:g}" if q.boost != 1.0 else "")
    parts = []
    if q.must and not q.should:
        parts.append(" AND ".join(_wrap(p) for p in q.must))
    elif q.should and not q.must:
        parts.append(" OR ".join(_wrap(p) for p in q.should))
    elif q.must:
        parts.append(" ".join(["+" + _wrap(p) for p in q.must] + [_wrap(p) for p in q.should]))
    text = " ".join(parts)
    if q.must_not and len(q.must) + len(q.should) > 1:
        text = f"({text})"
    for p in q.must_not:
        text = (text + " NOT " if text else "NOT ") + _wrap(p)
    return text


def _wrap(q) -> str:
    s = render(q)
    return f"({s})" if isinstance(q, Bool) else s


def _combine(op: str, items: list):
    flat: list = []
    for it in items:
        if isinstance(it, Bool) and not it.must_not and (
                (op == "AND" and it.must and not it.should) or (op == "OR" and it.should and not it.must)):
            flat.extend(it.must if op == "AND" else it.should)
        else:
            flat.append(it)
    if len(flat) == 1:
        return flat[0]
    return Bool(must=tuple(flat)) if op == "AND" else Bool(should=tuple(flat))


def _and_not(left, right):
    if left is None:
        raise QueryError("NOT needs something before it to exclude from")
    if isinstance(left, Bool) and not (left.must and left.should):
        return Bool(left.must, left.should, left.must_not + (right,))
    return Bool(must=(left,), must_not=(right,))


# ---------------------------------------------------------------- lexing

_TOKEN = {
    "fts5": re.compile(r'\s*(?:(?P<q>"(?:[^"]|"")*")|(?P<lp>\()|(?P<rp>\))|(?P<near>NEAR\()|(?P<comma>,)'
                       r'|(?P<op>AND|OR|NOT)(?=[\s()"]|$)|(?P<w>[^\s()",]+))'),
    "lucene": re.compile(r'\s*(?:(?P<q>"[^"]*")(?:~(?P<slop>\d+))?(?:\^(?P<qb>\d+(?:\.\d+)?))?|(?P<lp>\()|(?P<rp>\))'
                         r'|(?P<op>AND|OR|NOT|&&|\|\||!)(?=[\s()"]|$)|(?P<mod>[+-])(?=\S)'
                         r'|(?P<w>[^\s()"^]+)(?:\^(?P<wb>\d+(?:\.\d+)?))?)'),
    "legal": re.compile(r'\s*(?:(?P<q>"[^"]*")|(?P<lp>\()|(?P<rp>\))'
                        r'|(?P<prox>(?:w)?/(?:\d+|s|p))(?=[\s()"]|$)'
                        r'|(?P<op>AND|OR|&|\||%|BUT\s+NOT)(?=[\s()"]|$)|(?P<w>[^\s()"&|%]+))'),
}


_KINDS = ("q", "lp", "rp", "near", "comma", "prox", "op", "mod", "w")


def _lex(syntax: str, text: str) -> list[tuple[str, re.Match]]:
    rx = _TOKEN[syntax]
    out, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        m = rx.match(text, pos)
        if m is None or m.end() == pos:
            raise QueryError(f"cannot read the query at character {pos + 1}: {text[pos:pos + 20]!r}")
        kind = next((k for k in _KINDS if m.groupdict().get(k) is not None), "")
        out.append((kind, m))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, syntax: str, text: str, analyzer, default_and: bool) -> None:
        self.syntax = syntax
        self.analyzer = analyzer
        self.default_and = default_and
        self.toks = _lex(syntax, text)
        self.i = 0

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else (None, None)

    def take(self):
        tok = self.toks[self.i]
        self.i += 1
        return tok

    # leaves ---------------------------------------------------------
    def word(self, raw: str, boost: float = 1.0):
        prefix = False
        trunc = "!" if self.syntax == "legal" else "*"
        if raw.endswith(trunc) and len(raw) > 1:
            raw, prefix = raw[:-1], True
        if prefix:
            base = self.analyzer.terms(raw)
            if len(base) != 1:
                raise QueryError(f"a prefix must be one word: {raw!r}")
            # a prefix is matched before stemming: the stem of a fragment is no stem
            return Term(_unstemmed(self.analyzer, raw) or base[0], True, boost)
        terms = self.analyzer.terms(raw)
        if not terms:
            return None
        if len(terms) == 1:
            return Term(terms[0], False, boost)
        return Phrase(tuple(terms), boost=boost)

    def phrase(self, inner: str, slop: int = 0, boost: float = 1.0):
        terms = self.analyzer.terms(inner)
        if not terms:
            return None
        if len(terms) == 1:
            return Term(terms[0], False, boost)
        return Phrase(tuple(terms), slop=slop, boost=boost)

    # grammar --------------------------------------------------------
    def parse(self):
        if self.syntax == "words":
            raise AssertionError
        q = self.or_expr()
        if self.i < len(self.toks):
            kind, m = self.peek()
            raise QueryError(f"unexpected {m.group().strip()!r} at character {m.start() + 1}")
        if q is None:
            raise QueryError("the query has no words to search for")
        return q

    def _is_op(self, names) -> bool:
        kind, m = self.peek()
        return kind == "op" and re.sub(r"\s+", " ", m.group("op")) in names

    def or_expr(self):
        items = [self.and_expr()]
        while self._is_op(("OR", "||", "|")):
            self.take()
            items.append(self.and_expr())
        items = [x for x in items if x is not None]
        return _combine("OR", items) if items else None

    def and_expr(self):
        left = self.not_expr()
        implicit: list = []
        while True:
            kind, m = self.peek()
            if self._is_op(("AND", "&&", "&")):
                self.take()
                right = self.not_expr()
                left = _combine("AND", [x for x in (left, right) if x is not None]) if (left or right) else None
            elif kind in ("q", "lp", "w", "near", "mod") or (kind == "op" and m.group("op") in ("NOT", "!")
                                                             and self.syntax == "lucene" and left is None):
                implicit.append(left)
                left = self.not_expr()
            else:
                break
        if implicit:
            items = [x for x in implicit + [left] if x is not None]
            if self.syntax == "lucene":
                return self._lucene_group(items)
            op = "AND" if (self.syntax == "fts5" or self.default_and) else "OR"
            return _combine(op, items) if items else None
        if self.syntax == "lucene" and isinstance(left, _Mod):
            return self._lucene_group([left])
        return left

    def _lucene_group(self, items):
        must, should, nots = [], [], []
        for it in items:
            if isinstance(it, _Mod):
                (must if it.sign == "+" else nots).append(it.q)
            elif self.default_and:
                must.append(it)
            else:
                should.append(it)
        if nots and not must and not should:
            raise QueryError("a query of exclusions only matches nothing to exclude from")
        if len(must) == 1 and not should and not nots:
            return must[0]
        if len(should) == 1 and not must and not nots:
            return should[0]
        if not must and not nots:
            return _combine("OR", should)
        if not should and not nots:
            return _combine("AND", must)
        return Bool(tuple(must), tuple(should), tuple(nots))

    def not_expr(self):
        left = self.prox_expr()
        while self._is_op(("NOT", "!", "%", "BUT NOT")):
            self.take()
            right = self.prox_expr()
            if right is None:
                raise QueryError("NOT needs something after it")
            left = _and_not(left, right)
        return left

    def prox_expr(self):
        left = self.unary()
        while self.syntax == "legal" and self.peek()[0] == "prox":
            _, m = self.take()
            spec = m.group("prox").split("/")[1]
            n = {"s": 20, "p": 50}.get(spec) or int(spec)
            right = self.unary()
            terms = _terms_of(left) + _terms_of(right)
            left = Phrase(tuple(t for t, _ in terms), near=n, prefixes=tuple(p for _, p in terms))
        return left

    def unary(self):
        kind, m = self.peek()
        if kind is None:
            raise QueryError("the query ends where a word was expected")
        if kind == "lp":
            self.take()
            q = self.or_expr()
            if self.peek()[0] != "rp":
                raise QueryError("a parenthesis is not closed")
            self.take()
            return q
        if kind == "mod":
            self.take()
            q = self.unary()
            return _Mod(m.group("mod"), q) if q is not None else None
        if kind == "op" and self.syntax == "lucene" and m.group("op") in ("NOT", "!"):
            self.take()
            q = self.unary()
            return _Mod("-", q) if q is not None else None
        if kind == "near":
            self.take()
            words = []
            n = 10
            while True:
                k2, m2 = self.take() if self.i < len(self.toks) else (None, None)
                if k2 is None:
                    raise QueryError("NEAR( is not closed")
                if k2 == "rp":
                    break
                if k2 == "comma":
                    k3, m3 = self.take()
                    if k3 != "w" or not m3.group("w").isdigit():
                        raise QueryError("NEAR(..., N) needs a number after the comma")
                    n = int(m3.group("w"))
                    continue
                if k2 == "q":
                    words.extend(self.analyzer.terms(m2.group("q")[1:-1]))
                elif k2 == "w":
                    words.extend(self.analyzer.terms(m2.group("w")))
                else:
                    raise QueryError(f"NEAR takes words, not {m2.group().strip()!r}")
            return Phrase(tuple(words), near=n) if len(words) > 1 else (Term(words[0]) if words else None)
        if kind == "q":
            self.take()
            inner = m.group("q")[1:-1].replace('""', '"')
            slop = int(m.group("slop")) if self.syntax == "lucene" and m.group("slop") else 0
            boost = float(m.group("qb")) if self.syntax == "lucene" and m.group("qb") else 1.0
            return self.phrase(inner, slop, boost)
        if kind == "w":
            self.take()
            raw = m.group("w")
            boost = float(m.group("wb")) if self.syntax == "lucene" and m.group("wb") else 1.0
            if self.syntax == "lucene" and re.search(r"~\d*$", raw):
                raise QueryError(f"fuzzy terms are not supported: {raw!r}")
            if ":" in raw and self.syntax in ("lucene", "fts5"):
                raise QueryError(f"field prefixes are not supported in the query text (use fields): {raw!r}")
            return self.word(raw, boost)
        raise QueryError(f"unexpected {m.group().strip()!r} at character {m.start() + 1}")


@dataclass(frozen=True, slots=True)
class _Mod:
    sign: str
    q: object


def _terms_of(q) -> list[tuple[str, bool]]:
    if isinstance(q, Term):
        return [(q.term, q.prefix)]
    if isinstance(q, Phrase):
        return [(t, bool(q.prefixes) and q.prefixes[i]) for i, t in enumerate(q.terms)]
    if q is None:
        return []
    raise QueryError("a proximity connector joins words or phrases, not groups")


def _unstemmed(analyzer, raw: str) -> str:
    from .analyzers import ANALYZERS
    base = ANALYZERS[analyzer.name.replace("+stem", "")] if analyzer.stem else analyzer
    t = base.terms(raw)
    return t[0] if len(t) == 1 else ""


def parse(text: str, syntax: str, analyzer, default_and: bool = False):
    """The query tree of `text`; `QueryError` when it cannot be read or has no words."""
    if syntax == "words":
        terms = analyzer.terms(text)
        if not terms:
            raise QueryError("the query has no words to search for")
        seen: dict[str, None] = dict.fromkeys(terms)
        items = [Term(t) for t in seen]
        return _combine("AND" if default_and else "OR", items)
    p = _Parser(syntax, text, analyzer, default_and)
    q = p.parse()
    if isinstance(q, _Mod):
        if q.sign == "-":
            raise QueryError("a query of exclusions only matches nothing to exclude from")
        q = q.q
    return q
