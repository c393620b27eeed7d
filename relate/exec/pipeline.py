"""A read plan's operator chain -> one generated function `(ctx) -> list of rows`, or None.

The operators pull rows from each other through nested generators: a point read
(`MATCH (p:L {k: $v}) RETURN p.x`) pays a generator frame per operator per row, more than the
lookup itself.  When every operator of the chain is one this module knows (the start row, a
non-optional MATCH, projections, narrowing, WHERE filters, the result), the chain is written out
as nested loops in one function, generated once per plan.  It runs the same closures in the same
order as the operators would (rows depth first, one at a time), polls the deadline where they do,
and raises what they raise; any other operator makes `fuse` return None and the plan runs its
operators.  A PROFILE plan is never fused (its operators count their own rows).
"""
from __future__ import annotations

from ..syntax import ast as A
from .match import PartMatcher
from .operators import Argument, Extend, Filter, Match, Narrow, ProduceResults


def fuse(root):
    """The chain under `root` as one function, or None when some operator is not one of these."""
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
    env: dict = {}
    lines = ["def pipeline(ctx):", " out = []", " append = out.append", " timed = ctx.deadline is not None"]
    indent = 1
    var = "r0"
    for k, op in enumerate(chain):
        pad = " " * indent
        nxt = f"r{k + 1}"
        t = type(op)
        if t is Argument:
            env["ROW"] = op.row
            lines.append(f"{pad}{nxt} = ROW")
        elif t is Match:
            part = op.parts[0] if len(op.parts) == 1 else None
            if (op.predicate is None and type(part) is PartMatcher and part.path_slot < 0
                    and not part.anchor_bound and all(_simple(part, st) for st in part.steps)):
                indent = _part(part, k, var, nxt, indent, lines, env)
            else:
                env[f"ext{k}"] = op.extend
                lines.append(f"{pad}for {nxt} in ext{k}({var}, ctx):")
                indent += 1
        elif t is Extend:
            names = []
            for j, f in enumerate(op.fns):
                env[f"f{k}_{j}"] = f
                names.append(f"f{k}_{j}({var}, ctx)")
            lines.append(f"{pad}{nxt} = {var} + ({', '.join(names)}{',' if len(names) == 1 else ''})")
        elif t is Narrow:
            cells = [f"{var}[{int(i)}]" for i in op.slots]
            lines.append(f"{pad}{nxt} = ({', '.join(cells)}{',' if len(cells) == 1 else ''})")
        else:  # Filter
            env[f"p{k}"] = op.pred
            lines.append(f"{pad}if p{k}({var}, ctx) is True:")
            lines.append(f"{pad} {nxt} = {var}")
            indent += 1
        var = nxt
    lines.append(f"{' ' * indent}append({var})")
    lines.append(" return out")
    exec("\n".join(lines), env)  # noqa: S102 - text built above from slot numbers and names only
    return env["pipeline"]


def _simple(part: PartMatcher, st) -> bool:
    """A hop `_part` writes out: fixed length, nothing bound, no other relationship of the MATCH
    to stay distinct from (so no uniqueness test)."""
    return (st.group is None and st.rel.length is None and not st.rel_bound and not st.node_bound
            and part.all_rel_slots == [st.rel_slot])


def _part(part: PartMatcher, k: int, var: str, out: str, indent: int, lines: list, env: dict) -> int:
    """A pattern part (an unbound anchor, then simple hops) as nested loops, as `PartMatcher.run`
    walks it: the anchor's candidates, then per hop the neighbours passing the far node's labels
    and the checks; the row named `out` is the part's row.  -> the indent of the body."""
    pad = " " * indent
    if (part.anchor_seek is not None and not part.seek_ends and part.scan_filter is None
            and not part.seek_other_labels and part.anchor_check is None):
        # an index seek and nothing more: `candidates` without its tests
        label, key, fn = part.anchor_seek
        env.update({f"lb{k}": label, f"key{k}": key, f"seek{k}": fn})
        source = f"ctx.graph.index_lookup(lb{k}, key{k}, seek{k}({var}, ctx))"
    else:
        env[f"cand{k}"] = part.candidates
        source = f"cand{k}({var}, ctx)"
    row = f"a{k}" if part.steps else out
    lines.append(f"{pad}for n{k} in {source}:")
    lines.append(f"{pad} if timed: ctx.check_deadline()")
    lines.append(f"{pad} {row} = {var} + (n{k},)")
    indent += 1
    for j, st in enumerate(part.steps):
        pad = " " * indent
        name = f"{k}_{j}"
        last = j == len(part.steps) - 1
        src, nxt = row, (out if last else f"h{name}")
        env[f"types{name}"] = st.types
        outgoing = st.direction is not A.Direction.IN
        incoming = st.direction is not A.Direction.OUT
        lines.append(f"{pad}s{name} = {src}[{int(st.from_slot)}]")
        lines.append(f"{pad}if s{name} is not None:")
        lines.append(f"{pad} for rel{name}, o{name} in ctx.graph.expand(s{name}, types{name}, {outgoing}, {incoming}):")
        lines.append(f"{pad}  if timed: ctx.check_deadline()")
        tests = []
        for i, lb in enumerate(st.node.labels):
            env[f"nl{name}_{i}"] = lb
            tests.append(f"nl{name}_{i} in o{name}.labels")
        inner = pad + "  "
        if tests:
            lines.append(f"{inner}if {' and '.join(tests)}:")
            inner += " "
        with_rel = f"w{name}"
        lines.append(f"{inner}{with_rel} = {src} + (rel{name},)")
        if st.rel_check is not None:
            env[f"rc{name}"] = st.rel_check
            lines.append(f"{inner}if rc{name}(rel{name}, {with_rel}, ctx):")
            inner += " "
        lines.append(f"{inner}{nxt} = {with_rel} + (o{name},)")
        if st.node_check is not None:
            env[f"nc{name}"] = st.node_check
            lines.append(f"{inner}if nc{name}(o{name}, {nxt}, ctx):")
            inner += " "
        indent = len(inner)
        row = nxt
    return indent
