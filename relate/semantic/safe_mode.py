"""`--safe`: a typed statement (`syntax.ast.Statement`) -> nothing, or a `SafeModeViolation`.

Two shapes are refused, each as a `CypherSyntaxError` of kind `SafeModeViolation` pointing at the
offending clause or node:

* a read that matches (`MATCH` or `OPTIONAL MATCH`, no updating clause in the same query part)
  whose final `RETURN` or `WITH` has neither `LIMIT` nor a reducing aggregate.  A `WITH` after the
  last `MATCH` that limits or reduces bounds the rows from there on, so it satisfies the rule
  too.  `collect()` aggregates but does not reduce (it hands back every row as a list), so it
  does not count.  Nor does a grouped aggregate whose grouping keys are unbounded: it gives one
  row per group, and `RETURN n.id, count(*)` has a group per node.  A key is bounded when its
  values come from a set fixed by the statement, whatever the graph holds: a literal, a
  parameter, or a predicate (comparisons, boolean operators, IS NULL, label and type tests,
  string tests, IN, EXISTS), which is true, false or null;
* a `CREATE` or `MERGE` that introduces a new node bound to a variable without giving it a label.
  Anonymous nodes `()` and variables bound by an earlier clause (or earlier in the same pattern)
  pass.

Aggregates are found with `astwalk.aggregates_in`, which walks with an explicit stack.
"""
from __future__ import annotations

from ..errors import CypherSyntaxError, E
from ..syntax import ast as A
from ..syntax.parser import position
from .astwalk import aggregates_in
from .checks.in_transactions import writes

KIND = "SafeModeViolation"

_UPDATING = (A.Create, A.Merge, A.SetClause, A.Remove, A.Delete, A.Foreach)


def check_safe(statement: A.Statement) -> None:
    """Raise `CypherSyntaxError(SafeModeViolation)` when `--safe` refuses the statement."""
    body = statement.body
    if not isinstance(body, A.Query):
        return  # index statements neither read rows nor create nodes
    for part in body.parts:
        _check_new_nodes(part, statement.text)
        _check_bounded_read(part, statement.text)


def _fail(text: str, pos: int, detail: str) -> CypherSyntaxError:
    return E.Syntax.SafeModeViolation(detail, position=position(text, pos) if text else None)


# ------------------------------------------------------------------ unbounded reads

def _check_bounded_read(part: A.SingleQuery, text: str) -> None:
    clauses = part.clauses
    if any(isinstance(c, _UPDATING) or (isinstance(c, A.SubqueryCall) and writes(c)) for c in clauses):
        return  # a write; its rows are not what --safe bounds
    # the rows are bounded once a projection after the last MATCH limits or reduces them
    matched = bounded = False
    final = None
    grouped_by: A.ProjectionItem | None = None  # the unbounded key of the last grouped aggregate
    for c in clauses:
        if isinstance(c, A.Match) or (isinstance(c, A.SubqueryCall) and _matches(c)):
            matched, bounded, grouped_by = True, False, None
        elif isinstance(c, (A.Return, A.With)):
            final = c
            proj = c.projection
            if proj.limit is not None:
                bounded = True
            elif any(_has_reducing_aggregate(it.expr) for it in proj.items):
                key = next((it for it in proj.items if not aggregates_in(it.expr) and not _bounded_key(it.expr)),
                           None)
                if key is None:
                    bounded = True
                elif not bounded:
                    grouped_by = key
    if not matched or bounded or final is None:
        return
    word = "RETURN" if isinstance(final, A.Return) else "WITH"
    if grouped_by is not None:
        raise _fail(text, final.pos,
                    f"a MATCH read grouped by {grouped_by.text} can give a row per node; "
                    f"add LIMIT to its final {word}, or group only by parameters, literals or predicates")
    raise _fail(text, final.pos,
                f"a MATCH read needs LIMIT or a reducing aggregate (count, sum, min, max, ...) in its final "
                f"{word}; collect() does not bound it")


def _matches(c: A.SubqueryCall) -> bool:
    """A CALL { } whose rows come from a MATCH of its own (they reach the outer query)."""
    return any(isinstance(x, A.Match) for part in c.query.parts for x in part.clauses)


