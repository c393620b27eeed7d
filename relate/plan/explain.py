"""Physical plan -> `PlanDescription` tree and the plan's notifications with operator ids; an
access path (`match_spec.MatchSpec`, `CountSpec`) -> the words its operator's details add.

Operators that only shape rows (narrowing, sorting, skipping) are folded into the visible
operator above them; ids are assigned to visible operators in pre-order from the root (0).

What the access-path rules chose is shown where it goes beyond the pattern as written: an index
seek, with the index's name as SHOW INDEXES lists it, what it indexes and what it looks up
(`index seek person_age :Person(age) WHERE p.age >= $low AND p.age < 65`; `composite index seek`,
`text index seek` and `point index seek` for the composite, TEXT and POINT indexes), the WHERE conjuncts
pushed into the scan (`pushed filter n.k > $v`),
the label columns a scan or a count reads (`column read :L(k)`).  Inline map entries run in the
scan too; they are the pattern itself, and the details stay the pattern's walk for them.
"""
from __future__ import annotations

from dataclasses import replace

from ..exec.scan_filter import Op
from ..result import Notification, PlanDescription
from ..syntax import ast as A
from ..values import to_text
from ..exec.index_seek import SeekKind
from ..exec.match import is_hidden
from .match_spec import CountSpec, Counting, IndexSeek, MatchSpec

_OP_TEXT = {Op.EQ: "=", Op.NE: "<>", Op.LT: "<", Op.LE: "<=", Op.GT: ">", Op.GE: ">=",
            Op.NULL: "IS NULL", Op.NOT_NULL: "IS NOT NULL"}


def _name(name: str) -> str:
    if name and (name[0].isalpha() or name[0] == "_") and all(c.isalnum() or c == "_" for c in name):
        return name
    return "`" + name.replace("`", "``") + "`"


def _value_text(e: A.Expr) -> str:
    """A value a simple test compares with (`conjuncts.is_stable` shapes) as Cypher text."""
    if isinstance(e, A.Literal):
        return to_text(e.value)
    if isinstance(e, A.Parameter):
        return "$" + _name(e.name)
    if isinstance(e, A.Variable):
        return _name(e.name)
    if isinstance(e, A.Property):
        return _value_text(e.subject) + "." + _name(e.key)
    if isinstance(e, A.ListLiteral):
        return "[" + ", ".join(_value_text(x) for x in e.items) + "]"
    if isinstance(e, A.MapLiteral):
        return "{" + ", ".join(f"{_name(k)}: {_value_text(v)}" for k, v in e.entries) + "}"
    if isinstance(e, A.FunctionCall) and e.name.lower() == "point" and len(e.args) == 1:
        return "point(" + _value_text(e.args[0]) + ")"
    raise AssertionError(f"not a simple test value: {type(e).__name__}")


def _seek_value_text(e: A.Expr) -> str:
    """A seek's value as Cypher text; an inline map entry's value may be any expression that
    reads no node of the part, shown as `…` when it is not one of the simple shapes."""
    try:
        return _value_text(e)
    except AssertionError:
        return "…"


def seek_text(seek: IndexSeek, spec: MatchSpec) -> str:
    """`index seek <name> :Label(key) WHERE <what it answers>` (for a relationship index, the
    relationship's name, when it has one, stands in the test)."""
    on = f"{_name(seek.index)} :{_name(seek.label)}({_name(seek.key)})"
    if seek.rel is not None:
        assert seek.value is not None
        rel = spec.part.element.rels[seek.rel].variable
        if rel is None:
            return f"relationship index seek {on}"
        return f"relationship index seek {on} WHERE {_name(rel)}.{_name(seek.key)} = {_seek_value_text(seek.value)}"
    var = spec.anchor_name

    def prop_of(key: str) -> str:
        # an anonymous anchor's hidden name is no name a user wrote: the key alone stands for it
        return _name(key) if is_hidden(var) else f"{_name(var)}.{_name(key)}"
    prop = prop_of(seek.key)
    if seek.kind is SeekKind.COMPOSITE:
        # the keys it reads, in the index's order (its equalities, then its range)
        on = f"{_name(seek.index)} :{_name(seek.label)}({', '.join(_name(k) for k in seek.keys)})"
        tests = [f"{prop_of(k)} = {_seek_value_text(v)}" for k, v, _ in seek.equal]
        tests += [f"{prop} {_OP_TEXT[op]} {_seek_value_text(v)}" for op, v in seek.bounds]
        return f"composite index seek {on} WHERE {' AND '.join(tests)}"
    if seek.kind is SeekKind.BBOX:
        assert seek.value is not None and seek.other is not None
        return (f"point index seek {on} WHERE point.withinBBox({prop}, {_seek_value_text(seek.value)}, "
                f"{_seek_value_text(seek.other)})")
    if seek.kind is SeekKind.DISTANCE:
        assert seek.value is not None and seek.other is not None
        c = seek.conjunct
        op = "<" if isinstance(c, A.Binary) and c.op in (A.BinOp.LT, A.BinOp.GT) else "<="
        return (f"point index seek {on} WHERE point.distance({prop}, {_seek_value_text(seek.value)}) {op} "
                f"{_seek_value_text(seek.other)}")
    if seek.kind in (SeekKind.CONTAINS, SeekKind.SUFFIX):
        assert seek.value is not None
        return f"text index seek {on} WHERE {prop} {seek.kind.value} {_seek_value_text(seek.value)}"
    if seek.kind is SeekKind.RANGE:
        test = " AND ".join(f"{prop} {_OP_TEXT[op]} {_seek_value_text(v)}" for op, v in seek.bounds)
    else:
        assert seek.value is not None
        test = f"{prop} {seek.kind.value} {_seek_value_text(seek.value)}"
    return f"index seek {on} WHERE {test}"


