"""The nesting bound on values (`values/depth.py`): every construct that nests a value one level
deeper passes at `MAX_DEPTH` and answers `ValueTooDeep` one level past it, and a value at the
bound is compared, grouped, sorted and printed like any other.  These run inside Pyodide too
(tests/pyodide compares them): before the bound, the 20,000-deep `reduce` killed that runtime."""
from __future__ import annotations

import json

import pytest

import relate
from relate.browser import run_cli
from relate.errors import RelateError
from relate.values.depth import MAX_DEPTH, depth_of, json_too_deep

N = MAX_DEPTH


def _wrap(levels: int, kind: str = "list") -> str:
    """A reduce() that returns a value `levels` deep (each step adds one level)."""
    if kind == "list":
        return f"reduce(acc = [], x IN range(1, {levels - 1}) | [acc])"
    return f"reduce(acc = {{}}, x IN range(1, {levels - 1}) | {{a: acc}})"


def _nested(levels: int) -> list:
    value: list = []
    for _ in range(levels - 1):
        value = [value]
    return value


@pytest.fixture
def conn():
    db = relate.connect()
    db.execute("CREATE (:P {name: 'p'})-[:R]->(:Q)")
    return db


# each builds a value exactly `d` levels deep, by the construct it names
BUILDERS = {
    "list literal": lambda d: f"RETURN {_wrap(d)} AS v",
    "map literal": lambda d: f"RETURN {_wrap(d, 'map')} AS v",
    "map of one subject": lambda d: f"WITH {{x: {_wrap(d - 1)}, y: 1}} AS m RETURN {{x: m.x, y: m.y}} AS v",
    "list comprehension": lambda d: f"WITH {_wrap(d - 1)} AS w RETURN [i IN [1, 2] | w] AS v",
    "map projection": lambda d: f"WITH {_wrap(d - 1, 'map')} AS w, {{k: 1}} AS m RETURN m {{.k, w: w}} AS v",
    "append a map": lambda d: f"WITH {_wrap(d - 1, 'map')} AS w RETURN [1] + w AS v",
    "prepend a map": lambda d: f"WITH {_wrap(d - 1, 'map')} AS w RETURN w + [1] AS v",
    "collect": lambda d: f"WITH {_wrap(d - 1)} AS w UNWIND [1, 2] AS i RETURN collect(w) AS v",
    "pattern comprehension": lambda d: f"MATCH (p:P) WITH p, {_wrap(d - 1)} AS w RETURN [(p)-->() | w] AS v",
    "COLLECT subquery": lambda d: f"WITH {_wrap(d - 1)} AS w RETURN COLLECT {{ MATCH (p:P) RETURN w }} AS v",
}


@pytest.mark.parametrize("construct", BUILDERS)
def test_each_builder_passes_at_the_bound_and_refuses_one_level_more(conn, construct):
    (value,), = conn.execute(BUILDERS[construct](N)).rows
    assert depth_of(value, N + 1) == N
    with pytest.raises(RelateError) as caught:
        conn.execute(BUILDERS[construct](N + 1))
    assert caught.value.kind == "ValueTooDeep"
    assert caught.value.message == (f"runtime error: ValueTooDeep: a value nests lists and maps more than "
                                    f"{N} levels deep; flatten it")


@pytest.mark.parametrize("kind", ["list", "map"])
def test_a_value_twenty_thousand_deep_is_refused_not_built(conn, kind):
    # freeing the value this built used to overflow Pyodide's stack and kill the runtime
    with pytest.raises(RelateError) as caught:
        conn.execute(f"RETURN {_wrap(20000, kind)} AS v")
    assert caught.value.kind == "ValueTooDeep"


def test_a_parameter_past_the_bound_is_refused_before_the_run(conn):
    assert conn.execute("RETURN size($x) AS n", {"x": _nested(N)}).rows == [(1,)]
    for deep in (_nested(N + 1), {"rows": [{"k": _nested(N)}]}):
        with pytest.raises(RelateError) as caught:
            conn.execute("CREATE (:S) RETURN size($x) AS n", {"x": deep})
        assert caught.value.kind == "ValueTooDeep"
    assert conn.execute("MATCH (s:S) RETURN count(s) AS n").rows == [(0,)]  # nothing ran


