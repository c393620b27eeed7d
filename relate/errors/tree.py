"""The one error tree of relate.

Every failure the engine, the stores or the front doors report is an instance of `RelateError`.
A class fixes the *kind* (stable, machine-readable), the category prefix of its message, the
openCypher TCK type and phase, the CLI exit-code class and whether a retry can help.  Renderers
(CLI error object, MCP tool error, JSON-RPC error) read those attributes; nothing re-wraps an
error into another type.  Each kind is declared once, with its class and message, in
`catalog.py` beside this file.

Message shape, as the reference pages fix it:  ``<category>: <label>: <detail>`` where the label
is the kind (``semantic error: ParameterMissing: Expected parameter(s): limit``) except for plain
parse errors, whose label is ``parse error``.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Position:
    """Where in the statement text an error points: 0-based offset, 1-based line and column."""

    offset: int
    line: int
    column: int


# Exit-code classes of the CLI.
EXIT_OTHER = 1
EXIT_USAGE = 2
EXIT_CONFLICT = 5
EXIT_REJECTED = 6
EXIT_TIMEOUT = 7


class RelateError(Exception):
    """Base of every relate error.  Subclasses set the class attributes below."""

    category = "error"
    exit_code = EXIT_OTHER
    retryable = False
    internal = False  # internal failures reach MCP callers as `Error: internal error` only

    def __init__(self, kind: str, detail: str, *, phase: str = "runtime",
                 position: Position | None = None) -> None:
        self.kind = kind
        self.detail = detail
        self.phase = phase
        self.position = position
        super().__init__(self.message)

    @property
    def tck_type(self) -> str:
        """The openCypher TCK's error type (a property, so a subclass may work it out)."""
        return "Error"

    @property
    def label(self) -> str:
        return self.kind

    @property
    def tck_detail(self) -> str:
        """The openCypher TCK's detail code for this error: the kind, unless the TCK names it
        differently."""
        return self.kind

    @property
    def message(self) -> str:
        return f"{self.category}: {self.label}: {self.detail}"

    def __str__(self) -> str:
        return self.message


class CypherSyntaxError(RelateError):
    """The statement text is not Cypher relate accepts (also safe-mode refusals, as on the pages)."""

    category = "syntax error"
    tck_type = "SyntaxError"
    exit_code = EXIT_REJECTED

    def __init__(self, kind: str, detail: str, *, position: Position | None = None) -> None:
        super().__init__(kind, detail, phase="compile", position=position)

    @property
    def label(self) -> str:
        return "parse error" if self.kind == "ParseError" else self.kind

    @property
    def tck_detail(self) -> str:
        # text the grammar does not accept at all is what the TCK calls UnexpectedSyntax
        return "UnexpectedSyntax" if self.kind == "ParseError" else self.kind


class CypherSemanticError(RelateError):
    """The statement parses but means nothing valid (unknown variable, missing parameter, ...)."""

    category = "semantic error"
    exit_code = EXIT_REJECTED

    def __init__(self, kind: str, detail: str, *, position: Position | None = None,
                 phase: str = "compile") -> None:
        super().__init__(kind, detail, phase=phase, position=position)

    @property
    def tck_type(self) -> str:
        # the TCK (like Neo4j) files every refusal found before execution under SyntaxError
        return "SyntaxError" if self.phase == "compile" else "SemanticError"


class ParameterMissingError(CypherSemanticError):
    """A statement reads a parameter the caller did not pass."""

    tck_type = "ParameterMissing"  # the TCK gives a missing parameter a type of its own
    tck_detail = "MissingParameter"

    def __init__(self, names: list[str]) -> None:
        super().__init__("ParameterMissing", "Expected parameter(s): " + ", ".join(names))


class ProcedureError(RelateError):
    """A `CALL` names a procedure this database does not know."""

    category = "procedure error"
    tck_type = "ProcedureError"
    exit_code = EXIT_REJECTED

    def __init__(self, kind: str, detail: str, *, position: Position | None = None) -> None:
        super().__init__(kind, detail, phase="compile", position=position)


class CypherTypeError(RelateError):
    """A value of the wrong type reached an operator or function."""

    category = "type error"
    tck_type = "TypeError"
    exit_code = EXIT_REJECTED


class CypherArgumentError(RelateError):
    """A function or clause got an argument of the right type but an invalid value."""

    category = "argument error"
    tck_type = "ArgumentError"
    exit_code = EXIT_REJECTED


class CypherArithmeticError(RelateError):
    """Arithmetic left its domain: a 64-bit integer overflowed, or an integer was divided by zero."""

    category = "arithmetic error"
    tck_type = "ArithmeticError"
    exit_code = EXIT_REJECTED


class CypherRuntimeError(RelateError):
    """A statement failed while running for a reason other than types (overflow, deleted entity...)."""

    category = "runtime error"
    tck_type = "RuntimeError"
    exit_code = EXIT_REJECTED


