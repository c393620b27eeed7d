"""Simple property tests on a scanned node -> one generated list comprehension per scan.

A *simple test* is `var.key OP value` (OP one of = <> < <= > >=) or `var.key IS [NOT] NULL`, where
`var` is the node a pattern part starts from and `value` cannot depend on that node.  The planner's
`push_filters` rule collects them from the node's inline property map and from the WHERE
conjuncts (`plan/conjuncts.py`); the pattern matcher then filters the scanned nodes with
`ScanFilter.select` before any row tuple is built.

Per execution the values are computed once (from the incoming row) and each test is classed by its
value: string, number, boolean, null or other.  The tuple of (operator, class) picks a Python
function generated from source once and cached, so a scan over ten thousand nodes is one
comprehension with inline comparisons instead of a closure call chain per node.  The generated
comparisons give exactly what `compare.equals` / `compare.compare` give for those classes (a value
of another type never matches a string test, booleans are not numbers, NaN matches no ordering);
values of any other class (lists, maps, temporal values, points) fall back to those generic
functions for that one test.  Keys and values reach the generated code as arguments, never as
source text.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..values.compare import compare, equals


class Op(Enum):
    EQ, NE, LT, LE, GT, GE, NULL, NOT_NULL = "==", "!=", "<", "<=", ">", ">=", "null", "notnull"


@dataclass(frozen=True, slots=True)
class Test:
    key: str
    op: Op
    value: object = None  # compiled closure (row, ctx) -> value; None for the null tests
    column: bool = False  # an equality the label's column may answer (`ScanFilter.select_label`)


# ---------------------------------------------------------------- value classes and templates
_STR, _NUM, _BOOL, _NULL, _OTHER = "s", "n", "b", "0", "o"


def _class(v) -> str:
    t = type(v)
    if t is str:
        return _STR
    if t is int or t is float:
        return _NUM
    if t is bool:
        return _BOOL
    if v is None:
        return _NULL
    return _OTHER


def _template(i: int, op: Op, cls: str) -> str:
    """Source of one test on node `n`; `k{i}` is the key, `c{i}` the value."""
    v, get = f"v{i}", f"n.props.get(k{i})"
    if op == Op.NULL:
        return f"{get} is None"
    if op == Op.NOT_NULL:
        return f"{get} is not None"
    if cls == _OTHER:
        # the generic functions, passed in as g{i}: (value, constant) -> True/False/None
        return f"g{i}({get}, c{i}) is True"
    if op == Op.EQ:
        if cls == _STR:
            return f"{get} == c{i}"
        if cls == _NUM:  # True == 1 in Python, never in Cypher
            return f"(({v} := {get}) == c{i} and {v} is not True and {v} is not False)"
        return f"{get} is c{i}"  # boolean
    if op == Op.NE:
        if cls == _STR:
            return f"(({v} := {get}) is not None and {v} != c{i})"
        if cls == _NUM:
            return f"(({v} := {get}) is not None and ({v} != c{i} or {v} is True or {v} is False))"
        return f"(({v} := {get}) is not None and {v} is not c{i})"
    kinds = {_STR: "type({v}) is str", _NUM: "type({v}) in _NUMS", _BOOL: "type({v}) is bool"}[cls]
    return f"({kinds.format(v=f'({v} := {get})')} and {v} {op.value} c{i})"


_CACHE: dict[tuple, object] = {}
_CACHE_MAX = 512
_NUMS = frozenset((int, float))


def _compiled(signature: tuple):
    fn = _CACHE.get(signature)
    if fn is None:
        args = ", ".join(f"k{i}, c{i}, g{i}" for i in range(len(signature)))
        tests = " and ".join(_template(i, op, cls) for i, (op, cls) in enumerate(signature))
        src = (f"def scan(nodes, {args}):\n"
               f"    return [n for n in nodes if {tests}]\n")
        space = {"_NUMS": _NUMS}
        exec(compile(src, "<relate scan filter>", "exec"), space)
        if len(_CACHE) >= _CACHE_MAX:
            _CACHE.clear()  # many shapes of WHERE seen: start over rather than grow without end
        fn = _CACHE[signature] = space["scan"]
    return fn


def _generic(op: Op):
    if op == Op.EQ:
        return equals
    if op == Op.NE:
        def ne(a, b):
            r = equals(a, b)
            return None if r is None else not r
        return ne
    test = {Op.LT: lambda c: c < 0, Op.GT: lambda c: c > 0,
            Op.LE: lambda c: c <= 0, Op.GE: lambda c: c >= 0}[op]

    def ordered(a, b):
        c = compare(a, b)
        return None if c is None else test(c)
    return ordered


class ScanFilter:
    """The simple tests on one scanned node, applied in one pass."""

    __slots__ = ("tests", "generic")

    def __init__(self, tests: list[Test]) -> None:
        self.tests = tuple(tests)
        self.generic = tuple(_generic(t.op) if t.value is not None else None for t in tests)

    def _bind(self, row, ctx):
        """-> (signature, arguments, values) for this row, or None when a test compares with null."""
        sig, args, values = [], [], []
        for t, g in zip(self.tests, self.generic):
            c = None
            cls = _NULL
            if t.value is not None:
                c = t.value(row, ctx)
                cls = _class(c)
                if cls == _NULL:
                    return None  # `= null`, `< null`, ...: never true
            sig.append((t.op, cls))
            args += (t.key, c, g)
            values.append(c)
        return sig, args, values

    def select(self, nodes, row, ctx) -> list:
        bound = self._bind(row, ctx)
        if bound is None:
            return []
        sig, args, _ = bound
        return _compiled(tuple(sig))(nodes, *args)

    def select_label(self, graph, label: str, row, ctx) -> list:
        """`select` over the nodes of `label`; the first equality the plan marked (`column`) whose
        value is a string or a number is answered from the graph's column of that property when
        it keeps one (`Graph.column`), by `list.index` runs in C, and the other tests then see
        only the nodes it found."""
        bound = self._bind(row, ctx)
        if bound is None:
            return []
        sig, args, values = bound
        tests = self.tests
        for i, (op, cls) in enumerate(sig):
            if not tests[i].column or (cls != _STR and cls != _NUM):
                continue
            c = values[i]
            if c != c:
                return []  # NaN equals nothing
            column = graph.column(label, tests[i].key)
            if column is None:
                break
            nodes, col = column
            found = [nodes[j] for j in _positions(col, c) if cls == _STR or type(col[j]) is not bool]
            if len(sig) == 1:
                return found
            rest = tuple(sig[:i] + sig[i + 1:])
            return _compiled(rest)(found, *(args[:3 * i] + args[3 * i + 3:]))
        return _compiled(tuple(sig))(graph.nodes_with_label(label), *args)


def _positions(values: list, c) -> list[int]:
    """Where `c` sits in `values` (Python equality; the caller drops what Cypher would not)."""
    out = []
    find = values.index
    i = -1
    try:
        while True:
            i = find(c, i + 1)
            out.append(i)
    except ValueError:
        return out
