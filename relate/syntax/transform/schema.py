"""Transformer rules for schema commands: CREATE/DROP INDEX and CREATE/DROP CONSTRAINT ->
`ast.CreateIndex`, `ast.DropIndex`, `ast.CreateConstraint`, `ast.DropConstraint` (with the checks
the grammar cannot make: one label, the pattern's variable, which constraint kinds take several
properties, the property type), and `SHOW [...] INDEXES | CONSTRAINTS` -> the query it stands for:
a call of the listing procedure yielding every column, a WITH for the YIELD (its ORDER BY, SKIP,
LIMIT and WHERE) and a RETURN (the user's, or the yielded or default columns)."""
from __future__ import annotations

from lark import Token, v_args

from ...storage import schema_show as S
from ...storage.schema_types import TypeError_, normalize_type
from .. import ast as A
from .base import start_of

_INVALID = "InvalidSchemaCommand"


def _tagged(c, tag):
    return next((x for x in c if isinstance(x, tuple) and x and x[0] == tag), None)


def _has(c, type_: str) -> bool:
    return any(isinstance(x, Token) and x.type == type_ for x in c)


def _name(c):
    return next((x for x in c if isinstance(x, A.Parameter) or (isinstance(x, str) and not isinstance(x, Token))),
                None)


# SHOW <words> CONSTRAINTS -> the listing procedure's filter argument
_CONSTRAINT_FILTERS = {
    (): "", ("ALL",): "",
    ("UNIQUE",): "|UNIQUENESS", ("UNIQUENESS",): "|UNIQUENESS",
    ("EXIST",): "|EXISTENCE", ("EXISTENCE",): "|EXISTENCE", ("PROPERTY", "EXIST"): "|EXISTENCE",
    ("PROPERTY", "EXISTENCE"): "|EXISTENCE",
    ("KEY",): "|KEY", ("PROPERTY", "TYPE"): "|PROPERTY_TYPE",
}
for _words, _f in list(_CONSTRAINT_FILTERS.items()):
    if _words and _words != ("ALL",):
        _CONSTRAINT_FILTERS[("NODE",) + _words] = "NODE" + _f
        _CONSTRAINT_FILTERS[("RELATIONSHIP",) + _words] = "RELATIONSHIP" + _f
        _CONSTRAINT_FILTERS[("REL",) + _words] = "RELATIONSHIP" + _f
_INDEX_FILTERS = {(): "", ("ALL",): "", ("RANGE",): "RANGE", ("TEXT",): "TEXT", ("POINT",): "POINT",
                  ("FULLTEXT",): "FULLTEXT", ("LOOKUP",): "LOOKUP", ("VECTOR",): "VECTOR"}


