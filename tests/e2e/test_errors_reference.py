"""The errors reference (web/errors.md + build/errors_ref.py) against the errors the native
binary really prints: every kind a failing command reports has its row on the built page, with
the code the error object carries and the exit code of its class."""
from __future__ import annotations

import json
import re

import pytest

from conftest import SITE
from native import cli

FAILURES = [
    (["RETURN 1 +"], "ParseError"),
    (["MATCH (p) RETURN q"], "UndefinedVariable"),
    (["RETURN frobnicate(1)"], "UnknownFunction"),
    (["RETURN $who AS who"], "ParameterMissing"),
    (["RETURN 1 / 0 AS boom"], "DivisionByZero"),
    (["RETURN 'a' - 1 AS x"], None),
    (["CREATE (a)-[:R]->(b) WITH a DELETE a"], "DeleteConnectedNode"),
    (["--database", "nowhere.rl", "--read-only", "RETURN 1"], "NotFound"),
    (["--max-rows", "-1", "RETURN 1"], None),
]
EXIT_CODE = re.compile(r"Exit code</th><td>(\d+)")


@pytest.fixture(scope="module")
def reference():
    path = SITE / "errors.html"
    if not path.is_file():
        pytest.fail("dist/site is not built: run `python build/site.py`")
    return path.read_text()


def error_object(args, tmp_path) -> tuple[dict | None, int]:
    run = cli(["--mode", "jsonl", *args], cwd=str(tmp_path))
    for line in run["stdout"].splitlines():
        if line.startswith('{"error"'):
            return json.loads(line)["error"], run["exitCode"]
    return None, run["exitCode"]


@pytest.mark.parametrize(("args", "kind"), FAILURES, ids=[" ".join(a) for a, _ in FAILURES])
def test_a_reported_error_is_in_the_reference(args, kind, reference, tmp_path):
    error, code = error_object(args, tmp_path)
    assert code != 0
    if error is None:  # a usage error prints only its message; the reference has its class
        assert code == 2 and 'id="class-usageerror"' in reference
        return
    if kind is not None:
        assert error["kind"] == kind
    sections = reference.split('<section class="error-class"')[1:]
    matching = [sec for sec in sections if f'data-kind="{error["kind"]}"' in sec]
    assert matching, f"{error['kind']} (from relate {args}) is missing from errors.html"
    fits = [sec for sec in matching if f"<code>{error['code']}</code>" in sec
            and int(EXIT_CODE.search(sec).group(1)) == code]
    assert fits, f"no section lists {error['kind']} with code {error['code']} and exit code {code}"


def test_every_class_of_the_tree_has_a_section(reference):
    from relate import errors

    classes = {name for name, value in vars(errors).items()
               if isinstance(value, type) and issubclass(value, errors.RelateError) and value is not errors.RelateError}
    shown = set(re.findall(r'id="class-([a-z]+)"', reference))
    assert {c.lower() for c in classes} == shown
