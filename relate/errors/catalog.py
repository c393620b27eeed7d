"""The error catalog: every kind of error relate raises, declared once.

A kind is declared in the group of its class (`Semantic` for `CypherSemanticError`, ...), under
its own name, with a one-line description (the errors reference shows it) and its message: a
template with named fields when the message has one shape, a function of the fields when the
shape needs code, or nothing when every site words its own detail.  A declaration is called to
make the error:

    raise E.Semantic.VariableAlreadyBound(name=v, position=pos)      # template fields
    raise E.Type.InvalidArgumentType(f"cannot negate {type_name(a)}") # a detail of the site's own

which gives exactly what the class's constructor gives (class, kind, message, phase, position).
A site whose wording differs from a kind's template passes its detail instead of the fields.
The phase is the group's unless the kind declares its own.

tests/unit/test_error_catalog.py (reading the source) and tests/conftest.py (watching every
error a test session makes) fail on an undeclared kind, on a kind made with another class or
phase, and on a declared kind nothing raises; build/errors_ref.py renders the groups as the
errors reference.
"""
from __future__ import annotations

from typing import Any, Callable, ClassVar, Generic, Protocol, TypeVar, get_args

from .tree import (ConstraintError, CypherArgumentError, CypherArithmeticError, CypherRuntimeError,
                   CypherSemanticError, CypherSyntaxError, CypherTypeError, DeletedEntityError,
                   InternalError, LockedStoreError, ParameterMissingError, Position, ProcedureError,
                   ProtocolError, AuthenticationError, ReadOnlyError, RelateError, StatementCancelled,
                   StatementTimeout, StorageError, StorageWriteError, TemporalError, TransactionConflictError,
                   TransactionError, TransferError,
                   UsageError)

ErrorT = TypeVar("ErrorT", bound=RelateError)
ErrorT_co = TypeVar("ErrorT_co", bound=RelateError, covariant=True)
Message = str | Callable[..., str] | None


class Made(Protocol[ErrorT_co]):
    """What a declaration is to a type checker: `E.Type.InvalidArgumentType(...)` is a
    CypherTypeError, because the group `Type` is a `Group[CypherTypeError]`."""

    name: str
    description: str
    phase: str

    def __call__(self, detail: str | None = None, /, *, position: Position | None = None,
                 **fields: object) -> ErrorT_co: ...


class Kind:
    """One declared kind: its name (the attribute it is declared as), class, phase, description
    and message.  Calling it makes the error."""

    __slots__ = ("name", "description", "message", "own_phase", "phase", "error", "keep")

    def __init__(self, description: str, message: Message = None, *, phase: str | None = None,
                 keep: tuple[str, ...] = ()) -> None:
        self.description = description
        self.message = message
        self.own_phase = phase
        self.keep = keep  # fields that also become attributes of the error (StatementTimeout.seconds)
        self.name = ""
        self.phase = phase or "runtime"
        self.error: type[RelateError] = RelateError

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: object, owner: type[Group[ErrorT]]) -> Made[ErrorT]:
        return self  # type: ignore[return-value]  # the group's class is the error's class

    def __call__(self, detail: str | None = None, /, *, position: Position | None = None,
                 **fields: object) -> RelateError:
        if detail is None:
            message = self.message
            if message is None:
                raise TypeError(f"{self.name} has no message of its own: pass the detail")
            detail = message.format_map(fields) if isinstance(message, str) else message(**fields)
        elif fields:
            raise TypeError(f"{self.name}: pass either a detail or the message's fields")
        # the subclasses' constructors differ in signature but only fix the kind, phase or
        # message, which the declaration holds: the base's constructor makes the same error
        error = self.error.__new__(self.error)
        RelateError.__init__(error, self.name, detail, phase=self.phase, position=position)
        for name in self.keep:
            if name in fields:
                setattr(error, name, fields[name])
        return error

    def __repr__(self) -> str:
        return f"<kind {self.error.__name__}.{self.name}>"


class Group(Generic[ErrorT]):
    """The kinds of one error class: `class Type(Group[CypherTypeError])`, optionally with the
    phase its kinds have (`phase="compile"`; runtime otherwise).  Its attributes of type `Kind`
    are the declarations."""

    error: ClassVar[type[RelateError]]
    phase: ClassVar[str]
    kinds: ClassVar[tuple[Kind, ...]]

    def __init_subclass__(cls, *, phase: str = "runtime") -> None:
        (error,) = get_args(cls.__dict__["__orig_bases__"][0])
        cls.error, cls.phase = error, phase
        cls.kinds = tuple(v for v in vars(cls).values() if isinstance(v, Kind))
        for kind in cls.kinds:
            kind.error = error
            kind.phase = kind.own_phase or phase
        GROUPS.append(cls)


