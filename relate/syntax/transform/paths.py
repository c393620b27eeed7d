"""Transformer rules for Neo4j 5 path patterns: quantified relationships (`-[r:R]->{2,}`),
quantified path patterns (`((a)-[r]->(b) WHERE ...){1,3}`, `+`, `*`), parenthesised whole patterns
(`(p = (a)-->+(b) WHERE length(p) > 2)`) and path selectors (`SHORTEST 2`, `ALL SHORTEST`, ...).

A pattern element is read as a run of factors; `element` folds them into the usual
`PatternElement` (nodes and relationships alternating): a quantified path pattern stands where a
relationship would, as a placeholder `RelPattern` whose `group` holds it, between the node before
it and the node after it (an anonymous node where none is written)."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from lark import Token, v_args

from ...errors import CypherSyntaxError
from .. import ast as A
from .base import start_of


@dataclass(frozen=True, slots=True)
class ParenPath:
    """A parenthesised path pattern while the element around it is built."""

    variable: str | None
    element: A.PatternElement
    where: A.Expr | None
    quantifier: tuple[int, int | None] | None
    pos: int


def _anonymous(pos: int) -> A.NodePattern:
    return A.NodePattern(None, (), None, pos)


class PathRules:
    """Mixed into `transform.Build`; `BuildBase` gives `text`, `_err` and `_int`."""

    text: str
    _err: Callable[..., CypherSyntaxError]
    _int: Callable[[Token], int]

    def element(self, factors: list):
        """The factors of one pattern element -> a `PatternElement`, or the `ParenPath` when the
        element is one unquantified parenthesised pattern (its part takes the WHERE and path name)."""
        if len(factors) == 1 and isinstance(factors[0], ParenPath) and factors[0].quantifier is None:
            return factors[0]
        nodes: list[A.NodePattern] = []
        rels: list[A.RelPattern] = []
        last = None  # "node" or "group"
        for f in factors:
            if isinstance(f, A.NodePattern):
                if last == "node":
                    raise self._err("Juxtaposed node patterns are only allowed around a quantified path "
                                    "pattern: write a relationship between them", f.pos, "InvalidPathPattern")
                nodes.append(f)
                last = "node"
            elif isinstance(f, ParenPath):
                if f.quantifier is None:
                    raise self._err("A parenthesised path pattern inside a longer pattern needs a quantifier "
                                    "(`{1}` matches it once)", f.pos, "InvalidPathPattern")
                if last != "node":
                    nodes.append(_anonymous(f.pos))
                lo, hi = f.quantifier
                group = A.QuantifiedPath(f.element, lo, hi, f.where, f.pos)
                rels.append(A.RelPattern(None, (), A.Direction.BOTH, None, (lo, hi), f.pos, group=group))
                last = "group"
            else:  # ("link", rel, quantifier, node)
                _, rel, quant, node = f
                if last != "node":
                    nodes.append(_anonymous(rel.pos))
                if quant is not None:
                    if rel.length is not None:
                        raise self._err("A variable-length relationship (`*`) cannot also be quantified",
                                        rel.pos, "InvalidPathPattern")
                    rel = replace(rel, length=quant, quantified=True)
                rels.append(rel)
                nodes.append(node)
                last = "node"
        if last == "group":
            nodes.append(_anonymous(rels[-1].pos))
        return A.PatternElement(tuple(nodes), tuple(rels))

    def paren_part(self, var, pp: ParenPath, shortest, selector, pos: int) -> A.PatternPart:
        if var is not None and pp.variable is not None:
            raise self._err("A path is named twice: outside and inside its parentheses", pp.pos,
                            "InvalidPathPattern")
        if shortest is not None and pp.where is not None:
            raise self._err(f"{shortest}() takes a pattern without WHERE", pp.pos, "InvalidPathPattern")
        return A.PatternPart(var or pp.variable, pp.element, shortest, pos, selector=selector, where=pp.where)

    def quantified_link(self, c):
        rel = c[0]
        quant = c[1][1] if len(c) == 3 else None
        return ("link", rel, quant, c[-1])

    @v_args(meta=True)
    def paren_path(self, meta, c):
        var = where = quant = None
        element = None
        for x in c:
            if isinstance(x, A.Variable):
                var = x.name
            elif isinstance(x, (A.PatternElement, ParenPath)):
                element = x
            elif isinstance(x, tuple) and x and x[0] == "quant":
                quant = x[1]
            elif isinstance(x, tuple) and x and x[0] == "where":
                where = x[1]
        pos = start_of(meta)
        if isinstance(element, ParenPath):
            raise self._err("Parenthesised path patterns cannot be nested without a relationship between "
                            "them", element.pos, "InvalidPathPattern")
        if var is not None and quant is not None:
            raise self._err("A path variable cannot be declared inside a quantified path pattern",
                            pos, "InvalidPathPattern")
        return ParenPath(var, element, where, quant, pos)

    def quant_exact(self, c):
        n = self._int(c[0])
        return ("quant", (n, n))

    def quant_range(self, c):
        ints = [x for x in c if isinstance(x, Token) and x.type == "INTEGER"]
        if not ints:
            return ("quant", (0, None))
        # `{m,}` or `{,n}` or `{m,n}`: which side a lone number is on comes from the text order
        texts = [self._int(x) for x in ints]
        if len(ints) == 2:
            return ("quant", (texts[0], texts[1]))
        comma_after = self.text[ints[0].end_pos:].lstrip()[:1] == ","
        return ("quant", (texts[0], None) if comma_after else (0, texts[0]))

    def quant_plus(self, c):
        return ("quant", (1, None))

    def quant_star(self, c):
        return ("quant", (0, None))

    # ------------------------------------------------------------ selectors
    def _selector(self, c, kind: str, k: int | None, default: int = 1):
        first = c[0]
        end = max(getattr(x, "end_pos", 0) for x in c if isinstance(x, Token))
        text = " ".join(self.text[first.start_pos:end].split())
        return ("selector", A.PathSelector(kind, default if k is None else k, text.upper(), first.start_pos))

    def _k(self, c):
        return next((self._int(x) for x in c if isinstance(x, Token) and x.type == "INTEGER"), None)

    def sel_any_shortest(self, c):
        return self._selector(c, "shortest", 1)

    def sel_all_shortest(self, c):
        return self._selector(c, "groups", 1)

    def sel_any(self, c):
        return self._selector(c, "any", self._k(c))

    def sel_all(self, c):
        return self._selector(c, "all", 0)

    def sel_shortest(self, c):
        return self._selector(c, "shortest", self._k(c))

    def sel_shortest_groups(self, c):
        return self._selector(c, "groups", self._k(c))

    def path_word(self, c):
        return c[0]

    def mode_different(self, c):
        return ("mode", "different")  # the default: `match_clause` ignores it

    def mode_repeatable(self, c):
        raise self._err("The REPEATABLE ELEMENTS match mode is not supported: relate matches with DIFFERENT "
                        "RELATIONSHIPS (no relationship twice in a match)", c[0].start_pos, "UnsupportedClause")
