"""`relate agent-context` and `--help` describe exactly the flags the parsers accept."""
from __future__ import annotations

import io
import json

import pytest

from relate.cli.main import run
from relate.cli.parsers import COMMANDS, EXIT_CODES


def cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), env={}, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue(), code


def parser_flags(command):
    """(option strings, positional names) straight from the argparse parser of `command`."""
    parser = command.build()
    options = {s for action in parser._actions for s in action.option_strings}
    positionals = {action.metavar or action.dest for action in parser._actions if not action.option_strings}
    return options, positionals


def test_json_lists_every_command_and_every_flag_the_parsers_define():
    out, err, code = cli("agent-context", "--json")
    assert (err, code) == ("", 0)
    doc = json.loads(out)
    listed = {c["command"]: c for c in doc["commands"]}
    assert set(listed) == {c.name for c in COMMANDS}
    assert {"relate", "relate serve", "relate agent-context", "relate skill install", "relate skill check",
            "relate skill show"} <= set(listed)
    for command in COMMANDS:
        options, positionals = parser_flags(command)
        entry = listed[command.name]
        assert {n for f in entry["flags"] for n in f["names"]} == options, command.name
        assert {a["name"] for a in entry["arguments"]} == positionals, command.name
    assert [(e["code"], e["meaning"]) for e in doc["exitCodes"]] == list(EXIT_CODES)
    assert [e["code"] for e in doc["exitCodes"]] == [0, 1, 2, 5, 6, 7]
    assert [m["mode"] for m in doc["outputModes"]] == ["table", "envelope", "jsonl", "toon"]
    assert "CLAUDECODE" in doc["agentMode"]["detectedFrom"] and doc["agentMode"]["defaults"]["maxRows"] == 100


def test_text_names_every_command_flag_and_exit_code():
    out, _, code = cli("agent-context")
    assert code == 0
    for command in COMMANDS:
        assert f"## {command.name}: " in out
        options, positionals = parser_flags(command)
        section = out.split(f"## {command.name}: ", 1)[1].split("\n## ", 1)[0]
        for name in options | positionals:
            assert name in section, (command.name, name)
    for number, meaning in EXIT_CODES:
        assert f"  {number}: {meaning}" in out


def test_a_flag_added_to_a_parser_shows_up(monkeypatch):
    """The briefing is generated, not written: a new flag appears without touching agent_context."""
    import relate.cli.agent_context as agent_context
    import relate.cli.parsers as parsers

    def with_extra(out=None):
        p = parsers.build_skill_show_parser(out)
        p.add_argument("--brand-new", metavar="X", help="a flag nobody documented")
        return p

    monkeypatch.setattr(agent_context, "COMMANDS", tuple(
        parsers.Command(c.words, c.summary, with_extra if c.words == ("relate", "skill", "show") else c.build)
        for c in parsers.COMMANDS))
    out, _, _ = cli("agent-context")
    assert "  --brand-new X: a flag nobody documented" in out


@pytest.mark.parametrize("command", [c for c in COMMANDS], ids=lambda c: c.name)
def test_help_for_every_command(command):
    argv = list(command.words[1:]) + ["--help"]
    out, err, code = cli(*argv)
    assert (err, code) == ("", 0)
    assert out.startswith(f"usage: {command.name} ")
    options, _ = parser_flags(command)
    for name in options:
        assert name in out, name


def test_help_for_the_skill_group():
    out, _, code = cli("skill", "--help")
    assert code == 0 and "relate skill install" in out and "relate skill check" in out
