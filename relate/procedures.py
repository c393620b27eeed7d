"""Procedures a statement can `CALL`: signatures, a per-database registry, and the TCK fixtures.

signature text ``ns.name(a :: INTEGER?) :: (out :: STRING?)`` -> `Signature`;
`Signature` + an implementation -> `Procedure`; a database's `ProcedureRegistry` maps the dotted
name to it.  The planner looks a called name up at planning time and checks the argument count and
the yielded names there, so those mistakes are compile-time errors.

`fixture_procedure` is the hook the openCypher TCK needs: it turns a signature and a table of
rows into a procedure answering with the rows whose input columns equal the arguments.

>>> import relate
>>> from relate.procedures import fixture_procedure
>>> db = relate.connect(":memory:")
>>> db.register_procedure(fixture_procedure(
...     "test.double(x :: INTEGER?) :: (y :: INTEGER?)", ["x", "y"], [[1, 2], [2, 4]]))
>>> db.execute("CALL test.double(2) YIELD y RETURN y").rows
[(4,)]
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass


# argument and output types a signature may name; a trailing `?` means the value may be null
TYPES = ("ANY", "INTEGER", "FLOAT", "NUMBER", "STRING", "BOOLEAN", "LIST", "MAP", "NODE",
         "RELATIONSHIP", "PATH")


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    type: str          # one of TYPES
    nullable: bool = True
    optional: bool = False   # `name = null :: T?`: a call may leave it (and those after it) out


@dataclass(frozen=True, slots=True)
class Signature:
    name: str                      # dotted, e.g. "test.my.proc"
    inputs: tuple[Field, ...]
    outputs: tuple[Field, ...]     # () for a void procedure

    @property
    def required(self) -> int:
        """How many arguments a call must pass (the inputs before the first optional one)."""
        return next((i for i, f in enumerate(self.inputs) if f.optional), len(self.inputs))


@dataclass(frozen=True, slots=True)
class Procedure:
    """A callable procedure: `fn(args tuple, ctx) -> iterable of output tuples` (one value per
    output); `ctx` is the running statement's `ExecContext` (its `graph`, `params`, ...)."""

    signature: Signature
    fn: Callable[[tuple, object], Iterable[tuple]]
    writes: bool = False

    @property
    def name(self) -> str:
        return self.signature.name


class ProcedureRegistry:
    """The procedures one database knows, by dotted name (the built-in `db.*` ones to start)."""

    __slots__ = ("_procs",)

    def __init__(self, procedures: Iterable[Procedure] = ()) -> None:
        self._procs: dict[str, Procedure] = {p.name: p for p in procedures}

    def register(self, proc: Procedure) -> None:
        self._procs[proc.name] = proc

    def get(self, name: str) -> Procedure | None:
        return self._procs.get(name)

    def __contains__(self, name: str) -> bool:
        return name in self._procs

    def __len__(self) -> int:
        return len(self._procs)


_FIELD = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(=\s*null\s*)?::\s*([A-Za-z]+)(\?)?\s*")
_SIG = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\((.*?)\)\s*::\s*\((.*?)\)\s*$")


def _fields(text: str) -> tuple[Field, ...]:
    if not text.strip():
        return ()
    out = []
    for part in text.split(","):
        m = _FIELD.fullmatch(part)
        if m is None or m.group(3).upper() not in TYPES:
            raise ValueError(f"bad procedure field: {part.strip()!r}")
        out.append(Field(m.group(1), m.group(3).upper(), m.group(4) == "?", m.group(2) is not None))
    return tuple(out)


def parse_signature(text: str) -> Signature:
    """``ns.name(in :: T?, opt = null :: T?, ...) :: (out :: T?, ...)`` -> `Signature`."""
    m = _SIG.match(text)
    if m is None:
        raise ValueError(f"bad procedure signature: {text!r}")
    return Signature(m.group(1), _fields(m.group(2)), _fields(m.group(3)))


