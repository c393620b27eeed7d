"""Golden files: EXPLAIN plans (the JSON document and the table mode's operator tree), parse trees
(indented, one node per line: `tree.py`) and error texts, reviewed as diffs.  The cases and their
rendering live in `cases.py` (tests/pyodide renders the same cases inside Pyodide).

Run `pytest tests/golden --update-golden` to rewrite them from the current output, then read the
diff before committing.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.golden import cases


def check(path: Path, text: str, update: bool) -> None:
    if update or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if not update:
            pytest.fail(f"new golden file written: {path.name}; review it and run again")
    assert text == path.read_text(encoding="utf-8"), f"golden mismatch: {path}"


@pytest.mark.parametrize("name", sorted(cases.PLANS))
def test_explain(name, update_golden):
    text, _, _ = cases.explain_json(name)
    check(cases.DATA / "explain" / f"{name}.json", text, update_golden)


@pytest.mark.parametrize("name", sorted(cases.PLANS))
def test_explain_tree(name, update_golden):
    text, _, _ = cases.explain_tree(name)
    check(cases.DATA / "explain" / f"{name}.txt", text, update_golden)


@pytest.mark.parametrize("name", sorted(cases.ERRORS))
def test_error(name, update_golden):
    text, _, _ = cases.error_doc(name)
    check(cases.DATA / "errors" / f"{name}.json", text, update_golden)


@pytest.mark.parametrize("name", sorted(cases.PARSES))
def test_parse(name, update_golden):
    text, _, _ = cases.parse_tree(name)
    check(cases.DATA / "parse" / f"{name}.txt", text, update_golden)


def test_every_golden_file_has_a_case():
    files = {p for p in cases.DATA.rglob("*") if p.is_file()}
    assert files == {path for _, _, path, _ in cases.all_cases()}
