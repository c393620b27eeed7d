"""The engine inside Pyodide gives the native verdicts, case by case: the public TCK (every
scenario of ../shared/tck), the Neo4j-style corpus, the golden parse/plan/error cases and the
engine's unit tests (those that start no thread or process), run by
the one function of verdicts.py natively and in Node on the site's own wheels (run.mjs), compared
by compare.py (same pass/fail, rows, error kinds and messages, plan lines, golden texts).

Needs dist/site built from this working tree (python build/site.py; ./run-tests does it), node and
node_modules/pyodide (scripts/setup.sh) and ../shared/tck beside the checkout: any of them missing
fails, never skips.
"""
from __future__ import annotations

import pytest

from tests.pyodide import targets
from tests.pyodide.compare import report


def test_pyodide_verdicts_equal_native(tmp_path):
    if not (targets.TCK / "features").is_dir():
        pytest.fail(f"{targets.TCK}/features is missing: the TCK must sit in ../shared beside the checkout")
    try:
        targets.check_ready()
    except targets.TargetError as exc:
        pytest.fail(str(exc), pytrace=False)
    # both sides at once (2 cores): the native run takes about a third of Pyodide's
    pyodide = targets.start_pyodide(tmp_path / "pyodide.json", [])
    native = targets.start_native(tmp_path / "native.json", [])
    native_doc = targets.finish(native, tmp_path / "native.json")
    pyodide_doc = targets.finish(pyodide, tmp_path / "pyodide.json")

    assert pyodide_doc["meta"]["platform"] == "emscripten", pyodide_doc["meta"]
    assert "/site-packages/relate/" in pyodide_doc["meta"]["relate"], "relate must come from the site's wheel"
    assert native_doc["meta"]["suites"] == pyodide_doc["meta"]["suites"] == ["tck", "neo4j5", "golden", "unit"]
    assert native_doc["meta"]["not_applicable"] == pyodide_doc["meta"]["not_applicable"]
    ids = [v["id"] for v in native_doc["verdicts"]]
    # every suite contributed (an empty corpus would compare as equal)
    for prefix, least in (("tck:", 2700), ("neo4j5:", 500), ("golden:", 90), ("unit:", 1500)):
        assert sum(i.startswith(prefix) for i in ids) >= least, prefix
    same, text = report(native_doc, pyodide_doc)
    print(text.splitlines()[-1])
    assert same, text
