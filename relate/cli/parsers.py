"""The argument parsers of every `relate` command, and the help text made from them.

Each command (`relate`, `relate serve`, `relate clone`, `relate export`, `relate import`,
`relate agent-context`, `relate skill install|check|show`) has one argparse parser, built here;
`COMMANDS` lists them.
This module imports no other module of `cli/`, so every command module can import it.  `--help`
and `relate agent-context` both read the flags straight off those parsers (`describe`), so
neither can list a flag the binary does not take or miss one it does.

argparse is used for parsing only.  Its own help layout depends on the Python version and the
terminal width, and some of its error texts differ between 3.11 (native) and 3.14 (the browser
build), so the help text is rendered here and value checks raise our own `UsageError` texts.
"""
from __future__ import annotations

import argparse
import io
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from ..version import __version__
from ..errors import E
from ..output import MODES
from ..policy import SERVED
from ..semantic.traversal_depth import MAX_LIMIT, MIN_LIMIT
from ..storage.store import MEMORY


class _Exit(Exception):
    """A parser finished the command by itself (`--help`, `--version`)."""

    def __init__(self, code: int) -> None:
        self.code = code


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, and writes help where it is told."""

    def __init__(self, *a, out: TextIO | None = None, **kw) -> None:
        kw.setdefault("allow_abbrev", False)  # `--data` must not silently mean `--database`
        super().__init__(*a, **kw)
        self._out = out

    def error(self, message: str):
        raise E.Usage.Usage(f"Error: {plain_usage(self, message)}")

    def exit(self, status=0, message=None):
        if message:
            (self._out or io.StringIO()).write(message)
        raise _Exit(status)

    def _print_message(self, message, file=None):
        if message and self._out is not None:
            self._out.write(message)

    def format_help(self) -> str:
        return help_text(self)


# --- argparse's complaints, in plain words -------------------------------------------------------

_UNRECOGNIZED = re.compile(r"unrecognized arguments?: (?P<args>.*)", re.S)
_NEEDS_VALUE = re.compile(r"argument (?P<flag>[^:]+): expected (?:one|at least one) argument")
_REQUIRED = re.compile(r"the following arguments are required: (?P<names>.*)")
_NO_VALUE = re.compile(r"argument (?P<flag>[^:]+): ignored explicit argument '(?P<value>.*)'", re.S)
_TOO_MANY = re.compile(r"argument (?P<flag>[^:]+): expected at most one argument")


def plain_usage(parser: argparse.ArgumentParser, message: str) -> str:
    """argparse's error text -> one that says what to do, without argparse's wording (which also
    differs between Python versions); anything not recognised passes as argparse wrote it."""
    see = f"(`{parser.prog} --help` lists them)"
    m = _UNRECOGNIZED.fullmatch(message)
    if m:
        words = m["args"].split(" ")
        flags = [w for w in words if w.startswith("-") and len(w) > 1]
        if not flags:
            return f"{parser.prog} takes no argument {words[0]!r} {see.replace('them', 'what it takes')}"
        flag = flags[0].split("=", 1)[0]
        options = [o for a in parser._actions for o in a.option_strings if o.startswith("--")]
        import difflib  # on the error path only
        near = difflib.get_close_matches(flag, options, n=1, cutoff=0.6)
        hint = f"; did you mean {near[0]}?" if near else f" {see.replace('them', 'the options')}"
        return f"unknown option {flag}{hint}"
    m = _NEEDS_VALUE.fullmatch(message)
    if m:
        return f"{_flag(m['flag'])} needs a value"
    m = _TOO_MANY.fullmatch(message)
    if m:
        return f"{_flag(m['flag'])} takes one value"
    m = _REQUIRED.fullmatch(message)
    if m:
        names = [n.strip() for n in m["names"].split(",")]
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        return f"{parser.prog} needs {listed} (`{parser.prog} --help` describes them)"
    m = _NO_VALUE.fullmatch(message)
    if m:
        flag = _flag(m["flag"])
        if flag == "--read-only" and parser.prog == "relate":
            return (f"--read-only takes no value here: --read-only={m['value']} is an option of `relate serve` "
                    "(`live` follows a directory store another process writes); `relate --read-only` opens "
                    "the store read-only")
        return f"{flag} is a switch and takes no value (got {m['value']!r})"
    return message


def _flag(names: str) -> str:
    """`-f/--file` (how argparse names a flag) -> `--file`."""
    return names.split("/")[-1]


# --- value checks (worded here, the same on every Python version) ------------------------------


def mode_value(value: str) -> str:
    if value not in MODES:
        raise E.Usage.Usage(f"Error: --mode takes {', '.join(MODES[:-1])} or {MODES[-1]}, not {value!r}")
    return value


def max_rows_value(value: str) -> int:
    text = value.strip()
    if not (text.isascii() and text.isdigit()):
        raise E.Usage.Usage("Error: --max-rows takes a non-negative number")
    return int(text)


def timeout_value(value: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        seconds = math.nan
    if not (math.isfinite(seconds) and seconds > 0):
        raise E.Usage.Usage(f"Error: --timeout takes a positive number of seconds, got {value!r}")
    return seconds


# --- the parsers ---------------------------------------------------------------------------------


def build_parser(out: TextIO | None = None) -> _Parser:
    """`relate [options] [STATEMENT ...]`: run statements and print their results."""
    p = _Parser(prog="relate", out=out,
                description="Run Cypher statements against a store and print their results.")
    p.add_argument("--version", action="version", version=f"relate {__version__}",
                   help="print the version and exit")
    p.add_argument("statement", nargs="*", metavar="STATEMENT",
                   help="Cypher to run; several statements separated by ';' each print their own "
                        "result (read from stdin when absent)")
    p.add_argument("-f", "--file", metavar="FILE",
                   help="read the statements from FILE ('-' for stdin) instead of the arguments")
    _database_flag(p, "the store")
    p.add_argument("--mode", type=mode_value, metavar="MODE",
                   help="output mode: table, envelope, jsonl or toon (default: table on a terminal, "
                        "jsonl in a pipe, toon in agent mode)")
    p.add_argument("--max-rows", type=max_rows_value, metavar="N",
                   help="print at most N rows per statement, 0 for all (default: all; 100 in agent mode)")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="set the parameter $NAME; VALUE is read as JSON when it is JSON, else as a "
                        "string (repeatable)")
    p.add_argument("--params", action="append", default=[], metavar="JSON",
                   help="set parameters from a JSON object, or from @FILE holding one (@- reads stdin; "
                        "repeatable)")
    p.add_argument("--timeout", type=timeout_value, metavar="SECONDS",
                   help="stop a statement that runs longer (fractions allowed); it changes nothing "
                        "and exits 7")
    p.add_argument("--read-only", action="store_true",
                   help="open the store read-only: writes are refused and nothing is created")
    p.add_argument("--safe", action="store_true",
                   help="refuse a MATCH read without LIMIT or a reducing aggregate, and a "
                        "CREATE/MERGE of a named node without a label")
    p.add_argument("--import-dir", metavar="DIR",
                   help="the folder LOAD CSV may read (file:///x.csv is DIR/x.csv); without it LOAD CSV "
                        "is refused")
    p.add_argument("--at-time", metavar="ISO",
                   help="read the graph as of this valid time (ISO-8601), as AS OF '<ISO>' does; "
                        "statements must read and have a top-level MATCH")
    p.add_argument("--no-agent-mode", action="store_true",
                   help="ignore agent-harness detection (as RELATE_AGENT_MODE=0 does)")
    return p


def _database_flag(p: _Parser, what: str) -> None:
    p.add_argument("--database", default=MEMORY, metavar="PATH",
                   help=f"{what}: :memory: (default), a .rl file, or a directory")


def build_serve_parser(out: TextIO | None = None) -> _Parser:
    """`relate serve`: its values are checked by `serve.py`, after parsing."""
    p = _Parser(prog="relate serve", out=out, description="Serve one store over MCP.")
    _database_flag(p, "the store to serve")
    p.add_argument("--mcp", action="append", metavar="stdio|PORT",
                   help="serve MCP on stdin/stdout, or as streamable HTTP on this port")
    p.add_argument("--bolt", metavar="PORT",
                   help="serve Bolt 5 (Neo4j's drivers; TCP and WebSocket) on this port")
    p.add_argument("--http", metavar="PORT", help="serve Neo4j's HTTP Query API v2 on this port")
    p.add_argument("--origin", action="append", default=[], metavar="URL",
                   help="a web page origin (scheme://host[:port]) whose scripts may call the Query API "
                        "(CORS) or open Bolt over WebSocket; repeatable")
    p.add_argument("--tx-timeout-secs", default="60", metavar="N",
                   help="seconds a Query API transaction may sit idle before it is rolled back (default 60)")
    from ..protocols.tool_groups import TOOLS_HELP
    p.add_argument("--tools", default="cypher", metavar="LIST", help=TOOLS_HELP)
    p.add_argument("--read-only", nargs="?", const="snapshot", default=None, metavar="FRESHNESS",
                   help="open the store read-only (write_cypher is not listed); =live follows a "
                        "directory store another process writes")
    p.add_argument("--safe", action="store_true",
                   help="refuse unbounded MATCH reads and new named nodes without a label")
    p.add_argument("--auth", metavar="USER:PASSWORD", help="the HTTP Basic credential, or 'none'")
    p.add_argument("--host", default="127.0.0.1", help="the address a port listener binds (default 127.0.0.1)")
    p.add_argument("--header-deadline-secs", default="10", metavar="N",
                   help="seconds for a request's header block, 0 for none (default 10)")
    p.add_argument("--body-deadline-secs", default="60", metavar="N",
                   help="seconds for a request's body, 0 for none (default 60)")
    p.add_argument("--max-connections", default="128", metavar="N",
                   help="open connections across all listeners (default 128)")
    depth = SERVED.max_traversal_depth
    p.add_argument("--max-traversal-depth", default=str(depth), metavar="N",
                   help=f"the largest explicit hop bound a pattern may name ({MIN_LIMIT} to {MAX_LIMIT}, "
                        f"default {depth})")
    p.add_argument("--expression-memory-limit", default=str(SERVED.expression_memory_limit), metavar="BYTES",
                   help="the largest value one expression may build, e.g. 256MiB (the default)")
    p.add_argument("--call-timeout-secs", default="0", metavar="N",
                   help="seconds a tool call's statement may run, 0 for no limit (the default)")
    p.add_argument("--temporal-read-limit", default=str(SERVED.temporal_read_limit), metavar="N",
                   help="versions of history a read at a past time may look at (default "
                        f"{SERVED.temporal_read_limit}); past it the read fails with TEMPORAL_READ_LIMIT")
    p.add_argument("--import-dir", metavar="DIR",
                   help="let LOAD CSV read this folder's files (off by default: MCP clients read no files; "
                        "refused with --read-only)")
    return p


def build_clone_parser(out: TextIO | None = None) -> _Parser:
    p = _Parser(prog="relate clone", out=out,
                description="Copy a store (a directory, a .rl file or :memory:) into a new store of any kind.")
    p.add_argument("source", metavar="SRC", help="the store to copy; it is opened read-only")
    p.add_argument("destination", metavar="DST", help="the new store: a .rl path or a directory path; must not exist")
    return p


def char_value(flag: str):
    def read(value: str) -> str:
        if value in ("TAB", "\\t"):
            return "\t"
        code = re.fullmatch(r"U\+([0-9A-Fa-f]{4})|\\([0-9]{1,5})", value)  # neo4j-admin's U+20AC, \59
        if code:
            return chr(int(code[1], 16) if code[1] else int(code[2]))
        if len(value) != 1:
            raise E.Usage.Usage(f"Error: {flag} takes one character (TAB, U+XXXX or \\NN name one), not {value!r}")
        return value
    return read


def _csv_flags(p: _Parser, array_default: str | None) -> None:
    p.add_argument("--delimiter", type=char_value("--delimiter"), default=",", metavar="CHAR",
                   help="the field delimiter (default ,; TAB for tabs)")
    p.add_argument("--array-delimiter", type=char_value("--array-delimiter"), default=array_default,
                   metavar="CHAR", help="what splits list elements and labels in a field (default ;"
                   + ("" if array_default else ", or another when ; occurs in the data") + ")")
    p.add_argument("--quote", type=char_value("--quote"), default='"', metavar="CHAR",
                   help='the quote character (default ")')


def build_export_parser(out: TextIO | None = None) -> _Parser:
    p = _Parser(prog="relate export", out=out,
                description="Write a store as a Cypher script (Neo4j 5 runs it with cypher-shell, relate with -f) "
                            "or as the CSV files neo4j-admin database import and relate import read. Ids are "
                            "kept as the property _relate_id.")
    p.add_argument("store", metavar="STORE", help="the store to export; it is opened read-only")
    p.add_argument("--format", choices=("cypher", "csv"), default="cypher",
                   help="cypher: one script file; csv: a folder of node and relationship files, "
                        "schema.cypher and import.txt (default cypher)")
    p.add_argument("--out", required=True, metavar="PATH",
                   help="the script file (- for stdout) or the CSV folder; must not exist (an empty folder is taken)")
    p.add_argument("--batch-size", type=int, default=1000, metavar="N",
                   help="rows per UNWIND statement in the script (default 1000)")
    _csv_flags(p, None)
    return p


def build_import_parser(out: TextIO | None = None) -> _Parser:
    p = _Parser(prog="relate import", out=out,
                description="Build a new store from CSV files in neo4j-admin's header format (:ID, :LABEL, "
                            ":START_ID, :END_ID, :TYPE, name:type columns), straight from the rows; nothing is "
                            "written unless every row loads.")
    p.add_argument("store", metavar="STORE", help="the new store: a .rl path or a directory path; it must not "
                                                  "exist or be empty")
    p.add_argument("--nodes", action="append", default=[], metavar="[LABEL[:LABEL]=]FILE[,FILE]",
                   help="a node file (its first line the header; more files continue it), with labels for "
                        "every row (repeatable)")
    p.add_argument("--relationships", action="append", default=[], metavar="[TYPE=]FILE[,FILE]",
                   help="a relationship file, with the type of rows that name none (repeatable)")
    p.add_argument("--schema", metavar="FILE", help="a file of CREATE INDEX / CREATE CONSTRAINT statements, "
                                                   "one a line, applied after the rows (relate export writes "
                                                   "schema.cypher)")
    p.add_argument("--id-type", choices=("string", "integer", "actual"), default="string", metavar="TYPE",
                   help="string, integer or actual: how :ID values compare and the type of the property "
                        "keeping them (default string)")
    p.add_argument("--skip-duplicate-nodes", action="store_true", help="keep the first of two nodes with one id")
    p.add_argument("--skip-bad-relationships", action="store_true",
                   help="leave out relationships whose end node is in no file")
    _csv_flags(p, ";")
    return p


def build_agent_context_parser(out: TextIO | None = None) -> _Parser:
    p = _Parser(prog="relate agent-context", out=out,
                description="Print the commands, flags, exit codes and output modes of this binary, "
                            "read from its own argument parsers.")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    return p


def _skill_parser(word: str, description: str, agent_help: str | None, out: TextIO | None) -> _Parser:
    p = _Parser(prog=f"relate skill {word}", out=out, description=description)
    if agent_help is not None:
        p.add_argument("--agent", action="append", default=[], metavar="NAME", help=agent_help)
    return p


def build_skill_install_parser(out: TextIO | None = None) -> _Parser:
    return _skill_parser("install", "Copy relate's skill into the skills folder of each agent found under HOME.",
                         "install for this agent even when its folder is missing (repeatable)", out)


def build_skill_check_parser(out: TextIO | None = None) -> _Parser:
    return _skill_parser("check", "Compare each installed copy of the skill with the one this binary ships; "
                                  "exit 1 when one differs or none is installed.",
                         "check only this agent's copy (repeatable)", out)


def build_skill_show_parser(out: TextIO | None = None) -> _Parser:
    return _skill_parser("show", "Print the skill this binary ships.", None, out)


@dataclass(frozen=True, slots=True)
class Command:
    words: tuple[str, ...]  # ("relate", "skill", "install")
    summary: str
    build: Callable[..., _Parser]

    @property
    def name(self) -> str:
        return " ".join(self.words)


COMMANDS: tuple[Command, ...] = (
    Command(("relate",), "run Cypher statements and print the results", build_parser),
    Command(("relate", "serve"), "serve one store to agent hosts over MCP", build_serve_parser),
    Command(("relate", "clone"), "copy a store into a new store of any kind", build_clone_parser),
    Command(("relate", "export"), "write a store as a Cypher script or neo4j-admin CSV files", build_export_parser),
    Command(("relate", "import"), "build a new store from neo4j-admin CSV files", build_import_parser),
    Command(("relate", "agent-context"), "print this binary's commands, flags and exit codes",
            build_agent_context_parser),
    Command(("relate", "skill", "install"), "copy the skill into each detected agent's skills folder",
            build_skill_install_parser),
    Command(("relate", "skill", "check"), "exit 1 when an installed copy of the skill differs",
            build_skill_check_parser),
    Command(("relate", "skill", "show"), "print the skill", build_skill_show_parser),
)

# Exit codes of every command, by class.
EXIT_CODES: tuple[tuple[int, str], ...] = (
    (0, "success"),
    (1, "other failure (the store cannot be opened, an internal error)"),
    (2, "usage: the command line is malformed"),
    (5, "conflict or locked store; retryable"),
    (6, "statement rejected (syntax, semantic, type, read-only or safe-mode refusal)"),
    (7, "timeout: the statement was stopped by --timeout and changed nothing"),
)


# --- reading the parsers -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Flag:
    """One argument of a parser, as help and agent-context show it."""

    names: tuple[str, ...]  # option strings, () for a positional argument
    value: str | None  # the value's name, None for a switch
    value_optional: bool  # `--read-only[=FRESHNESS]`
    repeatable: bool
    many: bool  # a positional taking any number of values
    help: str

    @property
    def label(self) -> str:
        if not self.names:
            return f"{self.value} ..." if self.many else str(self.value)
        text = ", ".join(self.names)
        if self.value is None:
            return text
        return f"{text}[={self.value}]" if self.value_optional else f"{text} {self.value}"


def describe(parser: argparse.ArgumentParser) -> list[Flag]:
    """The arguments `parser` defines, in the order they were added (help first)."""
    flags = []
    for action in parser._actions:
        takes = action.nargs != 0
        value = None
        if takes:
            value = action.metavar or (action.dest.upper() if action.option_strings else action.dest)
        help_ = action.help or ""
        if isinstance(action, argparse._HelpAction):
            help_ = "show this help and exit"
        flags.append(Flag(tuple(action.option_strings), value, action.nargs == "?" and bool(action.option_strings),
                          isinstance(action, (argparse._AppendAction, argparse._AppendConstAction)),
                          action.nargs in ("*", "+"), help_))
    return flags


def usage(parser: argparse.ArgumentParser) -> str:
    words = [parser.prog]
    flags = describe(parser)
    if any(f.names for f in flags):
        words.append("[options]")
    for f in flags:
        if not f.names:
            words.append(f"[{f.label}]" if f.many else f.label)
    return " ".join(words)


def _rows(pairs: list[tuple[str, str]], width: int | None = None) -> list[str]:
    if width is None:
        width = max((len(left) for left, _ in pairs), default=0)
    return [f"  {left.ljust(width)}  {right}".rstrip() for left, right in pairs]


def help_text(parser: argparse.ArgumentParser) -> str:
    flags = describe(parser)
    lines = [f"usage: {usage(parser)}"]
    if parser.prog == "relate":
        lines += [f"       {usage(c.build())}" for c in COMMANDS[1:]]
    if parser.description:
        lines += ["", parser.description]
    positionals = [(f.label, f.help) for f in flags if not f.names]
    options = [(f.label, f.help) for f in flags if f.names]
    width = max((len(left) for left, _ in positionals + options), default=0)
    if positionals:
        lines += ["", "arguments:", *_rows(positionals, width)]
    if options:
        lines += ["", "options:", *_rows(options, width)]
    if parser.prog == "relate":
        lines += ["", "commands:", *_rows([(c.name, c.summary) for c in COMMANDS[1:]])]
        lines += ["", "exit codes:", *_rows([(str(code), text) for code, text in EXIT_CODES])]
        lines += ["", "`relate agent-context` prints all of this for an agent; `relate COMMAND --help` "
                      "describes one command."]
    return "\n".join(lines) + "\n"


def group_help(words: tuple[str, ...]) -> str:
    """Help for a command group such as `relate skill`: its subcommands."""
    prefix = " ".join(words)
    subs = [c for c in COMMANDS if c.words[:len(words)] == words and len(c.words) > len(words)]
    lines = [f"usage: {prefix} {'|'.join(c.words[len(words)] for c in subs)} [options]", "",
             "commands:", *_rows([(c.name, c.summary) for c in subs])]
    return "\n".join(lines) + "\n"
