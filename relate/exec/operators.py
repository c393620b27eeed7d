"""Physical operators: each pulls slot tuples from its child and yields slot tuples.

An operator is built once per plan (closures compiled, slots fixed) and run per execution with
an `ExecContext`.  `name`, `details`, `identifiers` and `warnings` are what EXPLAIN shows; the
operator itself stays the thing that runs.  Writing operators drain their input before the first
write, so a clause never reads its own writes.
"""
from __future__ import annotations

from operator import itemgetter

from ..errors import E
from ..values import type_name
from ..values.compare import hashable, order_key


class Operator:
    name = "Operator"
    writes = False
    reads = False

    def __init__(self, child: "Operator | None" = None) -> None:
        self.child = child
        self.details = ""
        self.identifiers: tuple[str, ...] = ()
        self.warnings: tuple = ()
        self.shown = True  # folded operators run but are not drawn in EXPLAIN

    def children(self) -> list["Operator"]:
        return [self.child] if self.child is not None else []

    def rows(self, ctx):
        raise NotImplementedError


class Argument(Operator):
    """The single empty row a query starts from (or the outer row of a nested pipeline)."""

    name = "Argument"

    def __init__(self, row: tuple = ()) -> None:
        super().__init__(None)
        self.row = row
        self.shown = False

    def rows(self, ctx):
        yield self.row


class Unwind(Operator):
    name = "Unwind"

    def __init__(self, child, fn, alias: str) -> None:
        super().__init__(child)
        self.fn = fn
        self.details = f"AS {alias}"
        self.identifiers = (alias,)

    def rows(self, ctx):
        fn = self.fn
        timed = ctx.deadline is not None
        for row in self.child.rows(ctx):
            v = fn(row, ctx)
            if v is None:
                continue
            if isinstance(v, list):
                for x in v:
                    if timed:
                        ctx.check_deadline()
                    yield row + (x,)
            else:
                yield row + (v,)


class Match(Operator):
    """One MATCH or OPTIONAL MATCH clause: its pattern parts, then its WHERE."""

    name = "Expand"
    reads = True

    def __init__(self, child, parts, predicate, optional: bool, width_added: int) -> None:
        super().__init__(child)
        self.parts = parts
        self.predicate = predicate
        self.optional = optional
        self.pad = (None,) * width_added
        # parts that each add one node found without a hop (index seeks in a load's `UNWIND ...
        # MATCH (a {id: r.a}), (b {id: r.b})`): nested loops over their candidate lists instead
        # of a generator per part per row
        self.anchors_only = 1 <= len(parts) <= 2 and all(getattr(p, "only_anchor", False) for p in parts)

    def extend(self, row, ctx):
        parts = self.parts
        if len(parts) == 1:
            stream = parts[0].run(row, ctx)
        else:
            stream = iter((row,))
            for part in parts:
                stream = self._chain(stream, part, ctx)
        pred = self.predicate
        if pred is not None:
            stream = (r for r in stream if pred(r, ctx) is True)
        return stream

    @staticmethod
    def _chain(stream, part, ctx):
        for row in stream:
            yield from part.run(row, ctx)

    def rows(self, ctx):
        if self.anchors_only and ctx.deadline is None:
            return self._anchor_rows(ctx)
        return self._rows(ctx)

    def _rows(self, ctx):
        for row in self.child.rows(ctx):
            found = False
            for r in self.extend(row, ctx):
                found = True
                yield r
            if not found and self.optional:
                yield row + self.pad

    def _anchor_rows(self, ctx):
        # what `_rows` gives (same rows, same order, as lazily per candidate), when nothing can
        # stop the run (`_rows` polls the deadline per candidate)
        pred = self.predicate
        optional = self.optional
        first = _finder(self.parts[0], ctx.graph)
        second = _finder(self.parts[1], ctx.graph) if len(self.parts) == 2 else None
        for row in self.child.rows(ctx):
            found = False
            for a in first(row, ctx):
                ra = row + (a,)
                if second is None:
                    if pred is None or pred(ra, ctx) is True:
                        found = True
                        yield ra
                    continue
                for b in second(ra, ctx):
                    r = ra + (b,)
                    if pred is None or pred(r, ctx) is True:
                        found = True
                        yield r
            if not found and optional:
                yield row + self.pad


