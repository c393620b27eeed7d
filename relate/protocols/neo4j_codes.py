"""relate's error kinds -> the Neo4j status codes that Neo4j's drivers read (Bolt FAILURE, the
HTTP Query API's `errors`).

One table: a code per error class of the tree, and per kind where the kind says more than its
class.  The drivers choose the exception from the code (`Neo.ClientError.Statement.SyntaxError`
-> CypherSyntaxError, `...Security.Unauthorized` -> AuthError, ...) and retry managed
transactions on any `Neo.TransientError.*` for up to 30 seconds, so a transient code is given
only to what a retry can fix (`RelateError.retryable`: another transaction holds the write role).
"""
from __future__ import annotations

from ..errors import RelateError

UNKNOWN = "Neo.DatabaseError.General.UnknownError"

BY_CLASS = {
    "CypherSyntaxError": "Neo.ClientError.Statement.SyntaxError",
    "CypherSemanticError": "Neo.ClientError.Statement.SyntaxError",  # compile-time refusals, as Neo4j files them
    "ParameterMissingError": "Neo.ClientError.Statement.ParameterMissing",
    "ProcedureError": "Neo.ClientError.Procedure.ProcedureNotFound",
    "CypherTypeError": "Neo.ClientError.Statement.TypeError",
    "CypherArgumentError": "Neo.ClientError.Statement.ArgumentError",
    "CypherArithmeticError": "Neo.ClientError.Statement.ArithmeticError",
    "CypherRuntimeError": "Neo.ClientError.Statement.ExecutionFailed",
    "DeletedEntityError": "Neo.ClientError.Statement.EntityNotFound",
    "ConstraintError": "Neo.ClientError.Schema.ConstraintValidationFailed",
    "ReadOnlyError": "Neo.ClientError.Statement.AccessMode",
    "StorageError": UNKNOWN,
    "StorageWriteError": UNKNOWN,  # the disk refused a commit: an operator's matter, not a driver's retry loop
    "LockedStoreError": UNKNOWN,
    "StatementTimeout": "Neo.ClientError.Transaction.TransactionTimedOut",
    "StatementCancelled": "Neo.ClientError.Transaction.Terminated",
    "UsageError": "Neo.ClientError.Request.Invalid",
    "InternalError": UNKNOWN,
    "ProtocolError": "Neo.ClientError.Request.Invalid",
    "AuthenticationError": "Neo.ClientError.Security.Unauthorized",
    "TransactionError": "Neo.ClientError.Statement.AccessMode",
    "TransactionConflictError": "Neo.TransientError.Transaction.LockAcquisitionTimeout",
}

BY_KIND = {
    "CypherSemanticError.IndexAlreadyExists": "Neo.ClientError.Schema.IndexAlreadyExists",
    "CypherSemanticError.EquivalentSchemaRuleAlreadyExists": "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists",
    "CypherSemanticError.ConstraintAlreadyExists": "Neo.ClientError.Schema.ConstraintAlreadyExists",
    "CypherSemanticError.ConstraintWithNameAlreadyExists": "Neo.ClientError.Schema.ConstraintWithNameAlreadyExists",
    "CypherSemanticError.IndexWithNameAlreadyExists": "Neo.ClientError.Schema.IndexWithNameAlreadyExists",
    "CypherSemanticError.IndexNotFound": "Neo.ClientError.Schema.IndexDropFailed",
    "CypherSemanticError.IndexDropFailed": "Neo.ClientError.Schema.IndexDropFailed",
    "CypherSemanticError.ConstraintDropFailed": "Neo.ClientError.Schema.ConstraintDropFailed",
    "CypherSemanticError.ConstraintCreationFailed": "Neo.ClientError.Schema.ConstraintCreationFailed",
    "CypherRuntimeError.ExternalResourceFailed": "Neo.ClientError.Statement.ExternalResourceFailed",
    "CypherRuntimeError.LoadCsvDisabled": "Neo.ClientError.Statement.ExternalResourceFailed",
    "ProtocolError.InvalidFormat": "Neo.ClientError.Request.InvalidFormat",
    "ProtocolError.DatabaseNotFound": "Neo.ClientError.Database.DatabaseNotFound",
}


def code_of(error: BaseException) -> str:
    """The Neo4j code of an error (`UNKNOWN` for anything that is not a RelateError)."""
    if not isinstance(error, RelateError):
        return UNKNOWN
    for cls in type(error).__mro__:
        name = cls.__name__
        code = BY_KIND.get(f"{name}.{error.kind}")
        if code is None and name == "CypherSemanticError" and error.phase == "runtime":
            code = "Neo.ClientError.Statement.SemanticError"
        if code is None:
            code = BY_CLASS.get(name)
        if code is not None:
            return code
    return UNKNOWN


def failure_message(error: BaseException) -> str:
    """What the peer reads: the error's message; an internal failure's detail stays in the log."""
    if isinstance(error, RelateError) and not error.internal:
        return error.message
    return "internal error"
