"""A read plan's operator chain -> one generated function `(ctx) -> list of rows`, or None.

The operators pull rows from each other through nested generators: a point read
(`MATCH (p:L {k: $v}) RETURN p.x`) pays a generator frame per operator per row, more than the
lookup itself.  When every operator of the chain is one this module knows (the start row, a
non-optional MATCH, projections, narrowing, WHERE filters, the result), the chain is written out
as nested loops in one function, generated once per plan.  It runs the same closures in the same
order as the operators would (rows depth first, one at a time), polls the deadline where they do,
and raises what they raise; any other operator makes `fuse` return None and the plan runs its
operators.  A PROFILE plan is never fused (its operators count their own rows).  A CREATE of
nodes from the start row is one call of `create_part`.

While writing the loops, the row is known cell by cell (one local variable per slot), and a slot
tuple is built only where a compiled closure needs one (its argument) or a row leaves (the
result): a hop reads its start node from a local, `x.key` of a live entity is read in place.
"""
from __future__ import annotations

from ..syntax import ast as A
from ..values import Node, Relationship
from .match import PartMatcher
from .operators import Argument, Extend, Filter, Match, Narrow, ProduceResults
from .writes import Create, create_part


def fuse(root):
    """The chain under `root` as one function, or None when some operator is not one of these."""
    if type(root) is Create:
        return _create(root)
    chain = []
    op = root
    while op is not None:
        t = type(op)
        if "rows" in vars(op):  # an instance's own `rows` (PROFILE's wrapper): run as built
            return None
        if t is ProduceResults:
            pass
        elif t is Argument:
            chain.append(op)
            break
        elif t is Extend or t is Narrow or t is Filter:
            chain.append(op)
        elif t is Match and not op.optional:
            chain.append(op)
        else:
            return None
        op = op.child
    else:
        return None
    chain.reverse()
    w = _Writer()
    for k, op in enumerate(chain):
        t = type(op)
        if t is Argument:
            w.env["ROW"] = op.row
            w.cells, w.tuple = [f"ROW[{i}]" for i in range(len(op.row))], "ROW"
        elif t is Match:
            part = op.parts[0] if len(op.parts) == 1 else None
            if (op.predicate is None and type(part) is PartMatcher and part.path_slot < 0
                    and not part.anchor_bound and all(_simple(part, st) for st in part.steps)):
                _part(w, part, k)
            else:
                w.env[f"ext{k}"] = op.extend
                w.line(f"for r{k} in ext{k}({w.row()}, ctx):")
                w.indent += 1
                w.opaque(f"r{k}")
        elif t is Extend:
            _extend(w, op, k)
        elif t is Narrow:
            w.cells = [w.cell(int(i)) for i in op.slots]
            w.tuple = None
        else:  # Filter
            w.env[f"p{k}"] = op.pred
            w.line(f"if p{k}({w.row()}, ctx) is True:")
            w.indent += 1
    w.line(f"append({w.literal()})")
    w.indent = 1
    w.line("return out")
    exec("\n".join(w.lines), w.env)  # noqa: S102 - text built above from slot numbers and names only
    return w.env["pipeline"]


class _Writer:
    """The function's text so far and what is known of the current row: `cells` (an expression
    per slot) when known, else only `tuple` (a variable holding the row)."""

    def __init__(self) -> None:
        self.env: dict = {"ENTITY": (Node, Relationship)}
        self.lines = ["def pipeline(ctx):", " out = []", " append = out.append",
                      " timed = ctx.deadline is not None"]
        self.indent = 1
        self.cells: list[str] | None = None
        self.tuple: str | None = None
        self.n = 0

    def line(self, text: str) -> None:
        self.lines.append(" " * self.indent + text)

    def opaque(self, var: str) -> None:
        self.cells, self.tuple = None, var

    def cell(self, i: int) -> str:
        return self.cells[i] if self.cells is not None else f"{self.tuple}[{i}]"

    def literal(self) -> str:
        """The row as a tuple expression."""
        if self.tuple is not None:
            return self.tuple
        return "(" + "".join(c + ", " for c in self.cells) + ")" if self.cells else "()"

    def row(self) -> str:
        """A variable holding the row as a tuple (assigned here when there is none yet)."""
        if self.tuple is None:
            self.n += 1
            text = self.literal()
            self.tuple = f"t{self.n}"
            self.line(f"{self.tuple} = {text}")
        return self.tuple

    def local(self, i: int, name: str) -> str:
        """Slot `i` as a local variable: its own when it has one, else `name` assigned here."""
        cell = self.cell(i)
        if cell.isidentifier():
            return cell
        self.line(f"{name} = {cell}")
        return name

    def append_cells(self, new: list[str]) -> None:
        if self.cells is None:
            self.line(f"{self.row()} = {self.tuple} + ({''.join(c + ', ' for c in new)})")
            # the same variable now holds the longer row
        else:
            self.cells = self.cells + new
            self.tuple = None


