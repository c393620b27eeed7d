"""`--params @-` reads the parameter object from standard input, as `@FILE` reads it from a file;
run as a user runs it, with the object piped into the installed binary."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

RELATE = str(Path(sys.executable).with_name("relate"))


def relate(*args: str, stdin: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([RELATE, "--mode", "jsonl", *args], input=stdin, capture_output=True, text=True,
                          cwd=cwd, env={"PATH": "/usr/bin:/bin"}, timeout=60)


def rows(stdout: str) -> list:
    return [json.loads(line) for line in stdout.splitlines()[:-1]]


def test_params_from_stdin(tmp_path):
    proc = relate("--params", "@-", "RETURN $name AS name, $tags AS tags, $n + 1 AS next",
                  stdin='{"name": "Ada", "tags": ["x", "y"], "n": 41}\n', cwd=tmp_path)
    assert (proc.returncode, proc.stderr) == (0, "")
    assert rows(proc.stdout) == [{"name": "Ada", "next": 42, "tags": ["x", "y"]}]


def test_params_from_stdin_and_a_file_merge_left_to_right(tmp_path):
    (tmp_path / "p.json").write_text('{"a": 1, "b": 2}', encoding="utf-8")
    proc = relate("--params", "@p.json", "--params", "@-", "--param", "c=3", "RETURN $a AS a, $b AS b, $c AS c",
                  stdin='{"b": 20}', cwd=tmp_path)
    assert (proc.returncode, proc.stderr) == (0, "")
    assert rows(proc.stdout) == [{"a": 1, "b": 20, "c": 3}]


def test_stdin_cannot_hold_both_the_parameters_and_the_statements(tmp_path):
    for args in (["--params", "@-"], ["--params", "@-", "-f", "-"]):
        proc = relate(*args, stdin="RETURN 1 AS one", cwd=tmp_path)
        assert proc.returncode == 2
        assert proc.stderr == ("Error: --params @- reads standard input, which already holds the statements; "
                               "pass them as arguments or with -f FILE\n")
        assert json.loads(proc.stdout)["error"]["kind"] == "Usage"


def test_bad_json_on_stdin_is_a_usage_error(tmp_path):
    proc = relate("--params", "@-", "RETURN 1 AS one", stdin="[1, 2]", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr == "Error: --params @- expects a JSON object (a map of parameter names)\n"
