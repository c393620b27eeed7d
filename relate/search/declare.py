"""`db.createFulltextIndex(label, property, options)` -> a declared full-text index: a FULLTEXT
`IndexDef` on the graph (stored with the schema as any index is, its analyzer among its options;
the postings are rebuilt from the nodes on load, see `state.py`).  Declaring the same index
again is a no-op answering its name; the same (label, property) with another analyzer is refused.
"""
from __future__ import annotations

import re

from ..errors import E
from ..storage.schema_defs import IndexDef
from .analyzers import DEFAULT, NAMES
from .state import FULLTEXT, declared_analyzer

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def create_fulltext_index(graph, label, prop, options: dict | None = None) -> IndexDef:
    if not isinstance(label, str) or not label or not isinstance(prop, str) or not prop:
        raise E.Argument.FulltextOptionInvalid(detail="label and property must be non-empty strings")
    opts = {k: v for k, v in (options or {}).items() if v is not None}
    for key in opts:
        if key not in ("analyzer", "name"):
            raise E.Argument.FulltextOptionInvalid(detail=f"unknown index option {key!r} (options: analyzer, name)")
    analyzer = opts.get("analyzer", DEFAULT)
    if analyzer not in NAMES:
        raise E.Argument.FulltextOptionInvalid(detail=f"analyzer must be one of {', '.join(NAMES)}, got {analyzer!r}")
    name = opts.get("name") or f"fulltext_{label}_{prop}"
    if not isinstance(name, str) or _NAME.fullmatch(name) is None:
        raise E.Argument.FulltextOptionInvalid(detail=f"name must be a word of letters, digits and _, got {name!r}")
    for d in graph.indexes.values():
        if d.type == FULLTEXT and d.entity == "NODE" and label in d.labels and prop in d.keys:
            if declared_analyzer(d) == analyzer:
                return d
            raise E.Argument.FulltextOptionInvalid(
                detail=f"the index {d.name!r} on :{label}({prop}) analyzes with {declared_analyzer(d)!r}; "
                       f"drop it first (DROP INDEX {d.name}) to declare it with {analyzer!r}")
    if name in graph.indexes:
        raise E.Argument.FulltextOptionInvalid(detail=f"an index named {name!r} already exists")
    d = IndexDef(name, label, prop, FULLTEXT, options=(("analyzer", analyzer),))
    graph.create_index(d)
    return d