def _columns_text(label: str, keys) -> str:
    return f"column read :{_name(label)}({', '.join(_name(k) for k in keys)})"


def access_text(spec: MatchSpec) -> str:
    """What a MATCH operator's details add for one part: empty, or `, ` and the items."""
    items = []
    seek = spec.seek
    var = _name(spec.anchor_name)
    if seek is not None:
        items.append(seek_text(seek, spec))
    pushed = [t for t in spec.tests if t.conjunct is not None]
    if pushed:
        items.append("pushed filter " + " AND ".join(
            f"{var}.{_name(t.key)} {_OP_TEXT[t.op]}" + ("" if t.value is None else " " + _value_text(t.value))
            for t in pushed))
    column = list(dict.fromkeys(t.key for t in pushed if t.column))
    if column:
        label = spec.anchor_node.labels
        # the scan reads the smallest of the anchor's labels, known only when it runs
        items.append(" or ".join(_columns_text(lb, column) for lb in label).replace(" or column read ", " or "))
    return "".join(", " + x for x in items)


def count_text(spec: CountSpec) -> str:
    """What an Aggregation's details add: empty, the label columns a grouped count reads, or how
    a counted walk counts."""
    if spec.counting is Counting.TRAILS:
        return ", trails counted in the walk"
    if spec.counting is Counting.ENDS:
        return ", distinct ends from node frontiers"
    if spec.counting is not Counting.COLUMNS:
        return ""
    return ", " + _columns_text(spec.match.whole_label, dict.fromkeys(spec.key_names))


def _visible_children(op) -> list:
    out = []
    stack = list(reversed(op.children()))
    while stack:
        c = stack.pop()
        if c is None:
            continue
        if c.shown:
            out.append(c)
        else:
            stack.extend(reversed(c.children()))
    return out


def describe(root, counts: dict | None = None) -> tuple[PlanDescription, list[Notification]]:
    """Ids in pre-order, descriptions built bottom-up; both with explicit stacks, so a plan of
    hundreds of clauses does not exhaust the interpreter stack.  `counts` (a PROFILE run's
    `ExecContext.profile`) fills each operator's `actual`: the rows it gave and its own time in
    milliseconds (its inclusive time less that of the operators drawn below it)."""
    if not root.shown:
        kids = _visible_children(root)
        if len(kids) == 1:
            root = kids[0]
    notes: list[Notification] = []
    order: list = []          # (operator, parent index) in pre-order; the index is the id
    stack = [(root, -1)]
    while stack:
        op, parent = stack.pop()
        my_id = len(order)
        order.append((op, parent))
        for w in op.warnings:
            notes.append(replace(w, operator_id=my_id))
        for c in reversed(_visible_children(op)):
            stack.append((c, my_id))
    children: list[list[PlanDescription]] = [[] for _ in order]
    built: list[PlanDescription | None] = [None] * len(order)
    below = [0] * len(order)  # PROFILE: the inclusive ns of the operators drawn right below
    for i in range(len(order) - 1, -1, -1):
        op, parent = order[i]
        actual = None
        if counts is not None:
            rows, ns = counts.get(id(op), (0, 0))
            actual = {"rows": rows, "time_ms": round(max(ns - below[i], 0) / 1e6, 3)}
            if parent >= 0:
                below[parent] += ns
        d = PlanDescription(op.name, op.details, tuple(op.identifiers), tuple(op.warnings),
                            tuple(reversed(children[i])), actual=actual)
        built[i] = d
        if parent >= 0:
            children[parent].append(d)
    return built[0], notes
