"""An expression and the names it sees -> the first error the expression compiler would meet.

The walk visits operands in the order `exec/compile.py` compiles them (operands before the check
on their operator; a function's name and arity before its arguments, its argument types after
them; a comprehension's source, then its predicate's type, then its body), so that an expression
with several faults reports the one it always did.  Pattern expressions and subqueries go to the
hooks the clause walk gives (`build_order.py`), which walks them the way the planner plans them.
"""
from __future__ import annotations

from ..syntax import ast as A
from . import types as T
from .checks import functions as F
from .checks import operand_types as O
from .checks import variables as V
from .names import Names


class ExprOrder:
    def __init__(self, text: str, arity, pattern_hook, subquery_hook) -> None:
        self.text = text
        self.arity = arity            # lower-cased function name -> (min, max) or None
        self.pattern_hook = pattern_hook
        self.subquery_hook = subquery_hook

    def check(self, e: A.Expr, scope: Names) -> None:
        getattr(self, "_" + type(e).__name__)(e, scope)

    def _expect(self, e, scope: Names, kinds) -> None:
        O.expect(e, scope.typer, kinds, self.text)

    # leaves
    def _Literal(self, e, scope):
        pass

    _Parameter = _Literal

    def _Variable(self, e, scope):
        V.defined(e.name, scope.has(e.name), e.pos, self.text)

    def _Property(self, e, scope):
        self.check(e.subject, scope)
        self._expect(e.subject, scope, O.PROPERTY_SUBJECT)

    def _Subscript(self, e, scope):
        self.check(e.subject, scope)
        self.check(e.index, scope)

    def _Slice(self, e, scope):
        self.check(e.subject, scope)
        if e.start is not None:
            self.check(e.start, scope)
        if e.end is not None:
            self.check(e.end, scope)

    def _Binary(self, e, scope):
        self.check(e.left, scope)
        self.check(e.right, scope)
        O.binary(e, scope.typer, self.text)

    def _Comparison(self, e, scope):
        for x in e.operands:
            self.check(x, scope)

    def _Unary(self, e, scope):
        self.check(e.operand, scope)
        O.unary(e, scope.typer, self.text)

    def _LabelTest(self, e, scope):
        self.check(e.subject, scope)
        self._expect(e.subject, scope, T.Kind.NODE | T.Kind.RELATIONSHIP)

    def _TypePredicate(self, e, scope):
        self.check(e.subject, scope)

    def _NormalizedTest(self, e, scope):
        self.check(e.subject, scope)
        self._expect(e.subject, scope, T.Kind.STRING)

    def _ListLiteral(self, e, scope):
        for x in e.items:
            self.check(x, scope)

    def _MapLiteral(self, e, scope):
        for _, v in e.entries:
            self.check(v, scope)

    def _FunctionCall(self, e, scope):
        F.not_aggregate(e)
        if e.name.lower() == "exists":
            F.exists_argument(e, self.text)
            self.check(e.args[0], scope)
            return
        F.known(e, self.arity)
        for a in e.args:
            self.check(a, scope)
        F.argument_types(e, scope.typer, self.text)

    def _CountStar(self, e, scope):
        F.not_aggregate(e)

    def _Case(self, e, scope):
        if e.subject is not None:
            self.check(e.subject, scope)
        for w in e.whens:
            self.check(w.when, scope)
            self.check(w.then, scope)
        if e.default is not None:
            self.check(e.default, scope)
        if e.subject is None:
            for w in e.whens:
                self._expect(w.when, scope, T.Kind.BOOLEAN)

    def _iter_scope(self, scope: Names, var: str, source) -> Names:
        self._expect(source, scope, T.Kind.LIST)
        return scope.extended(var, scope.typer.of(source).element())

    def _ListComprehension(self, e, scope):
        self.check(e.source, scope)
        inner = self._iter_scope(scope, e.variable, e.source)
        if e.predicate is not None:
            self._expect(e.predicate, inner, T.Kind.BOOLEAN)
            self.check(e.predicate, inner)
        if e.projection is not None:
            self.check(e.projection, inner)

    def _Reduce(self, e, scope):
        self.check(e.init, scope)
        self.check(e.source, scope)
        with_acc = scope.extended(e.accumulator)  # its type changes as it folds: ANY
        inner = self._iter_scope(with_acc, e.variable, e.source)
        self.check(e.expression, inner)

    def _Quantifier(self, e, scope):
        self.check(e.source, scope)
        inner = self._iter_scope(scope, e.variable, e.source)
        if e.predicate is not None:
            self._expect(e.predicate, inner, T.Kind.BOOLEAN)
            self.check(e.predicate, inner)

    def _PatternPredicate(self, e, scope):
        self.pattern_hook(e, scope)

    _PatternComprehension = _PatternPredicate

    def _ExistsSubquery(self, e, scope):
        self.subquery_hook(e, scope)

    _CountSubquery = _CollectSubquery = _ExistsSubquery

    def _MapProjection(self, e, scope):
        self.check(e.subject, scope)
        for it in e.items:
            if it.kind is A.MapProjKind.LITERAL or it.kind is A.MapProjKind.VARIABLE:
                self.check(it.value, scope)
