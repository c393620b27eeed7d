"""A malformed command line: exit 2, a plain `Error: ...` on stderr (never argparse's wording), and
in the JSON and TOON modes the same typed error object on stdout that a failed statement gets."""
from __future__ import annotations

import io
import json

import pytest

from relate.cli.main import run

ARGPARSE_WORDS = ("the following arguments are required", "invalid choice", "unrecognized argument",
                  "expected one argument", "ignored explicit argument", "usage:")

BAD = [
    ("--bogus", "RETURN 1"),
    ("--mode", "xml", "RETURN 1"),
    ("--max-rows", "-1", "RETURN 1"),
    ("--max-rows",),
    ("--timeout", "soon", "RETURN 1"),
    ("--read-only=live", "RETURN 1"),
    ("--max-row", "2", "RETURN 1"),
    ("sevre",),
    ("clnoe", "a.rl", "b.rl"),
]


def cli(*argv, env=None, tty=False):
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), env=env or {}, stdin=io.StringIO(""), stdout=out, stderr=err, stdout_isatty=tty)
    return out.getvalue(), err.getvalue(), code


@pytest.mark.parametrize("argv", BAD, ids=" ".join)
def test_usage_error_prints_the_object_in_a_pipe(argv):
    out, err, code = cli(*argv)
    assert code == 2
    assert err.startswith("Error: ") and err.count("\n") == 1
    assert not any(w in err for w in ARGPARSE_WORDS)
    error = json.loads(out)["error"]
    assert (error["code"], error["kind"], error["retryable"], error["position"]) == \
        ("Relate.Error.Usage", "Usage", False, None)
    assert "Error: " + error["message"] + "\n" == err


@pytest.mark.parametrize("argv", [("--mode", "envelope", "--bogus"), ("--bogus", "--mode=envelope")])
def test_the_mode_asked_for_is_the_mode_of_the_object(argv):
    out, _, code = cli(*argv, tty=True)
    assert code == 2 and json.loads(out)["error"]["kind"] == "Usage"


def test_agent_mode_prints_it_as_toon():
    out, _, code = cli("--bogus", "RETURN 1", env={"CLAUDECODE": "1"})
    assert code == 2 and out.startswith("error:\n  code: Relate.Error.Usage\n")


def test_table_mode_prints_no_object():
    out, err, code = cli("--bogus", "RETURN 1", tty=True)
    assert (out, code) == ("", 2) and err.startswith("Error: unknown option --bogus")


@pytest.mark.parametrize("argv,hint", [
    (("sevre",), "did you mean `relate serve`?"),
    (("clnoe",), "did you mean `relate clone`?"),
    (("agent-contxt",), "did you mean `relate agent-context`?"),
    (("skil", "show"), "did you mean `relate skill`?"),
    (("--max-row", "3"), "did you mean --max-rows?"),
    (("--databse", "g.rl"), "did you mean --database?"),
])
def test_a_near_miss_gets_a_hint(argv, hint):
    _, err, code = cli(*argv)
    assert code == 2 and hint in err
    for statement in ("RETURN", "FINISH", "MATCH"):  # one-word statements are still statements
        assert "unknown command" not in cli(statement)[1]


def test_read_only_live_outside_serve_is_explained():
    _, err, _ = cli("--read-only=live", "RETURN 1")
    assert "`relate serve`" in err and "--read-only=live" in err


@pytest.mark.parametrize("argv", [("clone",), ("clone", "a.rl"), ("agent-context", "extra"), ("serve", "--mcp")])
def test_other_commands_speak_plainly_too(argv):
    out, err, code = cli(*argv)
    assert code == 2 and err.startswith("Error: ")
    assert not any(w in err for w in ARGPARSE_WORDS)
    assert out == ""  # stdout of these commands is never an output mode (serve's is the protocol)


def test_help_is_an_alias_of_dash_dash_help():
    assert cli("help") == cli("--help")
    assert cli("help", "serve") == cli("serve", "--help")
    assert cli("help", "skill") == cli("skill", "--help")
    out, _, code = cli("help")
    assert code == 0 and out.startswith("usage: relate ")