GROUPS: list[type[Group[Any]]] = []


class Syntax(Group[CypherSyntaxError], phase="compile"):
    ParseError = Kind("The grammar does not accept the text at this point.")
    NestingTooDeep = Kind("Expressions nested deeper than relate accepts (lists in lists, maps in maps, "
                          "operators on operators); the bound keeps every stage within its stack.")
    UnexpectedSyntax = Kind("`YIELD *` on a procedure call that is part of a larger query.",
                            "YIELD * is only allowed in a standalone procedure call")
    InvalidArgumentPassingMode = Kind(
        "A procedure called inside a query without parentheses, which would pass its arguments "
        "implicitly.",
        "Procedure call inside a query does not support passing arguments implicitly (pass them "
        "explicitly in parentheses)")
    InvalidArgumentType = Kind("Static typing shows an expression can never have the type its place needs.",
                               "Type mismatch: expected {expected} but was {got}")
    InvalidClauseComposition = Kind("Clauses in an order Cypher does not allow (RETURN before the end, "
                                    "a query that ends on a reading clause).")
    UnsupportedClause = Kind("A clause or pattern form this version of relate does not run, a Neo4j command "
                             "with no meaning for one embedded store (databases, users, roles, privileges, "
                             "SHOW DATABASES and the like, USE), or a Neo4j Browser command (`:param`).")
    IntegerOverflow = Kind("An integer literal outside the 64-bit range.",
                           "integer literal is too large: {literal}")
    FloatingPointOverflow = Kind("A float literal too large for a 64-bit float.",
                                 "float literal is too large: {literal}")
    InvalidNumberLiteral = Kind("A malformed number literal.", "invalid number literal {literal}")
    InvalidRelationshipPattern = Kind("A malformed relationship length: `..` without `*`, a negative "
                                      "bound, more than one `..` (`-[:R*1..2..3]->`).")
    InvalidUnicodeLiteral = Kind("A string literal with a broken `\\u` escape.",
                                 "invalid unicode escape in {literal}")
    InvalidUnicodeCharacter = Kind("A typographic dash where `-` was meant (text pasted from a document).",
                                   'unexpected character "{char}"')
    UnknownType = Kind("A type predicate or property type names no Cypher type (`IS :: WHOLE NUMBER`, "
                       "`LIST` without its element type).")
    InvalidTypeUnion = Kind("A closed dynamic union whose member types differ in nullability, or a union "
                            "given NOT NULL as a whole.",
                            "All types in a Closed Dynamic Union must be nullable, or be appended with "
                            "`NOT NULL`")
    RemovedParameterSyntax = Kind("`{name}`, the parameter syntax of old Cypher that Neo4j 5 removed.",
                                  "the {{{name}}} parameter syntax is no longer supported: write ${name}")
    UnknownNormalForm = Kind("normalize() or IS NORMALIZED given a normal form other than NFC, NFD, NFKC "
                             "or NFKD.", "unknown normal form {form} (use NFC, NFD, NFKC or NFKD)")
    RemovedSyntax = Kind("Syntax of an older Neo4j that Neo4j 5 removed (`CREATE INDEX ON :L(p)`, "
                         "`CREATE CONSTRAINT ON ... ASSERT`); the message gives the Neo4j 5 form.")
    InvalidSchemaCommand = Kind("A schema command whose shape Cypher refuses: an index or constraint on no label "
                                "or several, a property of another variable, several properties for a kind that "
                                "takes one, a SHOW filter that names no kind.")
    InvalidConstraintType = Kind("A property type constraint naming a type no property can be required to have "
                                 "(`LIST<INTEGER>` with nullable elements, `MAP`, `ANY`, NOT NULL).")
    InvalidLabelExpression = Kind("A label or type expression Cypher does not accept: colons mixed with "
                                  "`|`, `&`, `!` or `%` (`:A:B|C`), or several colons on a relationship.")
    InvalidFieldTerminator = Kind("LOAD CSV's FIELDTERMINATOR given something other than a one-character "
                                  "string literal.")
    InvalidPathPattern = Kind("A Neo4j 5 path pattern whose shape Neo4j refuses: quantified path patterns "
                              "nested or without a relationship, `*` variable-length relationships beside "
                              "quantifiers, a selective pattern beside others, juxtaposed nodes.")
    InvalidQuantifier = Kind("A path quantifier whose lower bound exceeds its upper bound (`{3,1}`).",
                             "A quantifier's lower bound ({lo}) must not exceed its upper bound ({hi})")
    SafeModeViolation = Kind("`--safe` refuses the statement: a MATCH read with nothing bounding its rows, "
                             "or a new node without a label.")


