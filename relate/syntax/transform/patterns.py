"""Transformer rules for patterns: pattern parts (named paths, shortestPath), node patterns,
relationship patterns with their types, properties and variable-length ranges -> `ast` patterns."""
from __future__ import annotations

from lark import Token, v_args

from .. import ast as A
from .base import start_of
from .paths import ParenPath


class PatternRules:
    """Mixed into `transform.Build`; `BuildBase` gives `text`, `_err` and `_int`."""

    def pattern(self, c):
        return A.Pattern(tuple(c))

    @v_args(meta=True)
    def pattern_part(self, meta, c):
        var = None
        shortest = None
        element = None
        selector = None
        for x in c:
            if isinstance(x, A.Variable):
                var = x.name
            elif isinstance(x, A.PatternElement):
                element = x
            elif isinstance(x, tuple) and x[0] == "pathfn":
                shortest = x[1]
            elif isinstance(x, tuple) and x[0] == "selector":
                selector = x[1]
            elif isinstance(x, ParenPath):
                element = x
        if isinstance(element, ParenPath):  # `(p = ... WHERE ...)`: the part takes its name and WHERE
            return self.paren_part(var, element, shortest, selector, start_of(meta))
        return A.PatternPart(var, element, shortest, start_of(meta), selector=selector)

    def path_function(self, c):
        v = str(c[0]).lower()
        return ("pathfn", "shortestPath" if v == "shortestpath" else "allShortestPaths")

    def pattern_element(self, c):
        return self.element(c)  # transform/paths.py

    @v_args(meta=True)
    def node_pattern(self, meta, c):
        var = labels = props = label_expr = where = None
        amp = False
        for x in c:
            if isinstance(x, A.Variable):
                var = x.name
            elif isinstance(x, tuple) and x[0] == "labelspec":
                labels, label_expr = self.node_label_spec(x)
                amp = amp or (len(x[1]) == 1 and isinstance(x[1][0], A.LabelAnd) and label_expr is None)
            elif isinstance(x, tuple) and x[0] == "props":
                props = x[1]
            elif isinstance(x, tuple) and x[0] == "pwhere":
                where = x[1]
        return A.NodePattern(var, labels or (), props, start_of(meta), label_expr, where, amp)

    def node_properties(self, c):
        return ("props", c[0])

    def node_labels(self, c):
        return ("labels", tuple(c))

    def is_label(self, c):
        return ("labels", tuple(c[1:]))

    @v_args(meta=True)
    def relationship_pattern(self, meta, c):
        left = isinstance(c[0], Token) and c[0].type == "LEFT_ARROW"
        right = c[-1] == "->"
        detail = next((x for x in c if isinstance(x, dict)), {})
        if left and right:
            direction = A.Direction.BOTH  # <-->: either direction, as openCypher reads it
        elif left:
            direction = A.Direction.IN
        elif right:
            direction = A.Direction.OUT
        else:
            direction = A.Direction.BOTH
        return A.RelPattern(detail.get("var"), detail.get("types", ()), direction,
                            detail.get("props"), detail.get("length"), start_of(meta),
                            detail.get("type_expr"), detail.get("where"))

    def right_dash(self, c):
        return "->" if c[0].type == "RIGHT_ARROW" else "-"

    def rel_detail(self, c):
        d = {}
        for x in c:
            if isinstance(x, A.Variable):
                d["var"] = x.name
            elif isinstance(x, tuple) and x[0] == "labelspec":
                d["types"], d["type_expr"] = self.rel_type_spec(x)
            elif isinstance(x, tuple) and x[0] == "pwhere":
                d["where"] = x[1]
            elif isinstance(x, tuple) and x[0] == "length":
                d["length"] = x[1]
            elif isinstance(x, tuple) and x[0] == "props":
                d["props"] = x[1]
        return d

    def var_length(self, c):
        if len(c) == 1:
            return ("length", (None, None))
        return ("length", c[1])

    def range_bounds(self, c):
        lo = hi = None
        seen_dots = False
        for x in c:
            if x.type == "RANGE_DOTS":
                seen_dots = True
            elif not seen_dots:
                lo = self._int(x)
            else:
                hi = self._int(x)
        return (lo, hi)

    def range_exact(self, c):
        n = self._int(c[0])
        return (n, n)