class TemporalError(RelateError):
    """A statement's time-travel part cannot be honoured: a bad AT VALID / AS OF time, a write
    under AS OF or `at_time`, a read at a past time over its history budget."""

    category = "temporal error"
    tck_type = "SemanticError"
    exit_code = EXIT_REJECTED

    def __init__(self, kind: str, detail: str, *, position: Position | None = None,
                 phase: str = "runtime") -> None:
        super().__init__(kind, detail, phase=phase, position=position)


class DeletedEntityError(CypherRuntimeError):
    """A statement read or changed a node or relationship it had already deleted."""

    tck_type = "EntityNotFound"

    def __init__(self, detail: str) -> None:
        super().__init__("DeletedEntityAccess", detail)


class ConstraintError(RelateError):
    """A write would break a constraint or delete a node that still has relationships."""

    category = "constraint error"
    tck_type = "ConstraintValidationFailed"
    exit_code = EXIT_REJECTED


class ReadOnlyError(RelateError):
    """A write reached a store opened read-only."""

    category = "read-only"
    tck_type = "Error"
    exit_code = EXIT_REJECTED

    def __init__(self, detail: str) -> None:
        super().__init__("ReadOnly", detail)

    @property
    def message(self) -> str:
        return f"{self.category}: {self.detail}"


class StorageError(RelateError):
    """A store could not be opened, read or written."""

    category = "storage error"
    tck_type = "Error"
    exit_code = EXIT_OTHER
    internal = True

    @property
    def message(self) -> str:
        return f"{self.category}: {self.detail}"


class StorageWriteError(StorageError):
    """A commit the disk refused (full, over the file size limit, an I/O error): nothing of it was
    written, reads go on, and the next write tries again.  Like every storage failure an MCP caller
    sees only `Error: internal error` (the reference's text); the CLI and the Python API show the
    message, and the stores log the file and the OS error to stderr."""

    retryable = True


class LockedStoreError(StorageError):
    """Another process holds the store's writer lease."""

    exit_code = EXIT_CONFLICT
    retryable = True


class StatementTimeout(RelateError):
    """A statement ran past the time limit its caller set; it was stopped and rolled back."""

    category = "timeout"
    tck_type = "Error"
    exit_code = EXIT_TIMEOUT

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        super().__init__("Timeout", f"the statement ran longer than {seconds:g}s and was stopped; "
                                    "the graph is unchanged")

    @property
    def message(self) -> str:
        return f"{self.category}: {self.detail}"


class StatementCancelled(RelateError):
    """A statement stopped because the server is stopping, its client went away or the shell's
    user pressed Ctrl-C; it was rolled back."""

    category = "cancelled"

    @property
    def message(self) -> str:
        return f"{self.category}: {self.detail}"


class UsageError(RelateError):
    """The command line or a request is malformed before any statement runs."""

    category = "usage"
    exit_code = EXIT_USAGE

    def __init__(self, detail: str) -> None:
        super().__init__("Usage", detail)

    @property
    def message(self) -> str:
        return self.detail


class InternalError(RelateError):
    """A bug: the engine reached a state it should not.  Never shown in detail to MCP callers."""

    category = "internal error"
    internal = True


class ProtocolError(RelateError):
    """A wire-protocol peer (a Bolt driver) sent bytes or a message the protocol does not allow."""

    category = "protocol error"

    @property
    def message(self) -> str:
        return f"{self.category}: {self.detail}"


class AuthenticationError(RelateError):
    """A network client gave no credential, or a wrong one."""

    category = "authentication"

    @property
    def message(self) -> str:
        return f"{self.category}: {self.detail}"


class TransactionError(RelateError):
    """A statement or command an open transaction cannot take (a write in a read transaction)."""

    category = "transaction"
    exit_code = EXIT_REJECTED


class TransactionConflictError(TransactionError):
    """Another transaction holds what this one needs (the write role); trying again once it has
    ended can succeed."""

    exit_code = EXIT_CONFLICT
    retryable = True


class TransferError(RelateError):
    """An export or an import could not go on: a value the chosen format cannot carry (named by
    entity and key), or a CSV file, header or row the importer cannot read (named by file and
    line).  Nothing is written: an export's files or an import's store appear whole or not at all."""

    category = "transfer error"


class RelateWarning(UserWarning):
    """Something relate did on the caller's behalf that the caller should know about; nothing failed."""


class StoreRecoveryWarning(RelateWarning):
    """Opening a store set aside bytes that held no acknowledged commit (an interrupted write a
    crashed writer left), or a read-only open ignored such bytes.  The message names the file, the
    offset and where the bytes were kept; they are never deleted.  The same text goes to the
    `relate.storage` logger (the CLI prints it on stderr as `warning: ...`)."""
