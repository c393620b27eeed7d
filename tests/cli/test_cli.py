"""The `relate` command as a user runs it: argv, env and a non-terminal stdout in; text and an
exit code out.  Most cases run in-process through `relate.cli.main.run`; the process-level ones
(console script, stdio server) run the installed binary."""
from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path


import relate
from relate.cli.main import run
from tests.conftest import TEAM

RELATE = str(Path(sys.executable).with_name("relate"))
MS = re.compile(r'(_ms":)[-0-9.e+]+')


def cli(*argv, env=None, stdin="", tty=False):
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), env=env or {}, stdin=io.StringIO(stdin), stdout=out, stderr=err, stdout_isatty=tty)
    return MS.sub(r"\1<ms>", out.getvalue()), err.getvalue(), code


NAMES = "UNWIND ['Ada', 'Grace', 'Noor'] AS name RETURN name"
TIMINGS = ('{"elapsed_ms":<ms>,"execute_ms":<ms>,"lex_parse_ms":<ms>,"lower_ms":<ms>,"parse_ms":<ms>,'
           '"plan_ms":<ms>,"result_generation_ms":<ms>,"rewrite_ms":<ms>}')


def test_embedded_default_needs_no_configuration():
    out, err, code = cli("RETURN 1 + 2 AS sum")
    assert (out, err, code) == ('{"sum":3}\n{"planCache":"miss","timings":' + TIMINGS + '}\n', "", 0)


def test_table_on_a_terminal():
    out, _, code = cli(NAMES, tty=True)
    assert out == '+---------+\n| name    |\n+---------+\n| "Ada"   |\n| "Grace" |\n| "Noor"  |\n+---------+\n'


def test_agent_mode_prints_toon_in_a_pipe():
    out, _, _ = cli(NAMES, env={"CLAUDECODE": "1"})
    assert out == f"rows[3]{{name}}:\n  Ada\n  Grace\n  Noor\ntimings:\n  {TIMINGS}\nplanCache:\n  miss\n"


def test_agent_mode_is_off_on_a_terminal_and_with_the_switches():
    assert cli(NAMES, env={"CLAUDECODE": "1"}, tty=True)[0].startswith("+---")
    assert cli("--no-agent-mode", NAMES, env={"CURSOR_AGENT": "1"})[0].startswith('{"name":"Ada"}')
    assert cli(NAMES, env={"CLAUDECODE": "1", "RELATE_AGENT_MODE": "0"})[0].startswith('{"name":"Ada"}')
    assert cli(NAMES, env={"RELATE_AGENT_MODE": "1"})[0].startswith("rows[3]")


def test_agent_row_cap_is_100():
    out, err, code = cli("UNWIND range(1, 150) AS i RETURN i", env={"CLAUDECODE": "1"})
    assert err == "warning: result truncated to 100 rows (the statement returned 150); pass --max-rows 0 for all rows\n"
    assert out.startswith("rows[100]{i}:") and code == 0
    out, err, _ = cli("--max-rows", "0", "UNWIND range(1, 150) AS i RETURN i", env={"CLAUDECODE": "1"})
    assert out.startswith("rows[150]{i}:") and err == ""


def test_max_rows_in_envelope_mode():
    out, err, code = cli("--mode", "envelope", "--max-rows", "2", NAMES)
    assert err == "warning: result truncated to 2 rows (the statement returned 3); pass --max-rows 0 for all rows\n"
    assert '"rowCap":{"kept":2,"total":3}' in out and '"truncated":true' in out


def test_statement_error_exit_code_and_error_object():
    out, err, code = cli("--mode", "envelope", "RETURN $x AS n")
    assert code == 6
    assert err == "Error: semantic error: ParameterMissing: Expected parameter(s): x\n"
    obj = json.loads(out)["error"]
    assert obj["kind"] == "ParameterMissing" and obj["retryable"] is False


