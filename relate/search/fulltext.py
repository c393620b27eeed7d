"""A full-text search (label, property, query, k, options) over a graph -> the tool-shaped
answer: {hits: [{node_id, score, ...}], ..., warnings}.

Ad hoc (no declared index, or `index: "adhoc"`): BM25 over the label's property under the asked
analyzer, `words` syntax, hits {node_id, score}.  Declared (`index: "auto"` finds one, or
`"declared"`): every option of `options.py`, hits also with `matches` (how many of the query's
terms the node holds) and what was asked, and the answer with index, total, complete, cursor,
parsed and stale.  A declared hit also has `str_id`, the node's stable string id
(`values/str_ids.py`, what elementId() gives).  Ranking is by score, ties by node id;
`order: "node_id"` lists matches by id.
`scope` (`scope.py`) says who searches and when: its access hook (`visible(node) -> bool`, from
the caller's policy) leaves a node it hides out before the ranking and from the statistics, so it
changes no other score; `at_valid` / `at_recorded` search the history's view of that time.
"""
from __future__ import annotations

import base64
import hashlib
import heapq
import json

from ..errors import E
from ..values.str_ids import node_str_id
from .analyzers import ANALYZERS, DEFAULT, has_other_letters
from .evaluate import Evaluator, Field
from .options import Options, parse_options
from .passages import excerpt, matched_words, snippet
from .query import QueryError, leaves, parse, render
from .scope import OPEN_SCOPE, Scope
from .state import field_index, state

TOKENIZER_LIMITED = {
    "code": "FULLTEXT_TOKENIZER_LIMITED",
    "message": "the default analyzer matches only words of the letters a-z and the digits 0-9; the query has "
               "other letters or digits, so nodes holding them may be missing (declare an index with "
               "analyzer 'unicode-v2' to search every script)",
}


def fulltext_search(graph, label: str, prop: str, query: str, k: int = 10, options: dict | None = None,
                    scope: Scope = OPEN_SCOPE) -> dict:
    return searched(graph, label, prop, query, k, options, scope)[0]


def searched(graph, label: str, prop: str, query: str, k: int = 10, options: dict | None = None,
             scope: Scope = OPEN_SCOPE) -> tuple[dict, object]:
    """-> (the answer, the graph searched: `graph` or its view at at_valid / at_recorded)."""
    if not isinstance(label, str) or not isinstance(prop, str):
        raise E.Argument.FulltextOptionInvalid(detail="label and property must be strings")
    if not isinstance(query, str):
        raise E.Argument.FulltextOptionInvalid(detail="query must be a string")
    opts = parse_options(prop, k, options)
    # at_valid / at_recorded: the history's view of that time, with its own (cached) indexes
    graph = scope.at(graph, opts.at_valid, opts.at_recorded)
    visible = scope.visible(label, prop)
    st = state(graph)
    declared = st.declared.get((label, prop))
    if opts.index == "declared" and declared is None:
        raise E.Argument.FulltextIndexNotFound(label=label, property=prop, why='index: "declared"')
    if opts.index == "adhoc" or declared is None:
        if opts.declared_only:
            raise E.Argument.FulltextIndexNotFound(
                label=label, property=prop, why=f"{opts.declared_only[0]} needs a declared index")
        return _adhoc(graph, st, label, prop, query, opts, visible), graph
    if opts.analyzer is not None and opts.analyzer != declared[0]:
        raise E.Argument.FulltextOptionInvalid(
            detail=f"the index {declared[1]!r} analyzes with {declared[0]!r}, not {opts.analyzer!r} "
                   "(send index: \"adhoc\" to search with another analyzer)")
    return _declared(graph, st, label, prop, query, opts, visible), graph


def best(scores: dict[int, float], k: int) -> list[tuple[int, float]]:
    """The k best (doc, score) pairs, ties by doc id.  The scan keys on the map's own lookup and
    builds no tuple per document (a pair per match for tens of thousands of matches costs more
    than the scoring); only the ties at the k-th score are sorted apart."""
    if len(scores) <= k:
        return sorted(scores.items(), key=lambda it: (-it[1], it[0]))
    top = heapq.nlargest(k, scores, key=scores.__getitem__)
    kth = scores[top[-1]]
    # documents tied with the k-th may lie outside `top`: the smallest ids of the tie win
    ahead = [d for d in top if scores[d] > kth]
    tied = sorted(d for d, s in scores.items() if s == kth)
    top = ahead + tied[:k - len(ahead)]
    return sorted(((d, scores[d]) for d in top), key=lambda it: (-it[1], it[0]))


