"""`--timeout` (and `execute(timeout=)`) counts from the call, not from the first row: a statement
whose parsing alone outlasts the budget is stopped with the typed timeout and exit code 7, and
the graph is unchanged.  (Issue 14: before, only the operators' loops watched the clock.)"""
from __future__ import annotations

import json
import subprocess

import pytest

import relate
from relate.errors import StatementTimeout
from tests.net.server import RELATE

# 20,000 nested parentheses: accepted (plain parentheses add no tree depth) and parsed in linear
# time, but far longer than a few milliseconds, while running it takes microseconds
DEEP = "CREATE (:T {x: " + "(" * 20000 + "1" + ")" * 20000 + "})"


def test_the_cli_timeout_covers_parsing(tmp_path):
    store = str(tmp_path / "t.rl")
    proc = subprocess.run([RELATE, "--database", store, "--mode", "jsonl", "--timeout", "0.01", DEEP],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 7, proc.stderr
    assert json.loads(proc.stdout)["error"]["kind"] == "Timeout"
    with relate.connect(store) as db:
        assert db.execute("MATCH (t:T) RETURN count(t)").rows == [(0,)]


def test_the_python_timeout_covers_parsing():
    db = relate.connect()
    with pytest.raises(StatementTimeout):
        db.execute(DEEP, timeout=0.01)
    assert db.execute("MATCH (t:T) RETURN count(t)").rows == [(0,)]
    assert db.execute(DEEP, timeout=60).stats.nodes_created == 1