class Semantic(Group[CypherSemanticError], phase="compile"):
    UndefinedVariable = Kind("An expression reads a variable nothing in scope binds.",
                             "Variable `{name}` not defined")
    VariableAlreadyBound = Kind("A clause binds a name that is already in scope.",
                                "Variable `{name}` already declared")
    VariableTypeConflict = Kind("One variable used as two kinds of thing (a node here, a relationship there).")
    UnknownFunction = Kind("A call names a function relate does not have.", "Unknown function '{name}'")
    InvalidNumberOfArguments = Kind("A function or procedure given more or fewer arguments than it takes.")
    InvalidArgumentType = Kind("A clause given an expression whose type can never fit (a WHERE that is no "
                               "boolean, a DELETE of a plain value, a SKIP that is no integer).",
                               "Type mismatch: expected {expected} but was {got}")
    InvalidArgumentExpression = Kind("`exists()` given something other than a property or a pattern.",
                                     "exists() takes a property or a pattern")
    RemovedPropertyExists = Kind("`exists(n.prop)`, which Neo4j 5 removed; `n.prop IS NOT NULL` asks the same.",
                                 "exists(variable.property) is no longer supported: use "
                                 "`variable.property IS NOT NULL` instead")
    InvalidAggregation = Kind("An aggregate function where aggregation is not allowed.",
                              "{what} is not allowed here")
    NestedAggregation = Kind("An aggregate function inside another one.",
                             "Can't use aggregate functions inside of aggregate functions.")
    NonConstantExpression = Kind("An expression that must be fixed before the statement runs reads a "
                                 "variable or a random function.")
    AmbiguousAggregationExpression = Kind("A projection mixes aggregates with expressions that are not "
                                          "grouping keys.")
    InvalidClauseComposition = Kind("Query parts combined in a way Cypher forbids (UNION mixed with UNION ALL, "
                                    "writes inside an EXISTS or COUNT subquery).")
    DifferentColumnsInUnion = Kind("The queries joined by UNION return different column names.",
                                   "All sub queries in an UNION must have the same return column names")
    LabelExpressionNotAllowed = Kind(
        "A label or type expression where only labels (or one type) can stand: `|`, `!` or `%` in "
        "CREATE, MERGE, SET or REMOVE, `$any(...)` where labels are written.",
        "{what} cannot be used in {clause}: only `:A:B` or `:A&B` (and one relationship type)")
    InlineWhereNotAllowed = Kind(
        "An inline WHERE inside a pattern where none may stand (CREATE, MERGE, a variable-length "
        "relationship).", "an inline WHERE cannot be used {where}")
    InvalidDynamicLabel = Kind("A dynamic label or type `$(expr)` whose expression can never be a string "
                               "or a list of strings.",
                               "a dynamic label must be a string or a list of strings, got {got}")
    InvalidDelete = Kind("DELETE given a label expression; labels are removed with REMOVE.",
                         "DELETE takes nodes, relationships or paths, not label expressions (use REMOVE to "
                         "remove labels)")
    InvalidParameterUse = Kind("A parameter map standing as the properties of a MATCH or MERGE pattern.",
                               "Parameter maps cannot be used in {clause} patterns (use a literal map instead)")
    RelationshipUniquenessViolation = Kind(
        "One relationship variable naming several relationships of a pattern.",
        "Cannot use the same relationship variable '{name}' for multiple relationships")
    NoSingleRelationshipType = Kind("A relationship made by CREATE or MERGE with no type, or more than one.",
                                    "A single relationship type must be specified for {clause}")
    CreatingVarLength = Kind("A variable-length relationship in CREATE or MERGE.",
                             "Variable length relationships cannot be used in {clause}")
    RequiresDirectedRelationship = Kind("A relationship without a direction in CREATE.",
                                        "Only directed relationships are supported in CREATE")
    NoVariablesInScope = Kind("`RETURN *` or `WITH *` with no variable in scope.",
                              "{clause} * is not allowed when there are no variables in scope")
    NoExpressionAlias = Kind("An expression in WITH without an `AS` name.",
                             "Expression in WITH must be aliased (use AS)")
    ColumnNameConflict = Kind("Two result columns with the same name.",
                              "Multiple result columns with the same name `{name}` are not supported")
    NegativeIntegerArgument = Kind("A negative literal for SKIP or LIMIT.",
                                   "{what} expects a non-negative integer, got {value}")
    UnexpectedSyntax = Kind("A pattern expression used as a value rather than as a predicate.",
                            "A pattern expression can only be used as a predicate (use a pattern "
                            "comprehension or EXISTS to get values from it)")
    TraversalDepthExceeded = Kind(
        "A variable-length pattern asks for more hops than the server's `--max-traversal-depth`.",
        "a variable-length pattern asks for {worst} hops; this server allows at most {limit} "
        "(--max-traversal-depth)")
    IndexAlreadyExists = Kind("CREATE INDEX for a label and property that already have an index.",
                              "an index already exists on (:{label} {{{key}}})", phase="runtime")
    IndexNotFound = Kind("DROP INDEX names an index that does not exist.", "no index named {name}",
                         phase="runtime")
    EquivalentSchemaRuleAlreadyExists = Kind(
        "CREATE INDEX or CREATE CONSTRAINT for an index or constraint that exists already, with the same name "
        "and schema (IF NOT EXISTS makes it a no-op).", "an equivalent {what} already exists: {name}", phase="runtime")
    ConstraintAlreadyExists = Kind("CREATE CONSTRAINT where a constraint of that kind (or one it conflicts with) "
                                   "already holds the same schema under another name.", phase="runtime")
    ConstraintWithNameAlreadyExists = Kind("CREATE INDEX or CREATE CONSTRAINT with the name of an existing "
                                           "constraint.", "there already exists a constraint called `{name}`",
                                           phase="runtime")
    IndexWithNameAlreadyExists = Kind("CREATE INDEX or CREATE CONSTRAINT with the name of an existing index.",
                                      "there already exists an index called `{name}`", phase="runtime")
    ConstraintCreationFailed = Kind("CREATE CONSTRAINT over data that already breaks it; nothing is created.",
                                    phase="runtime")
    ConstraintDropFailed = Kind("DROP CONSTRAINT names a constraint that does not exist.",
                                "no constraint named {name}", phase="runtime")
    IndexDropFailed = Kind("DROP INDEX names the index a uniqueness or key constraint owns (drop the constraint).",
                           "index `{name}` belongs to the constraint `{name}`: drop the constraint instead",
                           phase="runtime")
    InvalidSchemaName = Kind("A schema command whose name parameter is not a string.",
                             "the name of an index or constraint is a string, got {type}", phase="runtime")
    CreateNullNode = Kind("CREATE would attach a relationship to a null node.",
                          "cannot create a relationship to a null node", phase="runtime")
    MergeReadOwnWrites = Kind("MERGE given a null property value to match on.",
                              "Cannot merge the following entity using null property value for '{key}'",
                              phase="runtime")
    InvalidImportingWith = Kind("The first WITH of a `CALL { }` without a scope clause reads outer variables "
                                "but is more than a list of them (an alias, an expression, DISTINCT, ORDER BY, "
                                "WHERE, SKIP or LIMIT).")