def _warnings(analyzer, query: str) -> list[dict]:
    return [dict(TOKENIZER_LIMITED)] if not analyzer.unicode and has_other_letters(query) else []


def _hidden(graph, idx, visible) -> set[int] | None:
    if visible is None:
        return None
    nodes = graph.nodes
    return {d for d in idx.lengths if not visible(nodes[d])}


def _parse(query: str, syntax: str, analyzer, default_and: bool):
    try:
        return parse(query, syntax, analyzer, default_and)
    except QueryError as e:
        raise E.Argument.FulltextQueryInvalid(detail=str(e)) from None


def _adhoc(graph, st, label, prop, query, opts: Options, visible) -> dict:
    an = ANALYZERS[opts.analyzer or DEFAULT]
    idx = field_index(graph, st, label, prop, an.name)
    warnings = _warnings(an, query)
    terms = list(dict.fromkeys(an.terms(query)))
    stats = idx.stats(_hidden(graph, idx, visible))
    scores: dict[int, float] = {}
    for t in terms:
        for d, s in stats.scores(t).items():
            scores[d] = scores.get(d, 0.0) + s
    top = best(scores, opts.k)
    return {"hits": [{"node_id": d, "score": s} for d, s in top], "warnings": warnings}


# ---------------------------------------------------------------- declared

def _generation(st, fields) -> int:
    return sum(f.index.generation for f in fields) + 7 * len(st.dirty)


def _cursor_key(label, prop, query, opts: Options) -> str:
    basis = json.dumps([label, prop, query, opts.syntax, opts.default_and, opts.order, list(opts.fields),
                        repr(opts.filter), sorted(opts.node_ids or ()), opts.group_by, opts.max_expansions,
                        opts.at_valid, opts.at_recorded],
                       sort_keys=True, default=repr)
    return hashlib.blake2b(basis.encode(), digest_size=8).hexdigest()


def _encode_cursor(data: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(data, separators=(",", ":")).encode()).decode().rstrip("=")


def _decode_cursor(text: str, key: str) -> dict:
    try:
        data = json.loads(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))
        if not isinstance(data, dict) or data.get("q") != key:
            raise ValueError
        return data
    except (ValueError, TypeError):
        raise E.Argument.FulltextOptionInvalid(
            detail="cursor is not one this search returned (pass the cursor of the previous page of the same "
                   "query and options)") from None


