"""The `relate` command: argv -> output text and an exit code.

`run(argv, env=..., stdin=..., stdout=..., stderr=..., stdout_isatty=...)` does all the work
against the streams it is given, so the browser build calls it with string buffers and tests call
it in-process; `entry()` binds it to the real process.  Serving, the interactive shell's terminal
handling and the skill's file writes are imported only when their command runs.

Commands: `relate [options] [STATEMENT ...]` (this module and `session.py`), `relate serve`
(`serve.py`), `relate clone` (`clone.py`), `relate export` and `relate import` (`transfer.py`),
`relate agent-context` (`agent_context.py`),
`relate skill install|check|show` (`skill.py`).  The parsers of all of them are in `parsers.py`.

Where statements come from: the STATEMENT arguments, else `-f FILE` (`-` is stdin), else stdin;
with no statement anywhere and a terminal on both stdin and stdout, the interactive shell.
Each source is split into statements at `;` (`script.py`); every statement prints its own
result set, and the first failure stops the run with its exit code.
"""
from __future__ import annotations

import gc
import io
import os
import re
import sys
from types import SimpleNamespace
from typing import TYPE_CHECKING, Mapping, TextIO

from ..gc_pause import paused

with paused():  # as the package's own imports (`relate/__init__.py`)
    from ..errors import E, EXIT_USAGE, StorageError, UsageError
    from . import params as P
    from ..output import MODES
    from .agent import agent_mode
    from .failure import error_object, error_text
    from .script import split
    from .session import Session

if TYPE_CHECKING:
    from .parsers import _Exit

AGENT_ROW_CAP = 100
_HELP = ("-h", "--help")


def run(argv: list[str], *, env: Mapping[str, str] | None = None, stdin: TextIO | None = None,
        stdout: TextIO | None = None, stderr: TextIO | None = None, stdout_isatty: bool = False,
        stdin_isatty: bool = False) -> int:
    env = os.environ if env is None else env
    stdin = stdin or io.StringIO("")
    stdout = stdout or io.StringIO()
    stderr = stderr or io.StringIO()
    try:
        command = argv[0] if argv else ""
        if command == "help":  # `relate help [COMMAND]`, as `relate [COMMAND] --help`
            return run([*argv[1:], "--help"], env=env, stdin=stdin, stdout=stdout, stderr=stderr,
                       stdout_isatty=stdout_isatty, stdin_isatty=stdin_isatty)
        if command == "serve":
            return _serve(argv[1:], stdin, stdout, stderr, env)
        if command == "clone":
            from .clone import clone
            return clone(argv[1:], stdout, stderr)
        if command == "export":
            from .transfer import export
            return export(argv[1:], stdout, stderr)
        if command == "import":
            from .transfer import import_
            return import_(argv[1:], stdout, stderr)
        if command == "agent-context":
            from .agent_context import agent_context
            return agent_context(argv[1:], stdout)
        if command == "skill":
            from .skill import skill
            return skill(argv[1:], env, stdout, stderr)
        return _statements(argv, env, stdin, stdout, stderr, stdout_isatty, stdin_isatty)
    except _exit_type() as e:  # evaluated only when something was raised
        return e.code
    except UsageError as e:
        stderr.write(e.message + "\n")
        return EXIT_USAGE


def _exit_type() -> type[_Exit]:
    # the parsers (and argparse) load only for a command line that needs them; a `_Exit` can
    # only come from them
    from .parsers import _Exit
    return _Exit


def _serve(argv: list[str], stdin, stdout, stderr, env=None) -> int:
    from .parsers import build_serve_parser, help_text
    if any(a in _HELP for a in argv[:argv.index("--") if "--" in argv else len(argv)]):
        stdout.write(help_text(build_serve_parser()))  # help goes to stdout, not the server's stderr
        return 0
    from .serve import serve
    return serve(argv, stdin, stdout, stderr, env=env)


def _statements(argv, env, stdin, stdout, stderr, isatty: bool, stdin_isatty: bool) -> int:
    # the stores log what failed (a write the disk refused, ...) to `relate`: onto this run's stderr
    import logging
    handler = logging.StreamHandler(stderr)
    handler.setFormatter(logging.Formatter("relate: %(message)s"))
    logger = logging.getLogger("relate")
    logger.addHandler(handler)
    try:
        return _run_statements(argv, env, stdin, stdout, stderr, isatty, stdin_isatty)
    finally:
        logger.removeHandler(handler)