def _missing(names: list[str]) -> str:
    return "Expected parameter(s): " + ", ".join(names)


class Parameter(Group[ParameterMissingError], phase="compile"):
    ParameterMissing = Kind("The statement reads a parameter the caller did not pass.", _missing)


class Procedure(Group[ProcedureError], phase="compile"):
    ProcedureNotFound = Kind("CALL names a procedure this database does not have.",
                             "There is no procedure with the name `{name}` registered for this "
                             "database instance")


class Type(Group[CypherTypeError]):
    InvalidArgumentType = Kind("A value of the wrong type reaches an operator, clause or function while "
                               "the statement runs.")
    InvalidArgumentValue = Kind("A function meets an argument type it cannot take, which only the running "
                                "statement shows (temporal and conversion functions, mostly).",
                                "{fn}() cannot take a {type} argument")
    InvalidPropertyType = Kind("A value that cannot be stored as a property (a map, a node, a list of "
                               "mixed or nested values).")
    ListElementAccessByNonInteger = Kind("A list indexed by something other than an integer.",
                                         "list index must be an integer, got {type}")
    MapElementAccessByNonString = Kind("A map indexed by something other than a string.",
                                       "map key must be a string, got {type}")
    InvalidDynamicLabel = Kind("A dynamic label or type `$(expr)` whose value is null or not a string or a "
                               "list of strings (or, where a relationship is made, not one type).",
                               "a dynamic {what} must be a string or a list of strings, got {got}")


