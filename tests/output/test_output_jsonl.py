"""jsonl mode: one JSON object per row, then a trailer line."""
import json

from relate.output import render
from relate.result import Notification, PlanDescription, Result, Stats, Timings
from relate.values import Node, Path, Relationship

STATEMENT = "UNWIND ['Ada', 'Grace', 'Noor'] AS name RETURN name"

# The timings of the recorded plain `relate "<statement>"` run (jsonl, the piped default).
RECORDED_TIMINGS = Timings(
    elapsed_ms=0.404375, execute_ms=0.249166, lex_parse_ms=0.023, lower_ms=0.031917,
    parse_ms=0.102042, plan_ms=0.043542, result_generation_ms=0.000625, rewrite_ms=0.007459)
RECORDED_TIMINGS_JSON = (
    '{"elapsed_ms":0.404375,"execute_ms":0.249166,"lex_parse_ms":0.023,"lower_ms":0.031917,'
    '"parse_ms":0.102042,"plan_ms":0.043542,"result_generation_ms":0.000625,"rewrite_ms":0.007459}')
ZERO = '{"elapsed_ms":0.0,"execute_ms":0.0,"lex_parse_ms":0.0,"lower_ms":0.0,"parse_ms":0.0,' \
       '"plan_ms":0.0,"result_generation_ms":0.0,"rewrite_ms":0.0}'


def names(timings=None):
    return Result(statement=STATEMENT, columns=("name",), rows=[("Ada",), ("Grace",), ("Noor",)],
                  timings=timings or Timings())


def test_recorded_run_byte_for_byte():
    out = render(names(RECORDED_TIMINGS), "jsonl")
    assert out.stderr == ""
    assert out.stdout == (
        '{"name":"Ada"}\n'
        '{"name":"Grace"}\n'
        '{"name":"Noor"}\n'
        '{"planCache":"miss","timings":' + RECORDED_TIMINGS_JSON + '}\n')


def test_row_cap_in_band_and_on_stderr():
    out = render(names(), "jsonl", max_rows=2)
    assert out.stderr == ("warning: result truncated to 2 rows (the statement returned 3); "
                          "pass --max-rows 0 for all rows\n")
    assert out.stdout == (
        '{"name":"Ada"}\n'
        '{"name":"Grace"}\n'
        '{"planCache":"miss","rowCap":{"kept":2,"total":3},"timings":' + ZERO
        + ',"truncated":true}\n')


def test_single_row_cap_wording():
    out = render(names(), "jsonl", max_rows=1)
    assert out.stderr == ("warning: result truncated to 1 row (the statement returned 3); "
                          "pass --max-rows 0 for all rows\n")
    assert out.stdout.splitlines()[0] == '{"name":"Ada"}'
    assert json.loads(out.stdout.splitlines()[1])["rowCap"] == {"kept": 1, "total": 3}


def test_empty_result_prints_trailer_only():
    r = Result(statement="s", columns=("name",), rows=[])
    assert render(r, "jsonl").stdout == '{"planCache":"miss","timings":' + ZERO + '}\n'


def test_multi_column_rows_sorted_keys_nulls_and_graph_values():
    a = Node(1, {"Person"}, {"name": "Ada"})
    b = Node(2, set(), {})
    r1 = Relationship(5, "KNOWS", a, b)
    r = Result(statement="s", columns=("z", "a", "p"),
               rows=[(None, True, Path((a, b), (r1,))), (1.5, False, None)])
    assert render(r, "jsonl").stdout.splitlines()[:2] == [
        '{"a":true,"p":{"elements":[{"id":1,"kind":"node","labels":["Person"],'
        '"properties":{"name":"Ada"}},{"end_node":2,"id":5,"kind":"relationship","properties":{},'
        '"start_node":1,"type":"KNOWS"},{"id":2,"kind":"node","labels":[],"properties":{}}],'
        '"kind":"path","length":1},"z":null}',
        '{"a":false,"p":null,"z":1.5}',
    ]


def test_write_stats_in_trailer():
    r = Result(statement="CREATE (n:P {a: 1}) RETURN n.a AS a", columns=("a",), rows=[(1,)],
               stats=Stats(nodes_created=1, properties_set=1, labels_added=1))
    assert render(r, "jsonl").stdout == (
        '{"a":1}\n'
        '{"planCache":"miss","stats":{"constraints_added":0,"constraints_removed":0,'
        '"indexes_added":0,"indexes_removed":0,"labels_added":1,"labels_removed":0,'
        '"nodes_created":1,"nodes_deleted":0,"properties_set":1,"relationships_created":0,'
        '"relationships_deleted":0},"timings":' + ZERO + '}\n')


def test_explain_plan_and_notifications_in_trailer():
    note = Notification(code="C", gql_status="03N90", severity="WARNING", category="PERFORMANCE",
                        title="t", description="d", remedy="r")
    plan = PlanDescription(operator="ProduceResults", details="1 item(s)")
    r = Result(statement="EXPLAIN RETURN 1 AS x", columns=("x",), rows=[], plan=plan,
               notifications=(note,), explained=True)
    lines = render(r, "jsonl").stdout.splitlines()
    assert len(lines) == 1
    trailer = json.loads(lines[0])
    assert list(trailer) == ["notifications", "plan", "planCache", "timings"]
    assert trailer["plan"] == r.plan_json()
    assert trailer["notifications"] == [note.as_dict()]