def _finder(part, graph):
    """(row, ctx) -> the part's candidate nodes: its index seek alone when that is all it does."""
    if part.plain_seek is None:
        return part.candidates
    label, key, fn = part.plain_seek
    lookup = graph.index_lookup
    return lambda row, ctx: lookup(label, key, fn(row, ctx))


class Filter(Operator):
    name = "Filter"

    def __init__(self, child, pred, text: str) -> None:
        super().__init__(child)
        self.pred = pred
        self.details = text

    def rows(self, ctx):
        pred = self.pred
        for row in self.child.rows(ctx):
            if pred(row, ctx) is True:
                yield row


class Extend(Operator):
    """Appends computed values to each row (projection before narrowing)."""

    name = "Projection"

    def __init__(self, child, fns) -> None:
        super().__init__(child)
        self.fns = fns

    def rows(self, ctx):
        # a generator either way: nothing below runs before the first row is asked for
        fns = self.fns
        if len(fns) == 1:
            f0, = fns
            for row in self.child.rows(ctx):
                yield row + (f0(row, ctx),)
        elif len(fns) == 2:
            f0, f1 = fns
            for row in self.child.rows(ctx):
                yield row + (f0(row, ctx), f1(row, ctx))
        else:
            for row in self.child.rows(ctx):
                yield row + tuple([f(row, ctx) for f in fns])


class Narrow(Operator):
    """Keeps the given slots, in order."""

    name = "Projection"

    def __init__(self, child, slots: list[int]) -> None:
        super().__init__(child)
        self.slots = slots
        self.shown = False

    def rows(self, ctx):
        slots = self.slots
        if len(slots) == 1:
            i, = slots
            for row in self.child.rows(ctx):
                yield (row[i],)
        else:
            yield from map(itemgetter(*slots) if slots else _no_slots, self.child.rows(ctx))


def _no_slots(row) -> tuple:
    return ()


class Distinct(Operator):
    name = "Distinct"

    def __init__(self, child) -> None:
        super().__init__(child)
        self.shown = False

    def rows(self, ctx):
        seen = set()
        for row in self.child.rows(ctx):
            key = tuple(hashable(v) for v in row)
            if key in seen:
                continue
            seen.add(key)
            yield row


class Sort(Operator):
    name = "Sort"

    def __init__(self, child, keys: list) -> None:
        super().__init__(child)
        self.keys = keys  # (closure, descending)
        self.shown = False

    def rows(self, ctx):
        rows = list(self.child.rows(ctx))
        if len(rows) < 2:
            return iter(rows)
        # each key computed once per row; stable sorts of the positions from the last key to
        # the first give the combined order
        order = list(range(len(rows)))
        timed = ctx.deadline is not None
        for fn, desc in reversed(self.keys):
            if timed:  # once per key pass: the rows came from polled loops, one pass costs as much
                ctx.check_deadline()
            order.sort(key=_sort_keys([fn(r, ctx) for r in rows]).__getitem__, reverse=desc)
        return iter([rows[i] for i in order])


def _sort_keys(values: list) -> list:
    """Values -> keys that sort them in Cypher's order: the values themselves when they are all
    strings, or all numbers without NaN (Python already orders those the same way)."""
    kinds = set(map(type, values))
    if kinds == {str} or (kinds <= {int, float} and all(v == v for v in values)):
        return values
    return [order_key(v) for v in values]


def _count_arg(fn, ctx, what: str) -> int:
    v = fn((), ctx)
    if isinstance(v, bool) or not isinstance(v, int):
        raise E.Argument.InvalidArgumentType(what=what, type=type_name(v))
    if v < 0:
        raise E.Argument.NegativeIntegerArgument(f"{what} expects a non-negative integer, got {v}")
    return v


class Skip(Operator):
    name = "Skip"

    def __init__(self, child, fn) -> None:
        super().__init__(child)
        self.fn = fn
        self.shown = False

    def rows(self, ctx):
        n = _count_arg(self.fn, ctx, "SKIP")
        for i, row in enumerate(self.child.rows(ctx)):
            if i >= n:
                yield row