class Argument(Group[CypherArgumentError]):
    InvalidArgumentValue = Kind("An argument of the right type whose value the function cannot use (a day "
                                "that does not exist, an unknown time zone, a bad regular expression).")
    InvalidArgumentType = Kind("SKIP or LIMIT meets a value that is not an integer while the statement runs.",
                               "{what} expects a non-negative integer, got {type}")
    NegativeIntegerArgument = Kind("A count, position or SKIP/LIMIT value that is negative.")
    NumberOutOfRange = Kind("A number outside the range an argument allows (a percentile outside 0 to 1, "
                            "a `range()` step of 0).")
    FulltextIndexNotFound = Kind("A full-text search asks for a declared index (`index: \"declared\"`, or an option "
                                 "only a declared index takes) on a label and property that have none.",
                                 "FULLTEXT_INDEX_NOT_FOUND: no full-text index is declared on :{label}({property}) "
                                 "({why}); declare one with CALL db.createFulltextIndex('{label}', '{property}')")
    FulltextOptionInvalid = Kind("A full-text search or index option with a value it does not take.",
                                 "FULLTEXT_OPTION_INVALID: {detail}")
    FulltextQueryInvalid = Kind("Full-text query text that its syntax cannot read (an unclosed parenthesis, "
                                "an operator with nothing after it, no words at all).",
                                "FULLTEXT_QUERY_INVALID: {detail}")
    VectorArgumentInvalid = Kind("A vector search given both or neither of vector and queryText, a vector of "
                                 "another length than the label's, or another bad argument.",
                                 "VECTOR_ARGUMENT_INVALID: {detail}")


class Arithmetic(Group[CypherArithmeticError]):
    DivisionByZero = Kind("An integer or a duration divided by zero, or an integer taken modulo zero.")
    IntegerOverflow = Kind("Integer arithmetic leaves the 64-bit range.",
                           "integer arithmetic overflowed the 64-bit range")


class Runtime(Group[CypherRuntimeError]):
    ExpressionMemoryLimit = Kind("A value a statement builds, or a read returns, grows past "
                                 "`--expression-memory-limit`.",
                                 "a result value needs more than {limit} bytes (--expression-memory-limit)")
    ImplicitTransactionRequired = Kind(
        "`CALL { } IN TRANSACTIONS` inside an explicit transaction (a `transaction()` block): its batches "
        "commit on their own, which only an implicit (auto-commit) statement can do.",
        "A query with CALL ... IN TRANSACTIONS can only be executed in an implicit transaction, "
        "but tried to execute in an explicit transaction")
    PipelineTooDeep = Kind("A statement whose chain of clauses runs deeper than the interpreter's stack "
                           "allows (hundreds of dependent clauses); nothing is written.",
                           "the statement chains too many clauses to run in one pipeline; nothing was "
                           "written: split it into several statements")
    ValueTooDeep = Kind("A value nested more than 128 levels deep (lists in lists, maps in maps), built while a "
                        "statement runs or passed as a parameter; the bound keeps the value within every stack "
                        "that frees, compares or prints it, the browser's too.",
                        "a value nests lists and maps more than {limit} levels deep; flatten it")
    ExternalResourceFailed = Kind("LOAD CSV could not read its source: the file is missing or not a regular file, "
                                  "the URL is not a file:/// URL, or its path leaves the import folder.")
    LoadCsvDisabled = Kind("LOAD CSV on a connection without an import folder (`connect(import_dir=...)`, "
                           "`relate --import-dir DIR`, `relate serve --import-dir DIR`), or in the browser.")


