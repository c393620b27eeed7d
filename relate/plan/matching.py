"""The planner's MATCH section: a `Match` clause -> a `Match` operator over one matcher per pattern
part, each part's access path chosen by the rules (`plan/rules/`), and the operator's EXPLAIN
name and details."""
from __future__ import annotations

from ..exec import operators as O
from ..exec.compile import Scope
from ..exec.match import PartMatcher
from ..exec.selectors import SelectiveMatcher
from ..exec.shortest import ShortestMatcher
from ..semantic.types import pattern_types
from ..syntax import ast as A
from . import rules
from .conjuncts import conjuncts, join_and
from .explain import access_text
from .match_spec import MatchSpec
from .notifications import missing_index
from .pattern_text import walk_text
from .path_explain import groups_in, selective_name, selective_text
from .shortest_filters import search_filters


class MatchPlanner:
    """Mixin of `Planner`: needs `graph`, `compiler`, `disabled_rules` and the `reads` flag."""

    def _match(self, c: A.Match, op, scope: Scope):
        self.reads = True
        before = len(scope)
        parts = []
        rel_slots: list[int] = []
        all_where = tuple(conjuncts(c.where)) if c.where is not None else ()
        where = all_where
        for part in c.pattern.parts:
            if part.shortest:
                during, where = search_filters(part, where)
                m = ShortestMatcher(part, scope, self.compiler, self._end_specs(part, scope), rel_slots, during)
            elif part.selector is not None or part.where is not None:
                m = self._selective_matcher(part, scope, where, rel_slots)
                if part.selector is None:
                    where = m.spec.where
            else:
                m = self._part_matcher(part, scope, where, rel_slots)
                where = m.spec.where  # the conjuncts no scan or seek took
            rel_slots = m.all_rel_slots
            parts.append(m)
            scope = m.scope
            for name, stype in pattern_types(part):
                scope.set_type(name, stype)
        pred = self.compiler.compile(c.where, scope) if c.where is not None else None
        if pred is not None and len(where) < len(all_where):
            # the whole WHERE was compiled above for its checks; what runs is the rest of it
            rest = join_and(list(where))
            pred = self.compiler.compile(rest, scope) if rest is not None else None
        node = O.Match(op, parts, pred, c.optional, len(scope) - before)
        self._describe_match(node, parts, c)
        return node, scope

    # ------------------------------------------------------------------ access paths
    def _optimize(self, spec):
        return rules.optimize(spec, self.graph, self.disabled_rules)

    def _part_matcher(self, part: A.PatternPart, scope: Scope, where=(), rel_slots=()) -> PartMatcher:
        """The matcher of one pattern part, its access path chosen by the rules."""
        spec = self._optimize(MatchSpec.generic(part, scope.slots, where))
        return PartMatcher(spec, scope, self.compiler, list(rel_slots))

    def _selective_matcher(self, part: A.PatternPart, scope: Scope, where, rel_slots) -> SelectiveMatcher:
        """A part with a path selector or a WHERE of its own: the MATCH's WHERE filters after the
        selection, so a selective part takes none of it into its scan."""
        m = self._part_matcher(part, scope, () if part.selector is not None else where, rel_slots)
        pre = self.compiler.compile(part.where, m.scope) if part.where is not None else None
        return SelectiveMatcher(m, part.selector, pre)

    def _end_specs(self, part: A.PatternPart, scope: Scope) -> tuple[MatchSpec, MatchSpec]:
        """A shortest path's two ends as one-node parts; the right end sees the left one bound."""
        nodes = part.element.nodes  # ShortestMatcher refuses parts of more than two
        left, right = (A.PatternPart(None, A.PatternElement((n,), ()), None, part.pos)
                       for n in (nodes[0], nodes[-1]))
        first = self._optimize(MatchSpec.generic(left, scope.slots))
        return first, self._optimize(MatchSpec.generic(right, set(scope.slots) | {first.anchor_name}))

    def _describe_match(self, node: O.Match, parts: list, c: A.Match) -> None:
        texts = []
        warnings = []
        has_rels = False
        for m in parts:
            el = m.part.element
            spec = m.spec
            texts.append(walk_text(el, 0) if spec is None else walk_text(el, spec.anchor) + access_text(spec))
            has_rels = has_rels or bool(el.rels)
            for n in el.nodes:
                if isinstance(n.properties, A.MapLiteral) and n.labels:
                    sought = spec.seek.keys if spec is not None and spec.seek is not None and \
                        n is spec.anchor_node else ()
                    for key, _ in n.properties.entries:
                        if key not in sought and all(self.graph.index_for(lb, key) is None for lb in n.labels):
                            warnings.append(missing_index(n.labels[0], key))
        if any(m.part.shortest for m in parts):
            node.name = "ShortestPath" if not c.optional else "OptionalShortestPath"
        elif any(m.part.selector is not None or m.part.where is not None or groups_in(m.part) for m in parts):
            node.name = selective_name(parts, c.optional)
            texts = [selective_text(m.part) + t for m, t in zip(parts, texts)]
        elif has_rels:
            node.name = "Expand" if not c.optional else "OptionalExpand"
        else:
            spec = parts[0].spec
            if spec.seek is not None:
                node.name = "NodeIndexSeek"
            elif spec.anchor_node.labels:
                node.name = "NodeByLabelScan"
            elif spec.union:
                node.name = "UnionNodeByLabelsScan"
            else:
                node.name = "AllNodesScan"
            if c.optional:
                node.name = "Optional" + node.name
        node.details = ", ".join(texts)
        node.warnings = tuple(warnings)

