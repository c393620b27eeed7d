"""toon mode: a TOON row block, then the trailer sections."""
import math

import pytest

from relate.output import render
from relate.output.toon import encode_field, number, string
from relate.result import Notification, PlanDescription, Result, Stats, Timings
from relate.values import Node, Relationship

STATEMENT = "UNWIND ['Ada', 'Grace', 'Noor'] AS name RETURN name"

# The timings of the recorded `CLAUDECODE=1 relate "<statement>"` run (toon under agent mode).
RECORDED_TIMINGS = Timings(
    elapsed_ms=0.38104099999999996, execute_ms=0.222542, lex_parse_ms=0.024708,
    lower_ms=0.034208999999999996, parse_ms=0.10475, plan_ms=0.043292,
    result_generation_ms=0.0005, rewrite_ms=0.007500000000000001)
ZERO = '{"elapsed_ms":0.0,"execute_ms":0.0,"lex_parse_ms":0.0,"lower_ms":0.0,"parse_ms":0.0,' \
       '"plan_ms":0.0,"result_generation_ms":0.0,"rewrite_ms":0.0}'
TRAILER = "timings:\n  " + ZERO + "\nplanCache:\n  miss\n"


def result(columns, rows, **kw):
    return Result(statement="s", columns=tuple(columns), rows=list(rows), **kw)


def toon(res, **kw):
    return render(res, "toon", **kw).stdout


def test_recorded_run_byte_for_byte():
    r = Result(statement=STATEMENT, columns=("name",), rows=[("Ada",), ("Grace",), ("Noor",)],
               timings=RECORDED_TIMINGS)
    out = render(r, "toon")
    assert out.stderr == ""
    assert out.stdout == (
        "rows[3]{name}:\n"
        "  Ada\n"
        "  Grace\n"
        "  Noor\n"
        "timings:\n"
        '  {"elapsed_ms":0.38104099999999996,"execute_ms":0.222542,"lex_parse_ms":0.024708,'
        '"lower_ms":0.034208999999999996,"parse_ms":0.10475,"plan_ms":0.043292,'
        '"result_generation_ms":0.0005,"rewrite_ms":0.007500000000000001}\n'
        "planCache:\n"
        "  miss\n")


def test_row_cap():
    r = result(["name"], [("Ada",), ("Grace",), ("Noor",)])
    out = render(r, "toon", max_rows=2)
    assert out.stderr == ("warning: result truncated to 2 rows (the statement returned 3); "
                          "pass --max-rows 0 for all rows\n")
    assert out.stdout == ("rows[2]{name}:\n  Ada\n  Grace\n" + TRAILER
                          + 'rowCap:\n  {"kept":2,"total":3}\ntruncated:\n  true\n')


def test_multi_column_primitives_in_column_order():
    r = result(["name", "age", "ok", "score", "nick"],
               [("Ada", 36, True, 1.5, None), ("Grace Hopper", -2, False, 2.0, "Amazing, Grace")])
    assert toon(r) == ("rows[2]{name,age,ok,score,nick}:\n"
                       "  Ada,36,true,1.5,null\n"
                       '  Grace Hopper,-2,false,2,"Amazing, Grace"\n' + TRAILER)


def test_column_names_that_need_quotes():
    r = result(["n.name", "count(*)", "my col"], [(1, 2, 3)])
    assert toon(r).startswith('rows[1]{n.name,"count(*)","my col"}:\n  1,2,3\n')


@pytest.mark.parametrize("text, expected", [
    ("Ada", "Ada"), ("a b", "a b"), ("Zoë 世界 👋", "Zoë 世界 👋"), ("x#", "x#"), ("a|b", "a|b"),
    ("", '""'), (" a", '" a"'), ("a ", '"a "'), ("\ta", '"\\ta"'),
    ("true", '"true"'), ("false", '"false"'), ("null", '"null"'), ("True", "True"),
    ("42", '"42"'), ("-3.14", '"-3.14"'), ("05", '"05"'), ("+1", '"+1"'), ("1e-6", '"1e-6"'),
    ("1E5", '"1E5"'), (".5", ".5"), ("NaN", "NaN"),
    ("a:b", '"a:b"'), ('say "hi"', '"say \\"hi\\""'), ("c:\\dir", '"c:\\\\dir"'),
    ("[x]", '"[x]"'), ("{", '"{"'), ("a,b", '"a,b"'),
    ("line\nnext", '"line\\nnext"'), ("cr\r", '"cr\\r"'), ("bell\x07", '"bell\\u0007"'),
    ("-", '"-"'), ("-x", '"-x"'), ("#", '"#"'), ("#tag", '"#tag"'),
])
def test_string_quoting(text, expected):
    assert string(text) == expected
    r = result(["s"], [(text,)])
    assert toon(r).splitlines()[1] == "  " + expected


@pytest.mark.parametrize("value, expected", [
    (0, "0"), (-0.0, "0"), (1.0, "1"), (1.5, "1.5"), (-2, "-2"), (1e6, "1000000"),
    (1e-6, "0.000001"), (1.5e-5, "0.000015"), (1e16, "10000000000000000"),
    (1e20, "100000000000000000000"), (1e21, "1e+21"), (1.5e300, "1.5e+300"), (1e-7, "1e-7"),
    (-2.5e-8, "-2.5e-8"), (0.1 + 0.2, "0.30000000000000004"), (9007199254740993, "9007199254740993"),
    (2.0 ** 60, "1152921504606846976"), (-(2.0 ** 53) - 2, "-9007199254740994"),
    (math.inf, "null"), (math.nan, "null"),
])
def test_numbers(value, expected):
    assert number(value) == expected


