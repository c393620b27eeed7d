"""envelope mode: one compact JSON object per result set."""
import json

from relate.output import render
from relate.result import Notification, PlanDescription, Result, Stats, Timings
from relate.values import Node, Relationship

STATEMENT = "UNWIND ['Ada', 'Grace', 'Noor'] AS name RETURN name"

# The timings of the recorded `--mode envelope --max-rows 2` run.
CAP_RUN_TIMINGS = Timings(
    elapsed_ms=0.678416, execute_ms=0.5296660000000001, lex_parse_ms=0.023083, lower_ms=0.032458,
    parse_ms=0.098, plan_ms=0.041625, result_generation_ms=0.00041600000000000003,
    rewrite_ms=0.007083)

ZERO = '{"elapsed_ms":0.0,"execute_ms":0.0,"lex_parse_ms":0.0,"lower_ms":0.0,"parse_ms":0.0,' \
       '"plan_ms":0.0,"result_generation_ms":0.0,"rewrite_ms":0.0}'


def names(timings=None):
    return Result(statement=STATEMENT, columns=("name",), rows=[("Ada",), ("Grace",), ("Noor",)],
                  timings=timings or Timings())


def test_recorded_envelope():
    t = Timings(elapsed_ms=0.5, execute_ms=0.25, lex_parse_ms=0.02, lower_ms=0.03, parse_ms=0.1,
                plan_ms=0.04, result_generation_ms=0.0005, rewrite_ms=0.007)
    out = render(names(t), "envelope")
    assert out.stderr == ""
    assert out.stdout == (
        '{"columnTypes":["STRING"],"columns":["name"],"notifications":[],"planCache":"miss",'
        '"rows":[{"name":"Ada"},{"name":"Grace"},{"name":"Noor"}],'
        '"timings":{"elapsed_ms":0.5,"execute_ms":0.25,"lex_parse_ms":0.02,"lower_ms":0.03,'
        '"parse_ms":0.1,"plan_ms":0.04,"result_generation_ms":0.0005,"rewrite_ms":0.007},'
        '"truncated":false}\n')


def test_recorded_row_cap_run_byte_for_byte():
    out = render(names(CAP_RUN_TIMINGS), "envelope", max_rows=2)
    assert out.stderr == ("warning: result truncated to 2 rows (the statement returned 3); "
                          "pass --max-rows 0 for all rows\n")
    assert out.stdout == (
        '{"columnTypes":["STRING"],"columns":["name"],"notifications":[],"planCache":"miss",'
        '"rowCap":{"kept":2,"total":3},"rows":[{"name":"Ada"},{"name":"Grace"}],'
        '"timings":{"elapsed_ms":0.678416,"execute_ms":0.5296660000000001,"lex_parse_ms":0.023083,'
        '"lower_ms":0.032458,"parse_ms":0.098,"plan_ms":0.041625,'
        '"result_generation_ms":0.00041600000000000003,"rewrite_ms":0.007083},"truncated":true}\n')


def test_cap_not_reached_or_disabled():
    for cap in (None, 0, 3, 100):
        out = render(names(), "envelope", max_rows=cap)
        assert out.stderr == ""
        doc = json.loads(out.stdout)
        assert doc["truncated"] is False and "rowCap" not in doc and len(doc["rows"]) == 3


def test_empty_result_keeps_columns_and_reports_any():
    r = Result(statement="MATCH (n) RETURN n.name AS name, n.age AS age", columns=("name", "age"),
               rows=[])
    assert render(r, "envelope").stdout == (
        '{"columnTypes":["ANY","ANY"],"columns":["name","age"],"notifications":[],'
        '"planCache":"miss","rows":[],"timings":' + ZERO + ',"truncated":false}\n')


def test_multi_column_nulls_and_graph_values():
    ada = Node(0, {"Person"}, {"name": "Ada", "born": 1815})
    bob = Node(1, {"Person"}, {"name": "Bob"})
    knows = Relationship(3, "KNOWS", ada, bob, {"since": 1843})
    r = Result(statement="s", columns=("n", "r", "x", "tags", "m"),
               rows=[(ada, knows, None, ["a", 1, 2.5], {"k": [True, None]})],
               plan_cache="hit")
    assert render(r, "envelope").stdout == (
        '{"columnTypes":["NODE","RELATIONSHIP","ANY","LIST","MAP"],'
        '"columns":["n","r","x","tags","m"],"notifications":[],"planCache":"hit",'
        '"rows":[{"m":{"k":[true,null]},'
        '"n":{"id":0,"kind":"node","labels":["Person"],"properties":{"born":1815,"name":"Ada"}},'
        '"r":{"end_node":1,"id":3,"kind":"relationship","properties":{"since":1843},'
        '"start_node":0,"type":"KNOWS"},"tags":["a",1,2.5],"x":null}],'
        '"timings":' + ZERO + ',"truncated":false}\n')


def test_non_ascii_unescaped_and_non_finite_floats_null():
    r = Result(statement="s", columns=("s", "f"), rows=[("Zoë 世界", float("nan"))])
    assert '"rows":[{"f":null,"s":"Zoë 世界"}]' in render(r, "envelope").stdout


def test_write_stats():
    r = Result(statement="CREATE (:Person {name: $name})", columns=(), rows=[],
               stats=Stats(nodes_created=1, properties_set=1, labels_added=1), query_type="w")
    assert render(r, "envelope").stdout == (
        '{"columnTypes":[],"columns":[],"notifications":[],"planCache":"miss","rows":[],'
        '"stats":{"constraints_added":0,"constraints_removed":0,"indexes_added":0,'
        '"indexes_removed":0,"labels_added":1,"labels_removed":0,"nodes_created":1,'
        '"nodes_deleted":0,"properties_set":1,"relationships_created":0,'
        '"relationships_deleted":0},"timings":' + ZERO + ',"truncated":false}\n')


def test_notifications_and_explain_plan():
    note = Notification(code="Neo.ClientNotification.Statement.CartesianProduct",
                        gql_status="03N90", severity="INFORMATION", category="PERFORMANCE",
                        title="Cartesian product", description="Two disconnected patterns.",
                        remedy="Connect the patterns.", operator_id=2)
    plan = PlanDescription(operator="ProduceResults", details="1 item(s)",
                           children=(PlanDescription("Unwind", "AS name", ("name",)),))
    r = Result(statement=STATEMENT, columns=("name",), rows=[], notifications=(note,), plan=plan,
               explained=True)
    doc = json.loads(render(r, "envelope").stdout)
    assert doc["notifications"] == [note.as_dict()]
    assert doc["plan"] == r.plan_json()
    assert doc["plan"]["root"]["children"][0]["operator"] == "Unwind"
    assert list(doc) == sorted(doc)
    # Without EXPLAIN the plan stays out of the envelope.
    r.explained = False
    assert "plan" not in json.loads(render(r, "envelope").stdout)
