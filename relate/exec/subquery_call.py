"""`CALL { }` subqueries: the `CallSubquery` operator (Neo4j's Apply).

Per outer row, each UNION part's argument is handed the values the part imports (their slots in
the outer row), the subquery runs, and every row it returns is appended to the outer row.  A
returning subquery that returns nothing drops the outer row, unless the call is OPTIONAL (then
the row goes on with nulls); a unit subquery (no RETURN) runs to its end and the outer row goes
on once, unchanged.  Rows are pulled lazily, so each run sees what the runs before it wrote.
"""
from __future__ import annotations

from .operators import Operator


class CallSubquery(Operator):
    name = "Apply"

    def __init__(self, child, args, inner: Operator, width: int | None, optional: bool) -> None:
        """`args`: (the part's Argument, the outer slots it imports) per UNION part; `width`: the
        number of columns the subquery returns, None for a unit subquery."""
        super().__init__(child)
        self.args = args
        self.inner = inner
        self.width = width
        self.optional = optional
        self.pad = (None,) * (width or 0)
        if optional:
            self.name = "OptionalApply"

    def children(self):
        return [self.child, self.inner]

    def bind(self, row) -> None:
        """Hand the subquery its imports from the outer `row`."""
        for arg, slots in self.args:
            arg.row = tuple([row[i] for i in slots])

    def run(self, row, ctx):
        """The rows the subquery gives for one outer row (the outer row included)."""
        self.bind(row)
        if self.width is None:
            for _ in self.inner.rows(ctx):
                pass
            yield row
            return
        found = False
        for r in self.inner.rows(ctx):
            found = True
            yield row + r
        if not found and self.optional:
            yield row + self.pad

    def rows(self, ctx):
        timed = ctx.deadline is not None
        for row in self.child.rows(ctx):
            if timed:
                ctx.check_deadline()
            yield from self.run(row, ctx)