class Temporal(Group[TemporalError]):
    InvalidTemporalPrefix = Kind("The time of an AT VALID, AS OF or RECORDED prefix (or of `at_time`) is not an "
                                 "ISO-8601 date or date time.",
                                 "{what} needs an ISO-8601 date or date time (for example '2024-01-01' or "
                                 "'2024-01-01T12:00:00Z'), got {got}")
    AsOfWrite = Kind("A statement under AS OF writes: a read at a past time cannot change the graph.",
                     "AS OF reads the graph at a past time and cannot write; to date a write, start it with "
                     "AT VALID '<ISO-8601>'", phase="compile")
    AtTimeWrite = Kind("A statement run with `at_time` (MCP atTime, --at-time) writes.",
                       "atTime reads the graph at a past time and does not date a write; to record a fact as "
                       "true from a past date, start the write with AT VALID '<ISO-8601>'", phase="compile")
    AtTimeNeedsMatch = Kind("A statement run with `at_time` has no top-level MATCH.",
                            "atTime needs a query with at least one top-level MATCH", phase="compile")
    AtTimeWithTemporalPrefix = Kind("A statement run with `at_time` also starts with AT VALID or AS OF.",
                                    "atTime cannot be combined with an AT VALID or AS OF prefix in the query",
                                    phase="compile")
    MixedValidTimes = Kind("Two statements of one transaction() block write under different AT VALID times.",
                           "the statements of one transaction write at one valid time; this one's AT VALID "
                           "differs from the transaction's: commit first")
    TemporalReadLimit = Kind("A read at a past time would visit more versions of the history than the "
                             "connection allows (`temporal_read_limit`).",
                             "TEMPORAL_READ_LIMIT: this read at a past time would look at more than {limit} "
                             "versions of the graph's history; no rows are returned. Narrow the query or raise "
                             "the limit (temporal_read_limit)")


class Deleted(Group[DeletedEntityError]):
    DeletedEntityAccess = Kind("A statement reads or changes a node or relationship it has already deleted.")


class Constraint(Group[ConstraintError]):
    DeleteConnectedNode = Kind("DELETE of a node that still has relationships (DETACH DELETE removes them "
                               "as well).",
                               "Cannot delete node<{id}>, because it still has relationships. To delete "
                               "this node, you must first delete its relationships.")
    UniquenessConstraintViolation = Kind("A write gives two nodes (or relationships) the same value of a uniqueness "
                                         "or key constraint; the statement is undone.")
    ExistenceConstraintViolation = Kind("A write leaves a node (or relationship) without a property an existence "
                                        "or key constraint requires; the statement is undone.")
    TypeConstraintViolation = Kind("A write gives a property a value of a type its property type constraint does "
                                   "not allow; the statement is undone.")


class ReadOnly(Group[ReadOnlyError]):
    ReadOnly = Kind("A statement that writes, on a database opened read-only.",
                    "the store is open read-only; this statement writes")


class Storage(Group[StorageError]):
    NotFound = Kind("The database path does not exist (opening read-only never creates it).",
                    "database not found: {where}")
    Corrupt = Kind("The store's files are damaged, or they are not a relate store.")
    FormatVersion = Kind("The store was written in a format this relate cannot read.")
    Io = Kind("The operating system refused a read or a write, or the files kept changing under the reader.")
    Exists = Kind("The destination of a copy already exists.", "the destination already exists: {where}")
    ReadOnly = Kind("A write reaches the files of a store opened read-only.",
                    "the store is open read-only: {where}")
    LiveReadOnly = Kind("Live read-only asked of a store that cannot follow a writer, or together with "
                        "writing.")
    Encode = Kind("A value of a type the store cannot hold.", "a {type} value cannot be stored")


class StorageWrite(Group[StorageWriteError]):
    WriteFailed = Kind("A commit the disk refused (no space left, the file size limit, an I/O error). The "
                       "store cut the failed write back; reads go on, and the next write tries again.",
                       "the write failed and nothing was written ({reason}); the next write tries again")


class Locked(Group[LockedStoreError]):
    Locked = Kind("Another process holds the store's writer lease.",
                  "database is locked: another process holds its writer lease{who}: {where}")
    AlreadyOpen = Kind("The store is already open for writing in this process (an earlier `connect()` of "
                       "the same store that is not closed yet): close it, or use that connection.",
                       "database is already open for writing in this process: {where}; use that "
                       "connection, or close it before opening the store again")


