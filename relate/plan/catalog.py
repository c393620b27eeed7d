"""The engine's answers the checking stage asks for (`semantic.analyze.Catalog`): the function
table's arities, the procedure registry, and the planner's anchor choice for a pattern part (the
walk from the anchor decides which names a property map can read, so analysis must start where
the plan will: the same `anchor` rule, switched off when the planner's is)."""
from __future__ import annotations

from ..exec.functions import lookup
from ..semantic.analyze import Catalog
from ..syntax import ast as A
from . import rules
from .match_spec import MatchSpec
from .rules import anchor as anchor_rule


def _arity(name: str) -> tuple[int, int] | None:
    entry = lookup(name)
    return None if entry is None else (entry[1], entry[2])


def catalog(graph, procedures, disabled_rules: frozenset[str] | None = None) -> Catalog:
    off = rules.disabled_by_environment() if disabled_rules is None else rules.checked(disabled_rules)

    def anchor(el: A.PatternElement, bound: set[str], where) -> int:
        spec = MatchSpec.generic(A.PatternPart(None, el), bound, where)
        return spec.anchor if "anchor" in off else anchor_rule.apply(spec, graph).anchor
    return Catalog(_arity, procedures, anchor)
