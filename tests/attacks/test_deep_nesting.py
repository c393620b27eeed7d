"""Deeply nested statements, as a hostile client sends them: parsing stays linear (the prescan
pairs brackets in one pass; 20,000 nested parentheses parse in well under a second here, where
they took 40 s), and nesting past the bound is refused at once with a typed, positioned
`NestingTooDeep` instead of a RecursionError.  Everything up to the bound runs through every
stage (checks, plan, execution, the MCP reply), except a value the text builds past the values'
own bound (128 levels), refused with `ValueTooDeep` as it is built.  (Issue 14.)"""
from __future__ import annotations

import json

import pytest

import relate
from relate.errors import CypherRuntimeError, CypherSyntaxError
from relate.protocols.mcp import McpServer
from relate.syntax.parser import parse
from relate.values.depth import MAX_DEPTH

SHAPES = {
    "list": lambda n: "RETURN " + "[" * n + "1" + "]" * n + " AS x",
    "map": lambda n: "RETURN " + "{a:" * n + "1" + "}" * n + " AS x",
    "negation": lambda n: "RETURN " + "-" * n + "1 AS x",
    "not": lambda n: "RETURN " + "NOT " * n + "true AS x",
    "addition": lambda n: "RETURN " + "(1+" * n + "1" + ")" * n + " AS x",
    "case": lambda n: "RETURN " + "CASE WHEN true THEN " * n + "1" + " END" * n + " AS x",
    "function": lambda n: "RETURN " + "abs(" * n + "1" + ")" * n + " AS x",
    "comprehension": lambda n: "RETURN " + "[x IN " * n + "[1]" + " | x]" * n + " AS x",
    "where": lambda n: "MATCH (n) WHERE " + "(n.a = 1 OR " * n + "true" + ")" * n + " RETURN n",
}

VALUES = ("list", "map")  # shapes whose depth is the value's, not only the text's


def _deepest_accepted(shape) -> int:
    lo, hi = 1, 1000
    while lo < hi:
        mid = (lo + hi + 1) // 2
        try:
            parse(shape(mid))
            lo = mid
        except CypherSyntaxError as e:
            assert e.kind == "NestingTooDeep"
            hi = mid - 1
    return lo


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_up_to_the_bound_runs_everywhere_and_past_it_is_refused(name):
    shape = SHAPES[name]
    n = _deepest_accepted(shape)
    assert n >= 60, f"{name}: only {n} levels accepted"
    db = relate.connect()
    runs = n
    if name in VALUES and n > MAX_DEPTH:
        # the text parses, but the value it builds nests past the values' own bound: refused
        # with a typed error as it is built (values/depth.py), at every door alike
        with pytest.raises(CypherRuntimeError) as deep:
            db.execute(shape(n))
        assert deep.value.kind == "ValueTooDeep"
        runs = MAX_DEPTH
    db.execute(shape(runs))
    line = McpServer(db).handle_line(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "read_cypher", "arguments": {"statement": shape(runs)}}}))
    assert json.loads(line)["result"]["isError"] is False
    with pytest.raises(CypherSyntaxError) as caught:
        db.execute(shape(n + 1))
    assert caught.value.kind == "NestingTooDeep" and caught.value.position is not None
    assert caught.value.message.startswith("syntax error: NestingTooDeep: the statement nests more than")


@pytest.mark.parametrize("opening, closing", [("(", ")"), ("[", "]"), ("{a:", "}")])
def test_twenty_thousand_levels_answer_at_once(opening, closing):
    text = "RETURN " + opening * 20000 + "1" + closing * 20000 + " AS x"
    try:
        relate.connect().execute(text)
    except CypherSyntaxError as e:
        assert e.kind == "NestingTooDeep"


def test_unbalanced_brackets_still_read_as_before():
    # the one-pass pairing keeps the old answer for a closing bracket that does not match
    for text in ("RETURN [1, (2]", "MATCH (n]) RETURN n", "RETURN {a: [1}]"):
        with pytest.raises(CypherSyntaxError) as caught:
            parse(text)
        assert caught.value.kind == "ParseError"
