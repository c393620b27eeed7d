"""The verdict comparison itself: one float rendered otherwise, one error kind, one row order or
one skipped case makes it fail and name the case; equal documents pass."""
from __future__ import annotations

import copy

import pytest

from tests.pyodide.compare import compare, report


def _doc() -> dict:
    def ok():
        return {"status": "pass", "message": "", "columns": ["x"], "error": None,
                "plan": ["{}", '  {"operator": "Unwind"}']}
    return {"meta": {}, "verdicts": [
        {**ok(), "id": "tck:a.feature:1", "rows": ["| 0.1 |", "| 2 |"]},
        {**ok(), "id": "tck:b.feature:9", "rows": [], "columns": [],
         "error": {"kind": "DivisionByZero", "tck_type": "ArithmeticError", "phase": "runtime",
                   "message": "/ by zero", "position": [1, 8]}},
        {**ok(), "id": "golden:parse/x", "rows": [], "output": "Return\n"},
    ]}


def test_equal_documents_pass():
    same, text = report(_doc(), _doc())
    assert same
    assert text == "3 passed, 0 differing"


def _mutated(change) -> dict:
    doc = copy.deepcopy(_doc())
    change(doc["verdicts"])
    return doc


@pytest.mark.parametrize("case, field, change", [
    ("tck:a.feature:1", "rows", lambda v: v[0].update(rows=["| 0.10000000000000001 |", "| 2 |"])),
    ("tck:b.feature:9", "error", lambda v: v[1]["error"].update(kind="DivideByZero")),
    ("tck:a.feature:1", "rows", lambda v: v[0].update(rows=["| 2 |", "| 0.1 |"])),
    ("tck:b.feature:9", "presence", lambda v: v.pop(1)),
    ("golden:parse/x", "output", lambda v: v[2].update(output="Return \n")),
    ("tck:a.feature:1", "plan", lambda v: v[0]["plan"].append('    {"operator": "Argument"}')),
], ids=["float rendering", "error kind", "row order", "skipped case", "golden text", "plan"])
def test_one_difference_fails_and_names_the_case(case, field, change):
    native, pyodide = _doc(), _mutated(change)
    diffs = compare(native, pyodide)
    assert [(d.case, d.field) for d in diffs] == [(case, field)]
    same, text = report(native, pyodide)
    assert not same
    assert f"{case}: {field} differs" in text
    assert text.endswith("1 differing")
    # the other way round too: the Pyodide side ran a case the native side skipped, and so on
    assert [(d.case, d.field) for d in compare(pyodide, native)] == [(case, field)]


def test_a_case_skipped_on_both_sides_is_a_difference():
    def skip(v):
        v[0].update(status="skip", message="call: Skipped: not here")
    native, pyodide = _mutated(skip), _mutated(skip)
    same, text = report(native, pyodide)
    assert not same
    assert "tck:a.feature:1: skipped differs" in text and text.endswith("1 differing")


def test_side_by_side_marks_the_differing_line():
    native, pyodide = _doc(), _mutated(lambda v: v[0].update(rows=["| 0.1 |", "| 2.0 |"]))
    text = compare(native, pyodide)[0].side_by_side()
    marked = [line for line in text.splitlines() if line.startswith("!")]
    assert len(marked) == 1 and "| 2 |" in marked[0] and "| 2.0 |" in marked[0]


def test_a_case_twice_on_one_side_is_refused():
    doc = _mutated(lambda v: v.append(dict(v[0])))
    with pytest.raises(ValueError, match="tck:a.feature:1 appears twice"):
        compare(doc, _doc())
