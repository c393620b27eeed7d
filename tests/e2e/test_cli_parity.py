"""`relate ARGS` through the page's hook == `relate ARGS` as a process with stdout on a pipe.

Every CLI call opens its own database (a fresh `:memory:` one), so these cases don't depend on
the page's database or on each other, and share one loaded page.  The environment is exactly
the given variables on the page and a plain shell's plus the same variables natively.
"""
from __future__ import annotations

import pytest

from native import cli
from parity import assert_parity

NAMES = "UNWIND ['Ada', 'Grace', 'Noor'] AS name RETURN name"
HARNESS = {"CLAUDECODE": "1"}

CASES = [
    pytest.param(["--mode", mode, NAMES], env, id=f"{mode}{'-harness' if env else ''}")
    for mode in ("table", "envelope", "jsonl", "toon") for env in ({}, HARNESS)
] + [
    pytest.param(["RETURN 1 + 2 AS sum"], {}, id="sum-default-mode"),
    pytest.param(["RETURN 1 + 2 AS sum"], HARNESS, id="sum-default-mode-harness"),
    pytest.param(["--mode", "envelope", "--max-rows", "2", NAMES], {}, id="max-rows-2"),
    pytest.param(["--mode", "toon", "--max-rows", "2", NAMES], HARNESS, id="max-rows-2-harness"),
    pytest.param(["--mode", "table", "UNWIND range(1, 250) AS n RETURN n"], HARNESS, id="row-cap-harness"),
    pytest.param(["--mode", "envelope", "CREATE (:Person {name: 'Ada'})"], {}, id="write-envelope"),
    pytest.param(["--mode", "table", "MATCH (n RETURN n"], {}, id="syntax-error-table"),
    pytest.param(["--mode", "envelope", "MATCH (n RETURN n"], HARNESS, id="syntax-error-envelope-harness"),
    pytest.param(["--mode", "jsonl", "RETURN $missing AS x"], {}, id="missing-parameter"),
    # argparse words its own choice errors differently on 3.11 and 3.14; the CLI words this one
    pytest.param(["--mode", "bogus", "RETURN 1"], {}, id="usage-error-bad-mode"),
    pytest.param(["--max-rows"], {}, id="usage-error-missing-value"),
    # scripts, parameters, the typed usage errors the CLI words itself, --help and agent-context
    pytest.param(["--mode", "toon", "RETURN 1 AS one; MATCH (n) RETRUN n; RETURN 3"], {}, id="script-fails-midway"),
    pytest.param(["--mode", "table", "RETURN 'a;b' AS s;\nMATCH (n)\nRETRUN n"], {}, id="script-caret-table"),
    pytest.param(["--mode", "envelope", "--param", "name=Ada", "--params", '{"n": [1, 2.5e-7]}',
                  "RETURN $name AS name, $n AS n"], {}, id="parameters"),
    pytest.param(["--mode", "envelope", "--params", "[1]", "RETURN 1"], {}, id="usage-error-params"),
    pytest.param(["--timeout", "0", "RETURN 1"], {}, id="usage-error-timeout"),
    pytest.param(["--safe", "MATCH (n) RETURN n"], HARNESS, id="safe-refusal-harness"),
    pytest.param(["--help"], {}, id="help"),
    pytest.param(["agent-context", "--json"], {}, id="agent-context"),
]


@pytest.mark.parametrize(("args", "env"), CASES)
def test_cli_matches_native(page, args, env):
    browser = page.evaluate("([a, e]) => window.relate.cli(a, {env: e})", [args, env])
    assert_parity(browser, cli(args, env), f"relate {args} with {env}")