_PREDICATE_OPS = frozenset((A.BinOp.EQ, A.BinOp.NE, A.BinOp.LT, A.BinOp.GT, A.BinOp.LE, A.BinOp.GE,
                            A.BinOp.AND, A.BinOp.OR, A.BinOp.XOR, A.BinOp.IN, A.BinOp.STARTS_WITH,
                            A.BinOp.ENDS_WITH, A.BinOp.CONTAINS, A.BinOp.REGEX))
_PREDICATES = (A.Literal, A.Parameter, A.Comparison, A.LabelTest, A.TypePredicate, A.NormalizedTest,
               A.PatternPredicate, A.ExistsSubquery, A.Quantifier)


def _bounded_key(e: A.Expr) -> bool:
    """Whether a grouping key takes its values from a set the statement fixes (see above)."""
    if isinstance(e, _PREDICATES):
        return True
    if isinstance(e, A.Binary):
        return e.op in _PREDICATE_OPS
    if isinstance(e, A.Unary):  # NOT and the null tests are predicates; a sign keeps its operand's values
        return e.op not in (A.UnOp.NEG, A.UnOp.POS) or _bounded_key(e.operand)
    if isinstance(e, (A.ListLiteral, A.MapLiteral)):
        items = e.items if isinstance(e, A.ListLiteral) else tuple(v for _, v in e.entries)
        return all(_bounded_key(x) for x in items)
    return False


def _has_reducing_aggregate(expr: A.Expr) -> bool:
    # aggregates inside a subquery or pattern comprehension reduce that, not this projection
    return any(isinstance(a, A.CountStar) or a.name.lower() != "collect" for a in aggregates_in(expr))


# ------------------------------------------------------------------ unlabelled new nodes

def _check_new_nodes(part: A.SingleQuery, text: str) -> None:
    bound: set[str] = set()
    for clause in part.clauses:
        _visit_clause(clause, bound, text)


def _visit_clause(clause: A.Clause, bound: set[str], text: str) -> None:
    if isinstance(clause, A.Create):
        for p in clause.pattern.parts:
            _creates(p, bound, text, "CREATE")
    elif isinstance(clause, A.Merge):
        _creates(clause.part, bound, text, "MERGE")
    elif isinstance(clause, A.Match):
        for p in clause.pattern.parts:
            _bind_part(p, bound)
    elif isinstance(clause, (A.Unwind, A.LoadCsv)):
        bound.add(clause.variable)
    elif isinstance(clause, (A.With, A.Return)):
        proj = clause.projection
        names = {it.alias or (it.expr.name if isinstance(it.expr, A.Variable) else it.text) for it in proj.items}
        if proj.star:
            bound.update(names)
        else:
            bound.clear()
            bound.update(names)
    elif isinstance(clause, A.Call):
        for y in clause.yields or ():
            bound.add(y.alias or y.name)
    elif isinstance(clause, A.SubqueryCall):
        for part in clause.query.parts:  # imports over-approximated: every outer name
            inner = set(bound)
            for c in part.clauses:
                _visit_clause(c, inner, text)
            last = part.clauses[-1] if part.clauses else None
            if isinstance(last, A.Return):
                bound.update(it.alias or it.text for it in last.projection.items)
    elif isinstance(clause, A.Foreach):
        inner = set(bound)
        inner.add(clause.variable)
        for c in clause.body:
            _visit_clause(c, inner, text)


def _bind_part(part: A.PatternPart, bound: set[str]) -> None:
    if part.variable:
        bound.add(part.variable)
    for n in part.element.nodes:
        if n.variable:
            bound.add(n.variable)
    for r in part.element.rels:
        if r.variable:
            bound.add(r.variable)


def _creates(part: A.PatternPart, bound: set[str], text: str, word: str) -> None:
    for n in part.element.nodes:
        if n.variable is None or n.variable in bound:
            continue
        if not n.labels:
            raise _fail(text, n.pos, f"{word} of a new node ({n.variable}) without a label; give it a label, "
                                     f"e.g. ({n.variable}:Label)")
        bound.add(n.variable)
    _bind_part(part, bound)
