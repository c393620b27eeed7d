"""`relate agent-context`: this binary's own parsers -> a briefing an agent reads before its first
command.

Everything about commands and flags is read from the argument parsers in `parsers.COMMANDS`
(including `relate serve`'s), so the briefing always describes the installed binary.  The rest
(exit codes, output modes, agent-mode switches, the error object's keys) comes from the same
constants the CLI runs on.

Text form (default): one section per command with its usage line and one line per flag, then the
exit codes, output modes, agent mode, failures, and a few commands to paste into bash
(`EXAMPLES`).  `--json`: the same facts as one JSON object:

    {"agentMode": {...}, "commands": [{"arguments": [...], "command": "relate serve",
      "description": "...", "flags": [{"help", "names", "repeatable", "value", "valueOptional"}],
      "summary": "...", "usage": "..."}], "errorObject": [...], "examples": [{"command", "what"}],
     "exitCodes": [{"code", "meaning"}], "outputModes": [...], "version": "0.1.2"}
"""
from __future__ import annotations

from typing import TextIO

from ..version import __version__
from ..jsonenc import dumps
from ..output import MODES
from .agent import FORCE_VARIABLE, HARNESS_VARIABLES
from .parsers import COMMANDS, EXIT_CODES, Flag, build_agent_context_parser, describe, usage

ROW_CAP = 100

MODE_NOTES = {
    "table": "a bordered grid of Cypher literals, for people (the default on a terminal)",
    "envelope": "one JSON object per result set: columns, columnTypes, rows, notifications, "
                "planCache, timings, truncated (rowCap when cut), stats after writes",
    "jsonl": "one JSON object per row, then one trailer line with planCache and timings "
             "(the default in a pipe)",
    "toon": "TOON: a rows[N]{columns}: table, then timings and planCache sections "
            "(the default in agent mode)",
}

ERROR_KEYS = ("code", "kind", "message", "phase", "position", "retryable", "statement")

# Commands an agent can paste into bash as they are, in this order, in an empty folder (the
# tests run them so).  Statements sit in single quotes: inside double quotes bash would replace
# `$name` with its own variable before relate sees the statement.
EXAMPLES = (
    ("write with parameters (a new .rl file is created)",
     "relate --database ./graph.rl --param name=Ada --param born=1815 "
     "'CREATE (:Person {name: $name, born: $born})'"),
    ("parameters as one JSON object",
     "relate --database ./graph.rl --params '{\"names\": [\"Grace\", \"Noor\"]}' "
     "'UNWIND $names AS name MERGE (:Person {name: name})'"),
    ("the parameter object on stdin",
     "echo '{\"name\": \"Ada\"}' | relate --database ./graph.rl --params @- "
     "'MATCH (p:Person {name: $name}) RETURN p.name AS name, p.born AS born'"),
    ("one JSON object per result set, bounded read",
     "relate --database ./graph.rl --mode envelope --read-only "
     "'MATCH (p:Person) RETURN p.name AS name ORDER BY name LIMIT 10'"),
    ("several statements, each its own result set",
     "relate --database ./graph.rl 'MATCH (p:Person) RETURN count(p) AS people; "
     "MATCH (n) RETURN labels(n) AS labels, count(*) AS n'"),
)


def _flag(f: Flag) -> dict:
    return {"help": f.help, "names": list(f.names), "repeatable": f.repeatable, "value": f.value,
            "valueOptional": f.value_optional}


def document() -> dict:
    commands = []
    for command in COMMANDS:
        parser = command.build()
        flags = describe(parser)
        commands.append({
            "arguments": [{"help": f.help, "name": f.value, "many": f.many} for f in flags if not f.names],
            "command": command.name,
            "description": parser.description or "",
            "flags": [_flag(f) for f in flags if f.names],
            "summary": command.summary,
            "usage": usage(parser),
        })
    return {
        "agentMode": {
            "defaults": {"maxRows": ROW_CAP, "mode": "toon"},
            "detectedFrom": list(HARNESS_VARIABLES),
            "forceOn": f"{FORCE_VARIABLE}=1",
            "off": [f"{FORCE_VARIABLE}=0", "--no-agent-mode"],
            "when": "a harness variable is set and stdout is not a terminal",
        },
        "commands": commands,
        "errorObject": list(ERROR_KEYS),
        "examples": [{"command": command, "what": what} for what, command in EXAMPLES],
        "exitCodes": [{"code": code, "meaning": text} for code, text in EXIT_CODES],
        "outputModes": [{"mode": m, "what": MODE_NOTES[m]} for m in MODES],
        "version": __version__,
    }


def text(doc: dict) -> str:
    lines = [f"relate {doc['version']}: commands, flags and exit codes of this binary", ""]
    for command in doc["commands"]:
        lines.append(f"## {command['command']}: {command['summary']}")
        lines.append(f"usage: {command['usage']}")
        for arg in command["arguments"]:
            lines.append(f"  {arg['name']}{' ...' if arg['many'] else ''}: {arg['help']}")
        for flag in command["flags"]:
            label = ", ".join(flag["names"])
            if flag["value"] is not None:
                label += f"[={flag['value']}]" if flag["valueOptional"] else f" {flag['value']}"
            lines.append(f"  {label}" + (f": {flag['help']}" if flag["help"] else ""))
        lines.append("")
    lines.append("## exit codes")
    lines += [f"  {e['code']}: {e['meaning']}" for e in doc["exitCodes"]]
    lines += ["", "## output modes (--mode)"]
    lines += [f"  {m['mode']}: {m['what']}" for m in doc["outputModes"]]
    am = doc["agentMode"]
    lines += ["", "## agent mode",
              f"  on when {am['when']}: {', '.join(am['detectedFrom'])}",
              f"  forced with {am['forceOn']}; off with {' or '.join(am['off'])}",
              f"  defaults: --mode {am['defaults']['mode']}, --max-rows {am['defaults']['maxRows']} "
              "(a cut prints a stderr warning, and rowCap and truncated in-band)",
              "  it changes output only, never what a statement may do",
              "", "## failures",
              "  Error: <message> on stderr; in the envelope, jsonl and toon modes also an error object "
              f"on stdout with {', '.join(doc['errorObject'])} (statement: in scripts only)",
              "", "## examples (bash, in an empty folder; single quotes keep $name away from the shell)"]
    for example in doc["examples"]:
        lines += [f"  # {example['what']}", f"  {example['command']}"]
    return "\n".join(lines) + "\n"


def agent_context(argv: list[str], stdout: TextIO) -> int:
    args = build_agent_context_parser(stdout).parse_args(argv)
    doc = document()
    stdout.write(dumps(doc) + "\n" if args.json else text(doc))
    return 0
