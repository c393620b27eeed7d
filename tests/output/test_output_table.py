"""table mode: the bordered grid people read."""
from relate.output import render
from relate.result import Notification, PlanDescription, Result, Stats
from relate.values import Node, Relationship

STATEMENT = "UNWIND ['Ada', 'Grace', 'Noor'] AS name RETURN name"


def result(columns, rows, **kw):
    return Result(statement="s", columns=tuple(columns), rows=list(rows), **kw)


def table(res, **kw):
    return render(res, "table", **kw).stdout


def test_recorded_run_byte_for_byte():
    r = Result(statement=STATEMENT, columns=("name",), rows=[("Ada",), ("Grace",), ("Noor",)])
    out = render(r, "table")
    assert out.stderr == ""
    assert out.stdout == (
        "+---------+\n"
        "| name    |\n"
        "+---------+\n"
        '| "Ada"   |\n'
        '| "Grace" |\n'
        '| "Noor"  |\n'
        "+---------+\n")


def test_row_cap_prints_kept_rows_and_warns():
    r = result(["name"], [("Ada",), ("Grace",), ("Noor",)])
    out = render(r, "table", max_rows=2)
    assert out.stdout == ('+---------+\n| name    |\n+---------+\n| "Ada"   |\n| "Grace" |\n'
                          "+---------+\n")
    assert out.stderr == ("warning: result truncated to 2 rows (the statement returned 3); "
                          "pass --max-rows 0 for all rows\n")


def test_multi_column_padding_and_values():
    r = result(["n.name", "age", "x"], [("Ada", 36, None), ("Bo", 7, [1, "a", 2.5]),
                                       ("Cy", -1, {"k": True})])
    assert table(r) == (
        "+--------+-----+---------------+\n"
        "| n.name | age | x             |\n"
        "+--------+-----+---------------+\n"
        '| "Ada"  | 36  | null          |\n'
        '| "Bo"   | 7   | [1, "a", 2.5] |\n'
        '| "Cy"   | -1  | {k: true}     |\n'
        "+--------+-----+---------------+\n")


def test_nodes_and_relationships():
    ada = Node(0, {"Person"}, {"name": "Ada"})
    bob = Node(1, set(), {})
    knows = Relationship(2, "KNOWS", ada, bob, {"since": 1843})
    assert table(result(["n", "r", "m"], [(ada, knows, bob)])) == (
        "+-------------------------+------------------------+----+\n"
        "| n                       | r                      | m  |\n"
        "+-------------------------+------------------------+----+\n"
        '| (:Person {name: "Ada"}) | [:KNOWS {since: 1843}] | () |\n'
        "+-------------------------+------------------------+----+\n")


def test_empty_result_prints_header_box_and_closing_border():
    assert table(result(["name", "age"], [])) == (
        "+------+-----+\n"
        "| name | age |\n"
        "+------+-----+\n"
        "+------+-----+\n")


def test_write_without_columns_prints_counters_only():
    stats = Stats(nodes_created=5, relationships_created=5, properties_set=13, labels_added=5)
    assert table(result([], [], stats=stats)) == (
        "nodes created: 5, relationships created: 5, properties set: 13, labels added: 5\n")


def test_counter_order_covers_all_eleven():
    stats = Stats(**{name: i + 1 for i, name in enumerate(
        ["nodes_created", "nodes_deleted", "relationships_created", "relationships_deleted",
         "properties_set", "labels_added", "labels_removed", "indexes_added", "indexes_removed",
         "constraints_added", "constraints_removed"])})
    assert table(result([], [], stats=stats)) == (
        "nodes created: 1, nodes deleted: 2, relationships created: 3, "
        "relationships deleted: 4, properties set: 5, labels added: 6, labels removed: 7, "
        "indexes added: 8, indexes removed: 9, constraints added: 10, "
        "constraints removed: 11\n")


def test_write_with_columns_prints_box_then_counters():
    r = result(["id"], [(1,)], stats=Stats(nodes_deleted=1))
    assert table(r) == "+----+\n| id |\n+----+\n| 1  |\n+----+\nnodes deleted: 1\n"


def test_no_columns_no_changes():
    assert table(result([], [])) == "(no changes, no records)\n"


def test_explain_prints_operator_tree():
    plan = PlanDescription(
        operator="ProduceResults", details="2 item(s)", identifiers=("a", "b"),
        children=(PlanDescription(operator="Filter", details="a.x > 1", estimated_rows=3.0,
                                  children=(PlanDescription("AllNodesScan", "a"),
                                            PlanDescription("Argument", ""))),))
    r = result(["a", "b"], [], plan=plan, explained=True)
    assert table(r) == ("+ProduceResults  2 item(s)\n"
                        "  +Filter  a.x > 1  (estimated rows: 3)\n"
                        "    +AllNodesScan  a\n"
                        "    +Argument\n")


def test_notifications_follow_the_output():
    note = Notification(code="Neo.ClientNotification.Statement.CartesianProduct",
                        gql_status="03N90", severity="INFORMATION", category="PERFORMANCE",
                        title="Cartesian product", description="Two disconnected patterns.",
                        remedy="Connect them.")
    r = result(["x"], [(1,)], notifications=(note,))
    assert table(r).splitlines()[-3:] == [
        "INFORMATION Neo.ClientNotification.Statement.CartesianProduct: Cartesian product",
        "  Two disconnected patterns.",
        "  remedy: Connect them."]


def test_control_characters_cannot_break_the_grid():
    r = result(["s"], [("a\nb\tc",)])
    assert table(r) == ('+-----------+\n| s         |\n+-----------+\n| "a\\nb\\tc" |\n'
                        "+-----------+\n")


def test_wide_characters_padded_by_display_width():
    r = result(["s"], [("世界",), ("ab",)])
    assert table(r) == ('+--------+\n| s      |\n+--------+\n| "世界" |\n| "ab"   |\n'
                        "+--------+\n")