def test_a_value_at_the_bound_compares_groups_and_sorts(conn):
    w = _wrap(N)
    rows = conn.execute(f"WITH {w} AS v, {_wrap(N, 'map')} AS m "
                        "RETURN v = v AS same, v < [v[0], 1] AS before, v[0] IN [1, v[0]] AS inside, m = m AS maps, "
                        "valueType(v) STARTS WITH 'LIST<LIST' AS typed").rows
    assert rows == [(True, True, True, True, True)]
    rows = conn.execute(f"UNWIND [1, 2, 1] AS i WITH i, {w} AS v, {_wrap(N, 'map')} AS m "
                        "RETURN count(DISTINCT v) AS a, count(DISTINCT m) AS b, collect(DISTINCT i) AS c").rows
    assert rows == [(1, 1, [1, 2])]
    rows = conn.execute(f"UNWIND [2, 1] AS i WITH i, {_wrap(N, 'map')} AS m RETURN i, m ORDER BY m, i").rows
    assert [r[0] for r in rows] == [1, 2]
    rows = conn.execute(f"UNWIND [1, 1] AS i WITH i, {w} AS v RETURN v, count(*) AS c").rows
    assert rows[0][1] == 2


@pytest.mark.parametrize("mode", ["table", "jsonl", "toon", "envelope"])
def test_a_value_at_the_bound_prints_in_every_output_mode(mode):
    out = run_cli(["--mode", mode, f"RETURN {_wrap(N)} AS v, {_wrap(N, 'map')} AS m"])
    assert out["exitCode"] == 0, out["stderr"][-500:]
    assert "[" * N in out["stdout"] or mode == "toon"
    deeper = run_cli(["--mode", mode, f"RETURN {_wrap(N + 1)} AS v"])
    assert deeper["exitCode"] != 0 and "ValueTooDeep" in deeper["stdout"] + deeper["stderr"]


def test_json_parameters_past_the_bound_are_refused_before_they_are_decoded():
    deep = "[" * 20000 + "]" * 20000
    out = run_cli(["--param", f"x={deep}", "RETURN size($x) AS n"])
    assert out["exitCode"] == 2
    assert f"Error: --param x: a value nests lists and maps more than {N} levels deep" in out["stderr"] + out["stdout"]
    out = run_cli(["--params", json.dumps({"x": _nested(N)}), "RETURN size($x) AS n"])
    assert out["exitCode"] == 0, out["stderr"]
    out = run_cli(["--params", '{"x": ' + deep + "}", "RETURN size($x) AS n"])
    assert out["exitCode"] == 2


def test_the_json_depth_scan_skips_strings_and_counts_cheaply():
    assert not json_too_deep('{"a": "' + "[" * 1000 + '"}', 3)
    assert not json_too_deep('{"a": "\\"' + "[" * 1000 + '"}', 3)
    assert json_too_deep("[[[[]]]]", 3) and not json_too_deep("[[[]]]", 3)
    assert json_too_deep(b'{"a": [[{"b": []}]]}', 3)
    assert not json_too_deep("[]" * 1000, 3)  # wide, not deep


def test_the_page_refuses_a_request_past_the_bound_before_decoding_it():
    from relate import browser

    deep = {"op": "cell", "statement": "RETURN size($x) AS n", "parameters": {"x": _nested(N + 1)}}
    text = json.dumps(deep)
    for request in (text, text.replace("[]", "[" * 20000 + "]" * 20000)):
        answer = json.loads(browser.call(request))
        assert answer["kind"] == "ValueTooDeep"
    ok = json.loads(browser.call(json.dumps({**deep, "parameters": {"x": _nested(N)}})))
    assert ok["error"] is None and ok["values"] == [[1]]


def test_an_mcp_line_nested_twenty_thousand_deep_gets_serde_s_refusal():
    from relate.protocols.mcp import McpServer

    server = McpServer(relate.connect())
    line = ('{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "read_cypher", '
            '"arguments": {"statement": "RETURN 1", "parameters": {"x": ' + "[" * 20000 + "]" * 20000 + "}}}}")
    reply = json.loads(server.handle_line(line))
    assert "recursion limit exceeded" in json.dumps(reply)