class SchemaRules:
    """Mixed into `transform.Build`; `BuildBase` gives `text`, `_err` and `_int`."""

    # ---------------------------------------------------------------- pieces
    def schema_name(self, c):
        return c[0]

    def index_kind(self, c):
        return ("kind", str(c[0]).upper(), c[0].start_pos or 0)

    def schema_labels(self, c):
        return ("labels", tuple(x for x in c if not (isinstance(x, Token) and x.type == "LABEL_BAR")))

    def schema_node(self, c):
        var = next((x.name for x in c if isinstance(x, A.Variable)), None)
        labels = _tagged(c, "labels")
        return ("node", var, labels[1] if labels else ())

    def schema_rel(self, c):
        var = next((x.name for x in c if isinstance(x, A.Variable)), None)
        labels = _tagged(c, "labels")
        return ("rel", var, labels[1] if labels else ())

    @v_args(meta=True)
    def schema_node_pattern(self, meta, c):
        _, var, labels = c[0]
        return ("pattern", "NODE", var, labels, start_of(meta))

    @v_args(meta=True)
    def schema_rel_pattern(self, meta, c):
        left, rel, right = c
        if left[1:] != (None, ()) or right[1:] != (None, ()):
            raise self._err("a relationship schema is written FOR ()-[r:TYPE]-(), with empty nodes",
                            start_of(meta), _INVALID)
        return ("pattern", "RELATIONSHIP", rel[1], rel[2], start_of(meta))

    @v_args(meta=True)
    def schema_prop(self, meta, c):
        return ("prop", c[0].name, c[1], start_of(meta))

    def index_props(self, c):
        return ("on", "props", tuple(c))

    def index_each(self, c):
        return ("on", "each", tuple(x for x in c if isinstance(x, tuple)))

    def index_lookup(self, c):
        return ("on", "lookup", (str(c[1]), c[2].name))

    def schema_options(self, c):
        return ("options", c[1])

    def constraint_props(self, c):
        return ("cprops", tuple(c))

    def constraint_entity(self, c):
        return str(c[0]).upper()

    def constraint_unique(self, c):
        return ("is", "unique", next((x for x in c if isinstance(x, str) and not isinstance(x, Token)), None), None)

    def constraint_key(self, c):
        return ("is", "key", next((x for x in c if isinstance(x, str) and not isinstance(x, Token)), None), None)

    def constraint_not_null(self, c):
        return ("is", "not_null", None, None)

    @v_args(meta=True)
    def constraint_typed(self, meta, c):
        return ("is", "type", None, (c[-1], start_of(meta)))

    # ---------------------------------------------------------------- the checks they share
    def _schema_props(self, pattern, props, what):
        _, entity, var, labels, pos = pattern
        keys = []
        for _, v, key, ppos in props:
            if v != var:
                raise self._err(f"{what} properties must be properties of the pattern's variable", ppos, _INVALID)
            keys.append(key)
        return keys

    # ---------------------------------------------------------------- indexes
    @v_args(meta=True)
    def create_index(self, meta, c):
        pos = start_of(meta)
        kind_t = _tagged(c, "kind")
        kind = kind_t[1] if kind_t else "RANGE"
        pattern = _tagged(c, "pattern")
        on = _tagged(c, "on")
        _, entity, var, labels, ppos = pattern
        if kind in ("LOOKUP", "VECTOR"):
            raise self._err(f"{kind} indexes are not supported by relate"
                            + (" (label and relationship type lookups are built in)" if kind == "LOOKUP" else ""),
                            kind_t[2], "UnsupportedClause")
        if on[1] == "lookup":
            raise self._err("ON EACH labels(n) / type(r) declares a LOOKUP index", pos, _INVALID)
        if (on[1] == "each") != (kind == "FULLTEXT"):
            raise self._err("a FULLTEXT index is declared ON EACH [n.a, ...]; other indexes ON (n.a, ...)"
                            if kind == "FULLTEXT" else "ON EACH [...] declares a FULLTEXT index", pos, _INVALID)
        if len(labels) != 1 and not (kind == "FULLTEXT" and labels):
            what = "label" if entity == "NODE" else "relationship type"
            raise self._err(f"an index is declared on one {what}: "
                            + ("FOR (n:Label)" if entity == "NODE" else "FOR ()-[r:TYPE]-()"), ppos, _INVALID)
        keys = self._schema_props(pattern, on[2], "index")
        if kind in ("TEXT", "POINT") and len(keys) != 1:
            raise self._err(f"a {kind} index is declared on one property", pos, _INVALID)
        if_not = _has(c, "NOT")
        return A.CreateIndex(_name(c), labels[0], var, tuple(keys), if_not, pos, kind, entity, tuple(labels[1:]))

    @v_args(meta=True)
    def legacy_index(self, meta, c):
        raise self._err("CREATE INDEX ON :Label(property) is Neo4j 4 syntax, removed in Neo4j 5: write "
                        "CREATE INDEX [name] FOR (n:Label) ON (n.property)", start_of(meta), "RemovedSyntax")

    @v_args(meta=True)
    def drop_index(self, meta, c):
        return A.DropIndex(_name(c), _has(c, "EXISTS"), start_of(meta))

    # ---------------------------------------------------------------- constraints
    @v_args(meta=True)
    def create_constraint(self, meta, c):
        pos = start_of(meta)
        pattern = _tagged(c, "pattern")
        _, entity, var, labels, ppos = pattern
        rel = entity == "RELATIONSHIP"
        if len(labels) != 1:
            raise self._err("a constraint is declared on one " + ("relationship type: FOR ()-[r:TYPE]-()" if rel
                                                                  else "label: FOR (n:Label)"), ppos, _INVALID)
        if var is None:
            raise self._err("a constraint's pattern names a variable: "
                            + ("FOR ()-[r:TYPE]-()" if rel else "FOR (n:Label)"), ppos, _INVALID)
        props = _tagged(c, "cprops")[1]
        keys = self._schema_props(pattern, props, "constraint")
        _, kind, word, typed = _tagged(c, "is")
        if word is not None and (word == "NODE") == rel:
            raise self._err(f"IS {word} {kind.upper()} does not fit a "
                            + ("relationship" if rel else "node") + " pattern", pos, _INVALID)
        if kind in ("not_null", "type") and len(keys) != 1:
            what = "IS NOT NULL" if kind == "not_null" else "IS :: <type>"
            raise self._err(f"a {what} constraint is declared on one property", pos, _INVALID)
        if len(set(keys)) != len(keys):
            raise self._err("a constraint names each property once", pos, _INVALID)
        ptype = None
        if typed is not None:
            try:
                ptype = normalize_type(typed[0])
            except TypeError_ as exc:
                raise self._err(f"invalid property type {exc}", typed[1], "InvalidConstraintType") from None
        return A.CreateConstraint(_name(c), labels[0], var, tuple(keys), kind, ptype, _has(c, "NOT"), entity, pos)

    @v_args(meta=True)
    def legacy_constraint(self, meta, c):
        raise self._err("CREATE CONSTRAINT ON ... ASSERT is Neo4j 4 syntax, removed in Neo4j 5: write "
                        "CREATE CONSTRAINT [name] FOR (n:Label) REQUIRE n.property IS UNIQUE", start_of(meta),
                        "RemovedSyntax")

    @v_args(meta=True)
    def drop_constraint(self, meta, c):
        return A.DropConstraint(_name(c), _has(c, "EXISTS"), start_of(meta))

    # ---------------------------------------------------------------- SHOW
    def show_word(self, c):
        return ("word", str(c[0]).upper(), c[0].start_pos or 0)

    def show_target(self, c):
        return ("target", str(c[0]).upper())

    def show_yield(self, c):
        star = _has(c, "STAR")
        items = tuple(x for x in c if isinstance(x, A.YieldItem))
        return ("show_yield", star, items, _tagged(c, "order"), _tagged(c, "skip"), _tagged(c, "limit"),
                _tagged(c, "where"))

    @v_args(meta=True)
    def show_command(self, meta, c):
        pos = start_of(meta)
        words = tuple(x[1] for x in c if isinstance(x, tuple) and x[0] == "word")
        indexes = _tagged(c, "target")[1].startswith("INDEX")
        table = _INDEX_FILTERS if indexes else _CONSTRAINT_FILTERS
        if words not in table:
            first = next(x for x in c if isinstance(x, tuple) and x[0] == "word")
            raise self._err(f"SHOW {' '.join(words)} {'INDEXES' if indexes else 'CONSTRAINTS'}: not a kind of "
                            + ("index" if indexes else "constraint") + " relate lists", first[2], _INVALID)
        proc = S.SHOW_INDEXES if indexes else S.SHOW_CONSTRAINTS
        columns = S.INDEX_COLUMNS if indexes else S.CONSTRAINT_COLUMNS
        default = S.INDEX_DEFAULT if indexes else S.CONSTRAINT_DEFAULT
        yielded = _tagged(c, "show_yield")
        ret = next((x for x in c if isinstance(x, A.Return)), None)
        where = _tagged(c, "where")
        if where is not None and yielded is not None:
            raise self._err("SHOW takes WHERE after YIELD (SHOW ... YIELD columns WHERE condition), or WHERE "
                            "alone", getattr(where[1], "pos", pos), _INVALID)
        call = A.Call(proc, (A.Literal(table[words], pos),), tuple(A.YieldItem(n, None) for n in columns),
                      False, where[1] if where is not None and yielded is None else None, pos)
        clauses: list = [call]
        if yielded is None:
            shown = default
        else:
            _, star, items, order, skip, limit, ywhere = yielded
            names = columns if star else tuple(y.alias or y.name for y in items)
            proj = tuple(A.ProjectionItem(A.Variable(y, pos), None, y, pos) for y in columns) if star else tuple(
                A.ProjectionItem(A.Variable(y.name, pos), y.alias, y.alias or y.name, pos) for y in items)
            clauses.append(A.With(A.Projection(proj, False, False, order[1] if order else (),
                                               skip[1] if skip else None, limit[1] if limit else None),
                                  ywhere[1] if ywhere else None, pos))
            shown = names
        if ret is None:
            ret = A.Return(A.Projection(tuple(A.ProjectionItem(A.Variable(n, pos), None, n, pos) for n in shown)), pos)
        clauses.append(ret)
        return A.Query((A.SingleQuery(tuple(clauses)),))