class Limit(Operator):
    name = "Limit"

    def __init__(self, child, fn) -> None:
        super().__init__(child)
        self.fn = fn
        self.shown = False
        self.drain = False  # set when writes run below: they happen for every row, kept or not

    def rows(self, ctx):
        n = _count_arg(self.fn, ctx, "LIMIT")
        it = iter(self.child.rows(ctx))
        if n > 0:
            for i, row in enumerate(it):
                yield row
                if i + 1 >= n:
                    break
        if self.drain:
            for _ in it:
                pass


class Aggregate(Operator):
    """Groups rows by key closures and folds aggregate specs; yields keys + aggregate values."""

    name = "Aggregation"

    def __init__(self, child, key_fns, aggs) -> None:
        super().__init__(child)
        self.key_fns = key_fns
        self.aggs = aggs  # list of aggregates.AggSpec
        self.scan = None  # a grouped_count.GroupedCount when the child's nodes are only counted

    def rows(self, ctx):
        if self.scan is not None:
            yield from self.scan.rows(ctx)
            return
        groups: dict = {}
        key_fns = self.key_fns
        aggs = self.aggs
        for row in self.child.rows(ctx):
            kv = tuple(f(row, ctx) for f in key_fns)
            hk = tuple(hashable(v) for v in kv)
            g = groups.get(hk)
            if g is None:
                g = groups[hk] = (kv, [a.start() for a in aggs])
            states = g[1]
            for i, a in enumerate(aggs):
                states[i] = a.step(states[i], row, ctx)
        if not groups and not key_fns:
            groups[()] = ((), [a.start() for a in aggs])
        for kv, states in groups.values():
            yield kv + tuple(a.finish(s) for a, s in zip(aggs, states))


class Eager(Operator):
    """Drains its child before yielding (isolates a write from the reads before it)."""

    name = "Eager"

    def __init__(self, child) -> None:
        super().__init__(child)
        self.shown = False

    def rows(self, ctx):
        return iter(list(self.child.rows(ctx)))


class Union(Operator):
    name = "Union"

    def __init__(self, parts: list[Operator], distinct: bool) -> None:
        super().__init__(None)
        self.parts = parts
        self.distinct = distinct

    def children(self):
        return list(self.parts)

    def rows(self, ctx):
        seen = set()
        for p in self.parts:
            for row in p.rows(ctx):
                if self.distinct:
                    k = tuple(hashable(v) for v in row)
                    if k in seen:
                        continue
                    seen.add(k)
                yield row


class ProduceResults(Operator):
    name = "ProduceResults"

    def rows(self, ctx):
        return self.child.rows(ctx)


def check_list(v, what: str):
    if v is not None and not isinstance(v, list):
        raise E.Type.InvalidArgumentType(f"{what} expects a list, got {type_name(v)}")
    return v


class ProcedureCall(Operator):
    """`CALL proc(args) [YIELD ...]`: per input row, the procedure's output rows (only the
    yielded columns are appended).  A procedure without outputs passes each row through once."""

    name = "ProcedureCall"
    reads = True

    def __init__(self, child, proc, arg_fns, coerce, picks) -> None:
        super().__init__(child)
        self.proc = proc
        self.arg_fns = arg_fns
        self.coerce = coerce      # args tuple -> args tuple checked against the signature
        self.picks = picks        # output indexes appended to the row, in yield order
        self.details = proc.name
        self.optional = False     # OPTIONAL CALL: no output rows -> the row with nulls

    def rows(self, ctx):
        fn, arg_fns, coerce, picks = self.proc.fn, self.arg_fns, self.coerce, self.picks
        void = not self.proc.signature.outputs
        for row in self.child.rows(ctx):
            args = coerce(tuple(f(row, ctx) for f in arg_fns))
            if void:
                for _ in fn(args, ctx):
                    pass
                yield row
                continue
            found = False
            for out in fn(args, ctx):
                found = True
                yield row + tuple(out[i] for i in picks)
            if not found and self.optional:
                yield row + (None,) * len(picks)