def test_usage_error_exit_2():
    _, err, code = cli("--mode", "xml", "RETURN 1")
    assert code == 2 and err.startswith("Error: ")


def test_version():
    out, _, code = cli("--version")
    assert (out, code) == ("relate 0.1.2\n", 0)


def test_store_file_and_read_only(tmp_path):
    path = str(tmp_path / "team.rl")
    assert cli("--database", path, TEAM)[2] == 0
    out, _, _ = cli("--database", path, "--read-only", "MATCH (p:Person) RETURN count(p) AS n")
    assert out.startswith('{"n":3}')
    _, err, code = cli("--database", str(tmp_path / "none.rl"), "--read-only", "RETURN 1")
    assert code == 1
    assert err == f"Error: Failed to open Relate: storage error: database not found: {tmp_path / 'none.rl'}\n"


def test_serve_usage_errors():
    assert cli("serve", "--mcp", "stdio", "--mcp", "stdio")[1:] == ("Error: serve --mcp may be given only once\n", 2)
    _, err, code = cli("serve", "--mcp", "stdio", "--auth", "a:b")
    assert code == 2 and err.startswith("Error: serve --mcp stdio skips auth")


def test_console_script_and_stdio_server_process():
    proc = subprocess.run([RELATE, "RETURN 1 + 2 AS sum"], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.startswith('{"sum":3}\n')
    lines = ['{"jsonrpc":"2.0","id":1,"method":"ping"}', '{"jsonrpc":"2.0","method":"notifications/initialized"}']
    proc = subprocess.run([RELATE, "serve", "--mcp", "stdio", "--database", ":memory:"],
                          input="\n".join(lines) + "\n", capture_output=True, text=True)
    assert proc.returncode == 0
    assert proc.stdout == '{"jsonrpc":"2.0","id":1,"result":{}}\n'
    assert proc.stderr == ("serve: MCP (stdio) serving on stdin/stdout (auth: none)\n"
                           "serve: stdin closed, shutting down\n")


def test_locked_store_exits_5_with_a_retryable_error(tmp_path):
    holder = relate.connect(str(tmp_path / "store"))  # a writer holding the store's lease
    try:
        holder.execute("CREATE (:A)")
        proc = subprocess.run([RELATE, "--database", str(tmp_path / "store"), "--mode", "envelope", "CREATE (:B)"],
                              capture_output=True, text=True)
    finally:
        holder.close()
    assert proc.returncode == 5
    error = json.loads(proc.stdout)["error"]
    assert (error["kind"], error["retryable"]) == ("Locked", True)
    assert proc.stderr.startswith("Error: Failed to open Relate: storage error: database is locked")


def test_timeout_stops_a_read_and_fractions_are_allowed():
    out, err, code = cli("--mode", "jsonl", "--timeout", "0.05",
                         "UNWIND range(1, 3000) AS a UNWIND range(1, 3000) AS b RETURN count(*) AS n")
    assert code == 7 and json.loads(out)["error"]["kind"] == "Timeout"
    assert err == "Error: timeout: the statement ran longer than 0.05s and was stopped; the graph is unchanged\n"
    out, _, code = cli("--timeout", "30", "RETURN 1 AS one")
    assert (out.splitlines()[0], code) == ('{"one":1}', 0)


def test_error_positions_count_in_the_script():
    script = "RETURN 1 AS one;\n\n  RETURN 2 +\n  AS two;"
    out, err, code = cli("--mode", "envelope", script)
    error = json.loads(out.splitlines()[1])["error"]
    assert code == 6 and error["statement"] == 2
    alone = json.loads(cli("--mode", "envelope", "RETURN 2 +\n  AS two")[0])["error"]["position"]
    start = script.index("RETURN 2")
    assert error["position"] == {"offset": start + alone["offset"], "line": 2 + alone["line"],
                                 "column": alone["column"] + (2 if alone["line"] == 1 else 0)}
    assert script[error["position"]["offset"]:] == "RETURN 2 +\n  AS two;"[alone["offset"]:]
