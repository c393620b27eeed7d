"""The options of a full-text search (as the `fulltext_search` tool and `db.fulltextSearch` take
them, a map) -> a checked `Options`.  A value it does not take raises FulltextOptionInvalid."""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import E
from ..temporal.instant import parse_ns
from .analyzers import NAMES
from .query import SYNTAXES

# the options only a declared index answers (with index "auto", their presence needs one)
DECLARED_ONLY = ("syntax", "default_operator", "order", "cursor", "max_expansions", "snippets", "total",
                 "at_valid", "at_recorded", "fields", "filter", "node_ids", "filter_statistics",
                 "matched_terms", "excerpt", "group_by")
KNOWN = ("analyzer", "index") + DECLARED_ONLY
MAX_K = 1000


@dataclass(frozen=True, slots=True)
class Options:
    k: int = 10
    analyzer: str | None = None
    index: str = "auto"
    syntax: str = "words"
    default_and: bool = False
    order: str = "score"
    cursor: str | None = None
    max_expansions: int = 50
    snippets: int = 0                 # tokens per snippet; 0: none
    total: bool = True
    fields: tuple[tuple[str, float], ...] = ()
    filter: tuple[tuple[str, object], ...] = ()
    node_ids: frozenset[int] | None = None
    filter_statistics: bool = False
    matched_terms: bool = False
    excerpt: int = 0                  # characters; 0: none
    group_by: str | None = None
    at_valid: str | None = None       # ISO-8601: search the text valid then ...
    at_recorded: str | None = None    # ... as recorded then (scope.py)
    declared_only: tuple[str, ...] = ()   # the declared-only options the call gave


def _bad(detail: str):
    return E.Argument.FulltextOptionInvalid(detail=detail)


def _int(name: str, v, lo: int, hi: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise _bad(f"{name} must be an integer from {lo} to {hi}, got {v!r}")
    return v


def _bool(name: str, v) -> bool:
    if not isinstance(v, bool):
        raise _bad(f"{name} must be true or false, got {v!r}")
    return v


def parse_options(prop: str, k, given: dict | None) -> Options:
    given = {key: v for key, v in (given or {}).items() if v is not None}
    for key in given:
        if key not in KNOWN:
            raise _bad(f"unknown option {key!r} (options: {', '.join(KNOWN)})")
    out: dict = {"k": _int("k", k, 1, MAX_K)}
    out["declared_only"] = tuple(key for key in DECLARED_ONLY if key in given)
    if "analyzer" in given:
        if given["analyzer"] not in NAMES:
            raise _bad(f"analyzer must be one of {', '.join(NAMES)}, got {given['analyzer']!r}")
        out["analyzer"] = given["analyzer"]
    if "index" in given:
        if given["index"] not in ("auto", "declared", "adhoc"):
            raise _bad(f"index must be auto, declared or adhoc, got {given['index']!r}")
        out["index"] = given["index"]
    if "syntax" in given:
        if given["syntax"] not in SYNTAXES:
            raise _bad(f"syntax must be one of {', '.join(SYNTAXES)}, got {given['syntax']!r}")
        out["syntax"] = given["syntax"]
    if "default_operator" in given:
        op = given["default_operator"]
        if not isinstance(op, str) or op.upper() not in ("AND", "OR"):
            raise _bad(f"default_operator must be AND or OR, got {op!r}")
        out["default_and"] = op.upper() == "AND"
    if "order" in given:
        if given["order"] not in ("score", "node_id"):
            raise _bad(f"order must be score or node_id, got {given['order']!r}")
        out["order"] = given["order"]
    if "cursor" in given:
        if not isinstance(given["cursor"], str):
            raise _bad("cursor must be the string a previous page returned")
        out["cursor"] = given["cursor"]
    if "max_expansions" in given:
        out["max_expansions"] = _int("max_expansions", given["max_expansions"], 1, 1000)
    if "snippets" in given:
        v = given["snippets"]
        out["snippets"] = (16 if v else 0) if isinstance(v, bool) else _int("snippets", v, 1, 64)
    if "total" in given:
        out["total"] = _bool("total", given["total"])
    if "fields" in given:
        out["fields"] = _fields(prop, given["fields"])
    if "filter" in given:
        f = given["filter"]
        if not isinstance(f, dict) or not all(isinstance(key, str) for key in f):
            raise _bad("filter must be a map of property name to value")
        out["filter"] = tuple(f.items())
    if "node_ids" in given:
        ids = given["node_ids"]
        if not isinstance(ids, (list, tuple)) or not all(isinstance(i, int) and not isinstance(i, bool) for i in ids):
            raise _bad("node_ids must be a list of integer node ids")
        out["node_ids"] = frozenset(ids)
    for name in ("filter_statistics", "matched_terms"):
        if name in given:
            out[name] = _bool(name, given[name])
    if "excerpt" in given:
        v = given["excerpt"]
        out["excerpt"] = (160 if v else 0) if isinstance(v, bool) else _int("excerpt", v, 20, 2000)
    if "group_by" in given:
        if not isinstance(given["group_by"], str):
            raise _bad("group_by must be a property name")
        out["group_by"] = given["group_by"]
    for name in ("at_valid", "at_recorded"):
        if name in given:
            v = given[name]
            if not isinstance(v, str) or parse_ns(v) is None:
                raise _bad(f"{name} must be an ISO-8601 date or date time, got {v!r}")
            out[name] = v
    return Options(**out)


def _fields(prop: str, v) -> tuple[tuple[str, float], ...]:
    if isinstance(v, (list, tuple)):
        pairs = [(f, 1.0) for f in v]
    elif isinstance(v, dict):
        pairs = list(v.items())
    else:
        raise _bad("fields must be a list of property names or a map of property name to weight")
    out = []
    for name, w in pairs:
        if not isinstance(name, str):
            raise _bad("fields must name properties")
        if isinstance(w, bool) or not isinstance(w, (int, float)) or not w > 0:
            raise _bad(f"the weight of field {name!r} must be a positive number, got {w!r}")
        out.append((name, float(w)))
    if prop not in [n for n, _ in out]:
        raise _bad(f"fields must include the searched property {prop!r}")
    return tuple(out)