class Timeout(Group[StatementTimeout]):
    Timeout = Kind("The statement ran past its time limit; it was stopped and rolled back.",
                   "the statement ran longer than {seconds:g}s and was stopped; the graph is unchanged",
                   keep=("seconds",))


class Cancelled(Group[StatementCancelled]):
    ServerStopping = Kind("The server was told to stop (SIGTERM or SIGINT) while the statement ran or waited for "
                          "the engine; it was stopped and rolled back.",
                          "the server is shutting down; the statement was stopped and the graph is unchanged")
    ClientGone = Kind("The client closed its connection while its statement ran or waited for the engine; it was "
                      "stopped and rolled back.",
                      "the client closed its connection; the statement was stopped and the graph is unchanged")
    Reset = Kind("A Bolt client sent RESET while its statement ran or waited for the engine; it was stopped and "
                 "rolled back.",
                 "the client reset its connection; the statement was stopped and the graph is unchanged")
    Interrupted = Kind("Ctrl-C was pressed in the interactive shell while the statement ran; it was stopped and "
                       "rolled back, and the shell goes on.",
                       "interrupted (Ctrl-C); the statement was stopped and the graph is unchanged")


class Usage(Group[UsageError]):
    Usage = Kind("The command line or a request is malformed, or a Python value cannot cross to or from Cypher "
                 "as it is (a time zone offset past 18 hours, a duration with months as a `timedelta`).")


class Internal(Group[InternalError]):
    Internal = Kind("A bug in relate: a state the engine should never reach.")


class Request(Group[ProtocolError]):
    InvalidFormat = Kind("Bytes a wire protocol cannot decode: a bad chunk, an unknown PackStream marker, a "
                         "length running past the message, text that is not UTF-8.")
    Invalid = Kind("A well-formed message the protocol does not allow here: an unknown message, wrong fields, "
                   "or a message the connection's state does not take.")
    DatabaseNotFound = Kind("A request names a database other than the one the server holds.",
                            "Database does not exist. Database name: '{name}'.")
    TransactionNotFound = Kind("A Query API request names a transaction that is not open: never begun, ended, or "
                               "rolled back after its idle time ran out.",
                               'Transaction with Id: "{id}" was not found. It may have expired and been rolled '
                               'back, or it has already ended.')


class Auth(Group[AuthenticationError]):
    Unauthorized = Kind("A network client gave no credential or a wrong one.",
                        "The client is unauthorized due to authentication failure.")


class Transaction(Group[TransactionError]):
    AccessMode = Kind("A statement that writes, in a transaction begun in read mode.",
                      "Writing in read access mode not allowed. Attempted write to database 'neo4j'")


class Conflict(Group[TransactionConflictError]):
    WriterBusy = Kind("A write while another open transaction holds uncommitted writes: one writer at a time. "
                      "Retry once that transaction has ended.",
                      "another transaction holds uncommitted writes; one writer at a time: retry once it has "
                      "committed or rolled back")


class Transfer(Group[TransferError]):
    UnsupportedValue = Kind("`relate export` meets a property value its format cannot carry (a mixed list, an empty "
                            "list or a lone surrogate in CSV, a byte array in a Cypher script, a key that clashes "
                            "with the id property); the message names the entity and the key.")
    BadHeader = Kind("`relate import` meets a CSV header it cannot read: an unknown column type, a second :ID "
                     "column, a node file without labels or a relationship file without :START_ID, :END_ID or "
                     "a type; the message names the file and line.")
    BadRow = Kind("`relate import` meets a CSV row it cannot take: a value that does not parse as its column's "
                  "type, a wrong number of fields, a duplicate node id, a relationship naming a node no file "
                  "holds; the message names the file and line.")
    TargetNotEmpty = Kind("`relate import` into a store that already holds nodes, relationships or schema: it "
                          "only builds new stores.", "the store already holds data; import builds a new store "
                          "only: {where}")


def kinds() -> tuple[Kind, ...]:
    """Every declared kind, group by group in the order of the tree."""
    return tuple(k for g in GROUPS for k in g.kinds)


def group_of(error: type[RelateError]) -> type[Group[Any]] | None:
    return next((g for g in GROUPS if g.error is error), None)


def declared(error: type[RelateError], kind: str) -> Kind | None:
    """The declaration of `kind` for errors of class `error`, None when there is none."""
    group = group_of(error)
    found = vars(group).get(kind) if group is not None else None
    return found if isinstance(found, Kind) else None