def coerce_argument(field: Field, value):
    """An argument converted to the declared type (an integer passed as FLOAT becomes a float);
    a value of another type raises `ValueError` (the caller words the Cypher error)."""
    if value is None:
        return None
    t = field.type
    if t == "FLOAT" and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if t in ("INTEGER", "FLOAT", "NUMBER"):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(t)
        if t == "INTEGER" and isinstance(value, float):
            raise ValueError(t)
        return value
    if t == "STRING" and not isinstance(value, str):
        raise ValueError(t)
    if t == "BOOLEAN" and not isinstance(value, bool):
        raise ValueError(t)
    return value


def _same(a, b) -> bool:
    """Argument equality for fixture rows: same type and value (both sides already coerced, so
    an integer never equals a float here), null only equal to null."""
    if a is None or b is None:
        return a is None and b is None
    return type(a) is type(b) and a == b


def fixture_procedure(signature: str, header: list[str], rows: list[list]) -> Procedure:
    """The TCK's `there exists a procedure <signature>:` step as a procedure.

    `header` names the inputs then the outputs; `rows` hold values.  A call answers with the
    output part of every row whose input part equals the (coerced) arguments, in table order."""
    sig = parse_signature(signature)
    n_in = len(sig.inputs)
    if header and list(header) != [f.name for f in sig.inputs + sig.outputs]:
        raise ValueError(f"table header {header} does not match the signature {signature!r}")
    table = []
    for row in rows:
        ins = tuple(coerce_argument(f, v) for f, v in zip(sig.inputs, row[:n_in]))
        table.append((ins, tuple(row[n_in:])))

    def call(args: tuple, ctx=None):
        for ins, outs in table:
            if all(_same(a, b) for a, b in zip(args, ins)):
                yield outs
    return Procedure(sig, call)


# ---------------------------------------------------------------- built-in procedures

def _labels(args, ctx):
    return [(lb,) for lb in sorted(lb for lb, nodes in ctx.graph.by_label.items() if nodes)]


def _relationship_types(args, ctx):
    return [(t,) for t in sorted(ctx.graph.relationship_types())]


def _property_keys(args, ctx):
    g = ctx.graph
    keys = set()
    for n in g.nodes.values():
        keys.update(n.props)
    for r in g.rels.values():
        keys.update(r.props)
    return [(k,) for k in sorted(keys)]


def _show_procedures() -> list[Procedure]:
    """The listing procedures `SHOW INDEXES` and `SHOW CONSTRAINTS` stand for (`storage/schema_show.py`)."""
    from .storage import schema_show as S

    def sig(name, columns, types):
        return Signature(name, (Field("filter", "STRING"),), tuple(Field(c, t) for c, t in zip(columns, types)))
    return [
        Procedure(sig(S.SHOW_INDEXES, S.INDEX_COLUMNS, S.INDEX_TYPES), lambda a, ctx: S.index_rows(ctx.graph, a[0])),
        Procedure(sig(S.SHOW_CONSTRAINTS, S.CONSTRAINT_COLUMNS, S.CONSTRAINT_TYPES),
                  lambda a, ctx: S.constraint_rows(ctx.graph, a[0])),
    ]


def builtins() -> list[Procedure]:
    """What every database can `CALL` without registering anything: the labels, relationship
    types and property keys in use, one per row, sorted.

    >>> import relate
    >>> db = relate.connect(":memory:")
    >>> _ = db.execute("CREATE (:Person {name: 'Ada'})-[:KNOWS]->(:Person {age: 36})")
    >>> db.execute("CALL db.labels()").rows, db.execute("CALL db.propertyKeys() YIELD propertyKey").rows
    ([('Person',)], [('age',), ('name',)])
    """
    return [
        Procedure(parse_signature("db.labels() :: (label :: STRING?)"), _labels),
        Procedure(parse_signature("db.relationshipTypes() :: (relationshipType :: STRING?)"),
                  _relationship_types),
        Procedure(parse_signature("db.propertyKeys() :: (propertyKey :: STRING?)"), _property_keys),
    ] + _show_procedures()