def test_non_finite_float_cell_is_null():
    assert toon(result(["f"], [(float("inf"),)])).startswith("rows[1]{f}:\n  null\n")


def test_empty_result_uses_empty_array_form():
    assert toon(result(["name"], [])) == "rows: []\n" + TRAILER


def test_uniform_map_column_becomes_nested_field_group():
    r = result(["id", "m"], [(1, {"x": 1, "y": "a"}), (2, {"y": "b", "x": None})])
    assert toon(r) == "rows[2]{id,m{x,y}}:\n  1,1,a\n  2,null,b\n" + TRAILER


def test_nodes_make_rows_an_expanded_list():
    ada = Node(0, {"Person"}, {"name": "Ada", "born": 1815})
    bob = Node(1, {"Person", "Dev"}, {})
    knows = Relationship(4, "KNOWS", ada, bob, {"since": 1843})
    r = result(["n", "r", "x"], [(ada, knows, None), (bob, None, 1)])
    assert toon(r) == (
        "rows[2]:\n"
        "  - n:\n"
        "      id: 0\n"
        "      kind: node\n"
        "      labels[1]: Person\n"
        "      properties:\n"
        "        name: Ada\n"
        "        born: 1815\n"
        "    r:\n"
        "      id: 4\n"
        "      kind: relationship\n"
        "      type: KNOWS\n"
        "      start_node: 0\n"
        "      end_node: 1\n"
        "      properties:\n"
        "        since: 1843\n"
        "    x: null\n"
        "  - n:\n"
        "      id: 1\n"
        "      kind: node\n"
        "      labels[2]: Dev,Person\n"
        "      properties:\n"
        "    r: null\n"
        "    x: 1\n" + TRAILER)


def test_list_cells():
    r = result(["tags", "n"], [(["a", "b,c", None, 2], 1), ([], 2), ([[1, 2], []], 3)])
    assert toon(r) == (
        "rows[3]:\n"
        '  - tags[4]: a,"b,c",null,2\n'
        "    n: 1\n"
        "  - tags: []\n"
        "    n: 2\n"
        "  - tags[2]:\n"
        "      - [2]: 1,2\n"
        "      - [0]:\n"
        "    n: 3\n" + TRAILER)


def test_list_of_maps_cell_is_a_nested_table():
    r = result(["people", "n"], [([{"name": "Ada", "age": 36}, {"name": "Bob", "age": 7}], 2)])
    assert toon(r) == ("rows[1]:\n"
                       "  - people[2]{name,age}:\n"
                       "      Ada,36\n"
                       "      Bob,7\n"
                       "    n: 2\n" + TRAILER)


def test_map_cells_mixed_with_null_and_empty_maps():
    r = result(["m"], [({"a": 1},), (None,), ({},)])
    assert toon(r) == ("rows[3]:\n"
                       "  - m:\n"
                       "      a: 1\n"
                       "  - m: null\n"
                       "  - m:\n" + TRAILER)


def test_keyed_tabular_map_of_uniform_maps():
    assert encode_field("m", {"ada": {"age": 36, "city": "Oxford"},
                              "bob": {"age": 7, "city": "Oslo"}}) == [
        "m[2:]{age,city}:", "  ada: 36,Oxford", "  bob: 7,Oslo"]


def test_rows_with_no_columns():
    assert encode_field("rows", [{}, {}]) == ["rows[2]:", "  -", "  -"]


def test_write_stats_section():
    r = result([], [], stats=Stats(nodes_created=1, properties_set=1, labels_added=1))
    assert toon(r) == (
        "rows: []\n"
        "stats:\n"
        '  {"constraints_added":0,"constraints_removed":0,"indexes_added":0,"indexes_removed":0,'
        '"labels_added":1,"labels_removed":0,"nodes_created":1,"nodes_deleted":0,'
        '"properties_set":1,"relationships_created":0,"relationships_deleted":0}\n' + TRAILER)


def test_explain_and_notifications_sections():
    note = Notification(code="C", gql_status="03N90", severity="WARNING", category="PERFORMANCE",
                        title="t", description="d", remedy="r")
    plan = PlanDescription(operator="ProduceResults", details="1 item(s)")
    r = result(["x"], [], plan=plan, notifications=(note,), explained=True, plan_cache="hit")
    assert toon(r) == (
        "rows: []\n"
        "notifications:\n"
        '  [{"category":"PERFORMANCE","code":"C","description":"d","gql_status":"03N90",'
        '"remedy":"r","severity":"WARNING","title":"t"}]\n'
        "plan:\n"
        '  {"profiled":false,"root":{"actual":null,"children":[],"details":"1 item(s)",'
        '"estimated_rows":null,"identifiers":[],"operator":"ProduceResults","warnings":[]},'
        '"schema":"relate.plan/v1","statement":"s"}\n'
        "timings:\n  " + ZERO + "\nplanCache:\n  hit\n")


def test_no_trailing_spaces_anywhere():
    ada = Node(0, {"Person"}, {"name": "Ada", "tags": ["x", "y"], "empty": []})
    r = result(["n", "l", "m"], [(ada, [[], [{"a": 1}], {}], {"k": {}, "j": []})])
    for line in toon(r).splitlines():
        assert line == line.rstrip(" ")
        assert (len(line) - len(line.lstrip(" "))) % 2 == 0
