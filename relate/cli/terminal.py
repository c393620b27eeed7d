"""The interactive shell on a real terminal: prompts, line editing and history around `Shell`.

Native only, imported when `relate` starts with a terminal on stdin and stdout and nothing to
run.  Line editing and history come from the stdlib `readline` when the platform has it (loaded
here, never at package import); history is kept in `~/.relate_history`.  Ctrl-C drops the
statement being typed, Ctrl-D (end of input) or `:quit` leaves with exit code 0.

Ctrl-C while a typed line's statements run: for that time SIGINT trips the session's
`CancelToken` instead of raising KeyboardInterrupt, so the statement stops at the engine's next
poll, rolls back (`Interrupted`) and the shell prompts again.  A second Ctrl-C before it stops
(the statement is busy somewhere the engine does not poll) breaks it off and leaves the shell
with exit code 130, as Ctrl-C did before the token.  `signal` is imported here, when the shell
starts, never by the core.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Iterator, Mapping, TextIO

from ..errors import E
from ..exec.context import CancelToken
from ..version import __version__
from .session import Session
from .shell import Shell

HISTORY_FILE = ".relate_history"
HISTORY_LENGTH = 1000


def _readline():
    try:
        import readline
    except ImportError:  # Windows, some minimal builds
        return None
    return readline


def _is_process_stdin(stream) -> bool:
    try:
        return stream.fileno() == 0
    except (AttributeError, OSError, ValueError):
        return False


@contextmanager
def _interruptible(session: Session) -> Iterator[CancelToken]:
    """While the block runs, SIGINT cancels the session's statement instead of raising; a second
    one raises KeyboardInterrupt, for a statement busy where the engine does not poll."""
    import signal

    token = session.cancel = CancelToken()

    def on_sigint(signum, frame) -> None:
        if token.cancelled:
            raise KeyboardInterrupt
        token.cancel(E.Cancelled.Interrupted)

    try:
        previous = signal.signal(signal.SIGINT, on_sigint)
    except ValueError:  # not the main thread: signals are not ours to take
        previous = None
    try:
        yield token
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
        session.cancel = None


def interactive(session: Session, env: Mapping[str, str], stdin: TextIO, stdout: TextIO,
                stderr: TextIO) -> int:
    session.summary = True
    shell = Shell(session)
    rl = _readline() if _is_process_stdin(stdin) else None
    history = os.path.join(env["HOME"], HISTORY_FILE) if env.get("HOME") else None
    if rl is not None and history:
        rl.set_history_length(HISTORY_LENGTH)
        try:
            rl.read_history_file(history)
        except OSError:
            pass  # first run, or an unreadable file: start with no history
    where = session.db.path
    stdout.write(f"relate {__version__} on {where}; statements end with ';', :help for help, "
                 ":quit or Ctrl-D to leave\n")

    def read(prompt: str) -> str:
        if rl is not None:
            return input(prompt)  # readline's line editing hooks input()
        stdout.write(prompt)
        stdout.flush()
        line = stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\n")

    try:
        while not shell.done:
            try:
                line = read(shell.prompt)
            except EOFError:
                stdout.write("\n")
                break
            except KeyboardInterrupt:
                stdout.write("^C\n")
                shell.clear()
                continue
            token = None
            try:
                with _interruptible(session) as token:
                    shell.feed(line)
            except KeyboardInterrupt:
                if token is None or not token.cancelled:  # pressed in the instant before the trap was set
                    stdout.write("^C\n")
                    shell.clear()
                    continue
                # pressed twice: the statement did not stop at the first, and was broken off
                # wherever it was (rolled back, but an in-memory graph may keep half-done
                # changes), so leave rather than keep working on it
                stderr.write("\ninterrupted twice: the running statement did not commit; leaving the shell\n")
                return 130
            stdout.flush()
            stderr.flush()
    finally:
        if rl is not None and history:
            try:
                rl.write_history_file(history)
            except OSError:
                pass
    return 0