def _extend(w: _Writer, op: Extend, k: int) -> None:
    """Each value computed into a local, in order; `x.key` of a live node or relationship read in
    place, anything else (a map, a deleted entity, null) through the compiled closure, which
    also raises what it raises."""
    names = []
    closures = [f for f in op.fns if getattr(f, "slot_key", None) is None and getattr(f, "slot", None) is None]
    row = w.row() if closures else None  # every closure takes the row before this projection
    for j, f in enumerate(op.fns):
        name = f"{k}_{j}"
        w.env[f"f{name}"] = f
        slot_key = getattr(f, "slot_key", None)
        if getattr(f, "slot", None) is not None:  # a variable: the cell itself
            w.line(f"v{name} = {w.cell(int(f.slot))}")
        elif slot_key is None:
            w.line(f"v{name} = f{name}({row}, ctx)")
        else:
            slot, w.env[f"key{name}"] = slot_key
            e = w.local(int(slot), f"e{name}")
            w.line(f"v{name} = {e}.props.get(key{name}) if type({e}) in ENTITY "
                   f"and not {e}.deleted else f{name}({row or w.literal()}, ctx)")
        names.append(f"v{name}")
    w.append_cells(names)


def _simple(part: PartMatcher, st) -> bool:
    """A hop `_part` writes out: fixed length, nothing bound, no other relationship of the MATCH
    to stay distinct from (so no uniqueness test)."""
    return (st.group is None and st.rel.length is None and not st.rel_bound and not st.node_bound
            and part.all_rel_slots == [st.rel_slot])


def _part(w: _Writer, part: PartMatcher, k: int) -> None:
    """A pattern part (an unbound anchor, then simple hops) as nested loops, as `PartMatcher.run`
    walks it: the anchor's candidates, then per hop the neighbours passing the far node's labels
    and the checks."""
    env = w.env
    if (part.anchor_seek is not None and not part.seek_ends and part.scan_filter is None
            and not part.seek_other_labels and part.anchor_check is None):
        # an index seek and nothing more: `candidates` without its tests
        label, key, fn = part.anchor_seek
        env.update({f"lb{k}": label, f"key{k}": key, f"seek{k}": fn})
        source = f"ctx.graph.index_lookup(lb{k}, key{k}, seek{k}({w.row()}, ctx))"
    else:
        env[f"cand{k}"] = part.candidates
        source = f"cand{k}({w.row()}, ctx)"
    w.line(f"for n{k} in {source}:")
    w.indent += 1
    w.line("if timed: ctx.check_deadline()")
    w.append_cells([f"n{k}"])
    for j, st in enumerate(part.steps):
        name = f"{k}_{j}"
        env[f"types{name}"] = st.types
        outgoing = st.direction is not A.Direction.IN
        incoming = st.direction is not A.Direction.OUT
        src = w.local(int(st.from_slot), f"s{name}")
        w.line(f"if {src} is not None:")
        w.indent += 1
        w.line(f"for rel{name}, o{name} in ctx.graph.expand({src}, types{name}, {outgoing}, {incoming}):")
        w.indent += 1
        w.line("if timed: ctx.check_deadline()")
        tests = []
        for i, lb in enumerate(st.node.labels):
            env[f"nl{name}_{i}"] = lb
            tests.append(f"nl{name}_{i} in o{name}.labels")
        if tests:
            w.line(f"if {' and '.join(tests)}:")
            w.indent += 1
        w.append_cells([f"rel{name}"])
        if st.rel_check is not None:
            env[f"rc{name}"] = st.rel_check
            w.line(f"if rc{name}(rel{name}, {w.row()}, ctx):")
            w.indent += 1
        w.append_cells([f"o{name}"])
        if st.node_check is not None:
            env[f"nc{name}"] = st.node_check
            w.line(f"if nc{name}(o{name}, {w.row()}, ctx):")
            w.indent += 1


def _create(op: Create):
    """`CREATE` of nodes only, from the start row (`CREATE (:L {k: $v})`): the operator's one row,
    without draining a child or walking the slot order (every new slot is a node, in order)."""
    child = op.child
    if type(child) is not Argument or "rows" in vars(op) or any(
            rels or want_path or len(order) != sum(1 for n in nodes if n.bound_slot is None)
            or any(kind != "n" for kind in order) for nodes, rels, order, want_path in op.parts):
        return None
    start = child.row
    parts = [(nodes, rels) for nodes, rels, _, _ in op.parts]

    def pipeline(ctx):
        if ctx.deadline is not None:
            ctx.check_deadline()
        row = start
        for nodes, rels in parts:
            row = row + tuple(create_part(row, ctx, nodes, rels)[0])
        return [row]
    return pipeline
