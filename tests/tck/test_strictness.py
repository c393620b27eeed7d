"""The runner itself is judged: a wrong row, a wrong column name, a missing side effect and a
wrong error detail must each make a scenario fail, while the matching expectation passes."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import relate
from relate.errors import RelateError

from .runner import PHASES, discover, run_scenario
from .values import canon, parse_value


def _run(tmp_path: Path, body: str) -> list:
    feature = "Feature: Probe\n\n" + textwrap.indent(textwrap.dedent(body).strip("\n"), "  ") + "\n"
    folder = tmp_path / "features" / "probe"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "Probe1.feature").write_text(feature, encoding="utf-8")
    return [run_scenario(s) for s in discover(tmp_path / "features")]


def _verdict(tmp_path: Path, query: str, then: str) -> str:
    scenario = (
        "Scenario: probe\n"
        "  Given an empty graph\n"
        "  When executing query:\n"
        '    """\n' + textwrap.indent(query, "    ") + '\n    """\n'
        + textwrap.indent(textwrap.dedent(then).strip("\n"), "  ") + "\n")
    (verdict,) = _run(tmp_path, scenario)
    return verdict.status


ROWS = "RETURN 1 AS x, 'a' AS y"


def test_right_rows_pass(tmp_path):
    assert _verdict(tmp_path, ROWS, """
        Then the result should be, in any order:
          | x | y   |
          | 1 | 'a' |
        And no side effects""") == "pass"


@pytest.mark.parametrize("row", ["| 2 | 'a' |", "| 1.0 | 'a' |", "| 1 | 'b' |", "| 1 | null |",
                                 "| true | 'a' |"])
def test_wrong_row_fails(tmp_path, row):
    assert _verdict(tmp_path, ROWS, f"""
        Then the result should be, in any order:
          | x | y   |
          {row}
        And no side effects""") == "fail"


def test_missing_or_extra_row_fails(tmp_path):
    assert _verdict(tmp_path, ROWS, """
        Then the result should be, in any order:
          | x | y   |
          | 1 | 'a' |
          | 1 | 'a' |""") == "fail"
    assert _verdict(tmp_path, ROWS, """
        Then the result should be, in any order:
          | x | y |""") == "fail"


@pytest.mark.parametrize("header, row", [("| y | x |", "| 1 | 'a' |"), ("| x | Y |", "| 1 | 'a' |"),
                                         ("| x |", "| 1 |"), ("| x | y | z |", "| 1 | 'a' | 1 |")])
def test_wrong_column_name_fails(tmp_path, header, row):
    assert _verdict(tmp_path, ROWS, f"""
        Then the result should be, in any order:
          {header}
          {row}""") == "fail"


def test_order_is_checked_only_when_asked(tmp_path):
    query = "UNWIND [1, 2] AS x RETURN x"
    assert _verdict(tmp_path, query, """
        Then the result should be, in any order:
          | x |
          | 2 |
          | 1 |""") == "pass"
    assert _verdict(tmp_path, query, """
        Then the result should be, in order:
          | x |
          | 2 |
          | 1 |""") == "fail"


def test_list_order_matters_unless_ignored(tmp_path):
    query = "RETURN [1, 2] AS l"
    table = """
          | l      |
          | [2, 1] |"""
    assert _verdict(tmp_path, query, "Then the result should be, in any order:" + table) == "fail"
    assert _verdict(tmp_path, query,
                    "Then the result should be (ignoring element order for lists):" + table) == "pass"


def test_missing_side_effect_fails(tmp_path):
    query = "CREATE (:A {p: 1})"
    assert _verdict(tmp_path, query, """
        Then the result should be empty
        And the side effects should be:
          | +nodes      | 1 |
          | +labels     | 1 |
          | +properties | 1 |""") == "pass"
    assert _verdict(tmp_path, query, """
        Then the result should be empty
        And no side effects""") == "fail"
    assert _verdict(tmp_path, query, """
        Then the result should be empty
        And the side effects should be:
          | +nodes  | 1 |
          | +labels | 1 |""") == "fail"


def test_unexpected_side_effect_of_a_read_fails(tmp_path):
    assert _verdict(tmp_path, "RETURN 1 AS x", """
        Then the result should be, in any order:
          | x |
          | 1 |
        And the side effects should be:
          | +nodes | 1 |""") == "fail"


def test_result_where_empty_expected_fails(tmp_path):
    assert _verdict(tmp_path, "RETURN 1 AS x", "Then the result should be empty") == "fail"


def _actual_error(query: str) -> RelateError:
    with pytest.raises(RelateError) as info:
        relate.connect(":memory:").execute(query)
    return info.value


def test_wrong_error_detail_fails(tmp_path):
    query = "RETURN undefinedName"
    err = _actual_error(query)
    phase = PHASES[err.phase]
    assert _verdict(tmp_path, query, f"Then a {err.tck_type} should be raised at {phase}: {err.kind}") == "pass"
    other = "VariableAlreadyBound" if err.kind != "VariableAlreadyBound" else "UndefinedVariable"
    assert _verdict(tmp_path, query, f"Then a {err.tck_type} should be raised at {phase}: {other}") == "fail"
    other_phase = "runtime" if phase == "compile time" else "compile time"
    assert _verdict(tmp_path, query, f"Then a {err.tck_type} should be raised at {other_phase}: {err.kind}") == "fail"
    other_type = "ArgumentError" if err.tck_type != "ArgumentError" else "TypeError"
    assert _verdict(tmp_path, query, f"Then a {other_type} should be raised at {phase}: {err.kind}") == "fail"


def test_error_expected_but_rows_returned_fails(tmp_path):
    assert _verdict(tmp_path, "RETURN 1 AS x",
                    "Then a SyntaxError should be raised at compile time: UndefinedVariable") == "fail"


def test_values_compare_by_type():
    assert canon(parse_value("1")) != canon(parse_value("1.0"))
    assert canon(parse_value("true")) != canon(parse_value("1"))
    assert canon(parse_value("NaN")) == canon(float("nan"))
    assert canon(parse_value("(:B:A {name: 'x'})")) == canon(parse_value("(:A:B {name: 'x'})"))
    assert canon(parse_value("<(:A)-[:T]->(:B)>")) != canon(parse_value("<(:A)<-[:T]-(:B)>"))
    assert parse_value(r"'a\'b\\c'") == "a'b\\c"
    assert parse_value("{a: [1, -2.5e3, null]}") == {"a": [1, -2500.0, None]}


def test_outline_rows_are_separate_scenarios(tmp_path):
    verdicts = _run(tmp_path, '''
        Scenario Outline: probe
          Given an empty graph
          When executing query:
            """
            RETURN <v> AS v
            """
          Then the result should be, in any order:
            | v   |
            | <e> |

          Examples:
            | v | e |
            | 1 | 1 |
            | 2 | 3 |
        ''')
    assert [v.status for v in verdicts] == ["pass", "fail"]
    assert [v.scenario.id for v in verdicts] == ["probe/Probe1.feature:3#1", "probe/Probe1.feature:3#2"]