def _declared(graph, st, label, prop, query, opts: Options, visible) -> dict:
    an_name, index_name = st.declared[(label, prop)]
    an = ANALYZERS[an_name]
    nodes = graph.nodes
    # the fields searched: the property alone, or each of `fields` (each must be declared too)
    wanted = opts.fields or ((prop, 1.0),)
    fidx = []
    for key, w in wanted:
        got = st.declared.get((label, key))
        if got is None:
            raise E.Argument.FulltextIndexNotFound(label=label, property=key, why="fields names it")
        if got[0] != an_name:
            raise E.Argument.FulltextOptionInvalid(
                detail=f"fields {prop!r} and {key!r} are declared with different analyzers")
        fidx.append((key, w, field_index(graph, st, label, key, an_name)))
    allowed: set[int] | None = None
    if opts.filter or opts.node_ids is not None:
        base = fidx[0][2].lengths.keys() if opts.node_ids is None else opts.node_ids
        allowed = {d for d in base if d in nodes and _passes(nodes[d], opts.filter)}
    hidden = set().union(*(_hidden(graph, ix, visible) or () for _, _, ix in fidx))
    hidden_sets = [hidden] * len(fidx)
    if opts.filter_statistics and allowed is not None:
        hidden_sets = [hidden | {d for d in ix.lengths if d not in allowed} for _, _, ix in fidx]
    fields = [Field(key, ix, ix.stats(h), w) for (key, w, ix), h in zip(fidx, hidden_sets)]
    tree = _parse(query, opts.syntax, an, opts.default_and)
    positive = leaves(tree)
    ev = Evaluator(fields, lambda d, key: nodes[d].props.get(key) if d in nodes else None,
                   opts.max_expansions, _visible_allowed(allowed, hidden))
    scored = ev.run(tree, positive).scores
    key_of = (lambda it: (-it[1], it[0])) if opts.order == "score" else (lambda it: (it[0],))
    gen = _generation(st, fields)
    ckey = _cursor_key(label, prop, query, opts)
    stale = False
    items = scored.items()
    if opts.cursor is not None:
        cur = _decode_cursor(opts.cursor, ckey)
        stale = cur.get("g") != gen
        after = tuple(cur["a"])
        items = [it for it in items if key_of(it) > after]
    groups: dict | None = None
    if opts.group_by is not None:
        ordered = sorted(items, key=key_of)
        groups, firsts = {}, []
        for it in sorted(scored.items(), key=key_of):
            g = _group_key(nodes[it[0]].props.get(opts.group_by))
            groups[g] = groups.get(g, 0) + 1
        seen: set = set()
        if opts.cursor is not None:
            # a group shown on an earlier page stays shown: its best hit sorts before the cursor
            for it in sorted(scored.items(), key=key_of):
                if key_of(it) > after:
                    break
                seen.add(_group_key(nodes[it[0]].props.get(opts.group_by)))
        for it in ordered:
            g = _group_key(nodes[it[0]].props.get(opts.group_by))
            if g not in seen:
                seen.add(g)
                firsts.append(it)
        total = len(groups)
        page = firsts[:opts.k]
        more = len(firsts) > opts.k
    else:
        total = len(scored)
        if opts.order == "score" and opts.cursor is None:
            page = best(scored, opts.k + 1)
        else:
            page = heapq.nsmallest(opts.k + 1, items, key=key_of)
        more = len(page) > opts.k
        page = page[:opts.k]
    hits = []
    for d, s in page:
        hits.append(_hit(nodes[d], d, s, ev, positive, fields, an, prop, opts, groups))
    out: dict = {"hits": hits, "index": "declared"}
    if opts.total:
        out["total"] = total
    out["complete"] = not more
    out["cursor"] = _encode_cursor({"q": ckey, "g": gen, "a": list(key_of(page[-1]))}) if more else None
    out["parsed"] = render(tree)
    out["stale"] = stale
    out["warnings"] = _warnings(an, query)
    return out


def _visible_allowed(allowed, hidden):
    """The documents a match may be: those allowed by filter / node_ids, less the hidden ones."""
    if not hidden:
        return allowed
    if allowed is None:
        return _NotIn(hidden)
    return allowed - hidden


class _NotIn:
    """Every document but the hidden ones (`in` only)."""
    __slots__ = ("hidden",)

    def __init__(self, hidden) -> None:
        self.hidden = hidden

    def __contains__(self, d) -> bool:
        return d not in self.hidden


def _passes(node, flt) -> bool:
    from ..values.compare import equals
    for key, want in flt:
        got = node.props.get(key)
        if isinstance(want, list) and not isinstance(got, list):
            if not any(equals(got, w) is True for w in want):
                return False
        elif equals(got, want) is not True:
            return False
    return True


def _group_key(v):
    from ..values.compare import hashable
    return hashable(v)


def _hit(node, d, s, ev, positive, fields, an, prop, opts: Options, groups) -> dict:
    field_scores, terms = ev.details(d, positive)
    hit: dict = {"node_id": d, "str_id": node_str_id(d), "score": s, "matches": len(terms)}
    if opts.fields:
        hit["field_scores"] = {key: field_scores.get(key, 0.0) for key, _ in opts.fields}
    texts = [(f.key, node.props.get(f.key)) for f in fields if isinstance(node.props.get(f.key), str)]
    if opts.matched_terms:
        hit["matched_terms"] = sorted(terms)
        hit["matched_words"] = [w for _, text in texts for w in matched_words(text, an, terms)]
    if opts.snippets:
        hit["snippets"] = [sn for _, text in texts if (sn := snippet(text, an, terms, opts.snippets)) is not None]
    if opts.excerpt:
        main = node.props.get(prop)
        hit["excerpt"] = excerpt(main, an, terms, opts.excerpt) if isinstance(main, str) else None
    if groups is not None:
        g = node.props.get(opts.group_by)
        hit["group"] = g
        hit["group_hits"] = groups[_group_key(g)]
    return hit