def _run_statements(argv, env, stdin, stdout, stderr, isatty: bool, stdin_isatty: bool) -> int:
    try:
        _mistyped_command(argv)
        args = _statements_only(argv)
        if args is None:
            from .parsers import build_parser
            args = build_parser(stdout).parse_args(argv)
    except UsageError as e:
        # the mode the command line asked for, if it got that far; else the default for this stdout
        mode = _mode_named(argv) or _default_mode(agent_mode(env, isatty, "--no-agent-mode" in argv), isatty)
        stderr.write(e.message + "\n")
        stdout.write(error_text(error_object(e), mode))
        return EXIT_USAGE
    agent = agent_mode(env, isatty, args.no_agent_mode)
    mode = args.mode or _default_mode(agent, isatty)
    max_rows = args.max_rows
    if max_rows is None and agent:
        max_rows = AGENT_ROW_CAP
    shell = not args.statement and args.file is None and stdin_isatty and isatty
    try:
        read = _Inputs(stdin, statements_from_stdin=not shell and _reads_stdin(args))
        parameters = P.merge((P.parse_params(text, read) for text in args.params),
                             (P.parse_param(item) for item in args.param))
        scripts = [] if shell else _scripts(args, stdin)
        statements = [(source, st) for source in scripts for st in split(source)]
        if not shell and not statements:
            raise E.Usage.Usage(
                "Error: no statement given (pass one as an argument, with -f FILE, or on stdin)")
    except UsageError as e:
        stderr.write(e.message + "\n")
        stdout.write(error_text(error_object(e), mode))
        return EXIT_USAGE
    from ..database import Database, import_folder
    from ..policy import Policy
    from .notices import store_notices
    try:
        imports = None if args.import_dir is None else import_folder(args.import_dir)
    except UsageError as e:
        stderr.write(f"Error: --import-dir: {e.message}\n")
        stdout.write(error_text(error_object(e), mode))
        return EXIT_USAGE
    try:
        with store_notices(stderr):
            db = Database(args.database, policy=Policy(read_only=args.read_only, safe=args.safe, import_dir=imports))
    except StorageError as e:
        stderr.write(f"Error: Failed to open Relate: {e.message}\n")
        stdout.write(error_text(error_object(e), mode))
        return e.exit_code
    session = Session(db, mode=mode, max_rows=max_rows, parameters=parameters, timeout=args.timeout,
                      stdout=stdout, stderr=stderr, at_time=args.at_time)
    try:
        if shell:
            from .terminal import interactive
            return interactive(session, env, stdin, stdout, stderr)
        return session.run_script(statements)
    finally:
        db.close()


def _statements_only(argv: list[str]) -> SimpleNamespace | None:
    """A command line of statements and nothing else (no argument starts with `-`), read as
    `build_parser().parse_args(argv)` reads it, without building the parser: argparse and the
    parsers are about a tenth of a bare `relate "RETURN 1"`.  Else None (tests/cli checks that
    both readings agree)."""
    if any(arg.startswith("-") for arg in argv):
        return None
    from ..storage.store import MEMORY
    return SimpleNamespace(statement=list(argv), file=None, database=MEMORY, mode=None, max_rows=None,
                           param=[], params=[], timeout=None, read_only=False, safe=False,
                           import_dir=None, at_time=None, no_agent_mode=False)


def _default_mode(agent: bool, isatty: bool) -> str:
    return "toon" if agent else ("table" if isatty else "jsonl")


def _mode_named(argv: list[str]) -> str | None:
    """The valid `--mode` of a command line that failed to parse, or None."""
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        value = argv[i + 1] if arg == "--mode" and i + 1 < len(argv) else arg[len("--mode="):] \
            if arg.startswith("--mode=") else None
        if value in MODES:
            return value
    return None


_COMMAND_WORDS = ("serve", "clone", "agent-context", "skill", "help")
_BARE_WORD = re.compile(r"[A-Za-z][A-Za-z-]*")


def _mistyped_command(argv: list[str]) -> None:
    """`relate sevre`: a first argument that is one word close to a command's name is a typo of
    that command, not a statement (one word is never a Cypher statement relate could run)."""
    word = argv[0] if argv else ""
    if not _BARE_WORD.fullmatch(word):
        return
    import difflib  # only for a one-word first argument
    near = difflib.get_close_matches(word.lower(), _COMMAND_WORDS, n=1, cutoff=0.7)
    if near:
        raise E.Usage.Usage(f"Error: unknown command {word!r}; did you mean `relate {near[0]}`? "
                            "(`relate --help` lists the commands)")


def _read_file(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise E.Usage.Usage(f"Error: cannot read {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise E.Usage.Usage(f"Error: cannot read {path}: it is not UTF-8 text") from None


class _Inputs:
    """What `--params @PATH` reads: a file, or standard input for `@-` (read once, so several
    `--params @-` see the same text).  Refused when the statements come from stdin as well."""

    def __init__(self, stdin, *, statements_from_stdin: bool) -> None:
        self.stdin = stdin
        self.statements_from_stdin = statements_from_stdin
        self.text: str | None = None

    def __call__(self, path: str) -> str:
        if path != "-":
            return _read_file(path)
        if self.statements_from_stdin:
            raise E.Usage.Usage("Error: --params @- reads standard input, which already holds the "
                                "statements; pass them as arguments or with -f FILE")
        if self.text is None:
            self.text = self.stdin.read()
        return self.text


def _reads_stdin(args) -> bool:
    """Whether the statements come from standard input."""
    return not args.statement and (args.file is None or args.file == "-")


def _scripts(args, stdin) -> list[str]:
    if args.statement and args.file is not None:
        raise E.Usage.Usage("Error: give the statements as arguments or with -f FILE, not both")
    if args.statement:
        return list(args.statement)
    if args.file is not None and args.file != "-":
        return [_read_file(args.file)]
    return [stdin.read()]


def entry() -> None:
    """Console-script entry point."""
    # this process is the CLI's own: what the imports and the parser's image made lives until it
    # exits, so the cyclic collector need never walk it again (`gc_pause.py`)
    from ..syntax.parser import warm_parser
    warm_parser()
    gc.freeze()
    def tty(stream) -> bool:
        try:
            return stream.isatty()
        except (AttributeError, ValueError):
            return False

    # a Cypher string can hold a lone surrogate ('\\ud800'), which strict UTF-8 cannot write: the
    # table and TOON modes show it as its escape instead of dying mid-result
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    code = run(sys.argv[1:], env=os.environ, stdin=sys.stdin, stdout=sys.stdout, stderr=sys.stderr,
               stdout_isatty=tty(sys.stdout), stdin_isatty=tty(sys.stdin))
    sys.stdout.flush()
    sys.exit(code)
