"""The interactive shell's logic: typed lines -> statements run through a `Session`, and the
shell's own `:` commands.  No terminal handling here (that is `terminal.py`), so it can be driven
line by line.

A statement may span lines and runs when a `;` outside strings and comments ends it; several on
one line run in order.  A line starting with `:` while no statement is pending is a command:

    :help                 the commands and a reminder of how statements end
    :quit, :exit          leave (Ctrl-D too); also at a continuation prompt, dropping the pending
                          statement
    :mode [MODE]          show or set the output mode
    :param NAME=VALUE     set a parameter (VALUE read as on the command line)
    :params               list the parameters
    :clear                drop the pending statement (Ctrl-C too)

A failing statement prints its error (with a caret under the position) and the shell goes on.
When the session's cancel token is tripped (Ctrl-C, `terminal.py`) the running statement stops
with `Interrupted` and the statements after it on the same line do not run.
"""
from __future__ import annotations

from ..errors import UsageError
from ..jsonenc import dumps
from ..output import MODES
from .params import parse_param
from .script import pending
from .session import Session

PROMPT = "relate> "
CONTINUE = "   ...> "

HELP = """Statements end with ';' and may span several lines.
  :help               this text
  :quit, :exit        leave the shell (Ctrl-D does too), also in the middle of a statement
  :mode [MODE]        show or set the output mode ({modes})
  :param NAME=VALUE   set the parameter $NAME (VALUE is JSON when it parses as JSON, else a string)
  :params             list the parameters
  :clear              drop the statement typed so far (Ctrl-C does too)
Ctrl-C while a statement runs stops it (nothing of it is kept) and the shell goes on.
"""

QUIT = (":quit", ":exit", ":q")


class Shell:
    def __init__(self, session: Session) -> None:
        self.session = session
        self.buffer = ""
        self.done = False

    @property
    def prompt(self) -> str:
        return CONTINUE if self.buffer else PROMPT

    def clear(self) -> None:
        self.buffer = ""

    def feed(self, line: str) -> None:
        """One typed line (without its newline)."""
        if not self.buffer and line.lstrip().startswith(":"):
            self._command(line.strip())
            return
        if line.strip() in QUIT:  # at a continuation prompt: leave, the pending statement unrun
            self.buffer = ""
            self.done = True
            return
        self.buffer += line + "\n"
        statements, rest = pending(self.buffer)
        source = self.buffer
        self.buffer = rest
        for statement in statements:
            cancel = self.session.cancel
            if cancel is not None and cancel.cancelled:
                break  # Ctrl-C stopped this line's run: what was typed after it does not run either
            self.session.execute(statement, source)

    def _write(self, text: str) -> None:
        self.session.stdout.write(text)

    def _command(self, line: str) -> None:
        name, _, arg = line.partition(" ")
        arg = arg.strip()
        s = self.session
        if name in QUIT:
            self.done = True
        elif name == ":help":
            self._write(HELP.format(modes=", ".join(MODES)))
        elif name == ":mode":
            if not arg:
                self._write(s.mode + "\n")
            elif arg in MODES:
                s.mode = arg
                s.printed = False
            else:
                s.stderr.write(f"Error: unknown mode {arg!r} (choose from {', '.join(MODES)})\n")
        elif name == ":param":
            try:
                key, value = parse_param(arg)
            except UsageError as e:
                s.stderr.write(e.message.replace("--param", ":param") + "\n")
                return
            s.parameters[key] = value
        elif name == ":params":
            for key, value in s.parameters.items():
                self._write(f"${key} = {dumps(value)}\n")
        elif name == ":clear":
            self.clear()
        else:
            s.stderr.write(f"Error: unknown command {name} (:help lists the commands)\n")
