"""The Neo4j 5 corpus: the TCK's strict runner plus the few steps Neo4j 5 cases need.

Features live in `tests/neo4j5/features/<topic>.feature` (one Feature per construct family).  Every
scenario carries exactly one tag naming its construct (`@qpp`, `@constraint-unique`, ...); the
runner counts verdicts per feature and per construct.

What this adds to `tests/tck/runner.py` (which it reuses: discovery, values, verdicts):

- Error families.  `a <Family> should be raised at <phase>: <detail>` names a Neo4j error family
  (the part after `Neo.ClientError.<Category>.`).  Families that are also TCK types (SyntaxError,
  TypeError, ArgumentError, ...) compare with the error's `tck_type` as the TCK does; Neo4j's
  schema and resource families compare with the error's kind (see `FAMILIES`).  Compile-time
  semantic refusals are SyntaxError in Neo4j as in the TCK.
- Schema counters.  `the side effects should be:` also takes `+constraints`, `-constraints`,
  `+indexes`, `-indexes`, read from the query's `constraints_added` ... counters.
- Errors with side effects.  An error step implies an unchanged graph, unless the scenario then
  states its side effects (a `CALL { } IN TRANSACTIONS` keeps the batches that committed).
- Import files.  `the import file "<name>" contains:` writes a docstring into the scenario's import
  folder; `file:///<name>` in LOAD CSV names it.  The database is opened with
  `connect(":memory:", import_dir=<folder>)` when `connect` takes that argument.
"""
from __future__ import annotations

import inspect
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

import relate
from relate.errors import RelateError

from tests.tck import runner as tck

HERE = Path(__file__).resolve().parent
FEATURES = HERE / "features"

SCHEMA_KEYS = {"+constraints": "constraints_added", "-constraints": "constraints_removed",
               "+indexes": "indexes_added", "-indexes": "indexes_removed"}

# Neo4j error family -> the relate kinds that answer for it (beside a tck_type of the same name).
FAMILIES: dict[str, set[str]] = {
    "EquivalentSchemaRuleAlreadyExists": {"EquivalentSchemaRuleAlreadyExists", "IndexAlreadyExists",
                                          "ConstraintAlreadyExists"},
    "ConstraintAlreadyExists": {"ConstraintAlreadyExists"},
    "IndexAlreadyExists": {"IndexAlreadyExists"},
    "ConstraintWithNameAlreadyExists": {"ConstraintWithNameAlreadyExists", "SchemaNameAlreadyUsed"},
    "IndexWithNameAlreadyExists": {"IndexWithNameAlreadyExists", "SchemaNameAlreadyUsed"},
    "ConstraintCreationFailed": {"ConstraintCreationFailed"},
    "ConstraintDropFailed": {"ConstraintDropFailed", "ConstraintNotFound"},
    "IndexDropFailed": {"IndexDropFailed", "IndexNotFound"},
    "ExternalResourceFailed": {"ExternalResourceFailed", "LoadCsvFailed"},
}
TCK_TYPES = {"SyntaxError", "SemanticError", "TypeError", "ArgumentError", "ArithmeticError",
             "EntityNotFound", "ParameterMissing", "ConstraintValidationFailed", "ProcedureError",
             "RuntimeError", "Error"}

_IMPORT_STEP = re.compile(r'^the import file "([^"/\\]+)" contains:$')
_END = {"text": "\x00end of scenario"}


def family_matches(family: str, err: RelateError) -> bool:
    if family == "Error" or err.tck_type == family:
        return True
    if family in FAMILIES:
        return err.kind in FAMILIES[family]
    return False


class Neo4jRun(tck._Run):
    """One scenario's state, with an import folder and the query's counters kept."""

    def __init__(self, scenario, any_graph) -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix="relate-neo4j5-")
        self.import_dir = Path(self._tmp.name)
        super().__init__(scenario, any_graph)
        if "import_dir" in inspect.signature(relate.connect).parameters:
            self.db = relate.connect(":memory:", import_dir=str(self.import_dir))
        self.stats = None           # the counters of the `executing query` step
        self.pending_unchanged = False
        self.query_text = ""
        self.setup_error = None     # (exception, statement) of a setup step that failed

    def setup(self, text: str) -> None:
        try:
            super().setup(text)
        except tck.SetupFailed as exc:
            self.setup_error = (exc.__cause__, text)
            raise

    def execute(self, text: str, control: bool) -> None:
        super().execute(text, control)
        if not control:
            self.query_text = text
            self.stats = self.result.stats if self.result is not None else None

    def expect_error(self, type_: str, phase: str, detail: str) -> None:
        if self.error is None:
            got = "no error" if self.result is None else f"a result with {len(self.result.rows)} row(s)"
            raise tck.ScenarioFailed(f"expected {type_} at {phase}: {detail}, got {got}")
        err = self.error
        if not isinstance(err, RelateError):
            raise tck.ScenarioFailed(f"expected {type_} at {phase}: {detail}, got {tck._describe_error(err)}")
        if type_ not in TCK_TYPES and type_ not in FAMILIES:
            raise tck.SetupFailed(f"unknown error family {type_!r}")
        a_phase = tck.PHASES.get(err.phase, err.phase)
        ok = (family_matches(type_, err) and (phase == "any time" or a_phase == phase)
              and (detail == "*" or err.tck_detail == "*" or err.tck_detail == detail))
        if not ok:
            raise tck.ScenarioFailed(f"expected {type_} at {phase}: {detail}, "
                                     f"got {err.tck_type} at {a_phase}: {err.kind} ({err})")
        self.pending_unchanged = True   # judged at the end unless side effects are stated

    def expect_side_effects(self, expected: dict[str, int]) -> None:
        self.pending_unchanged = False
        graph = {k: v for k, v in expected.items() if k not in SCHEMA_KEYS}
        super().expect_side_effects(graph)
        stats = self.stats
        got = {k: (getattr(stats, attr) if stats is not None else 0) for k, attr in SCHEMA_KEYS.items()}
        want = {k: expected.get(k, 0) for k in SCHEMA_KEYS}
        if got != want:
            raise tck.ScenarioFailed("schema side effects differ (expected, actual): " + ", ".join(
                f"{k}: {want[k]} vs {got[k]}" for k in SCHEMA_KEYS if want[k] != got[k]))

    def write_import_file(self, name: str, content: str) -> None:
        (self.import_dir / name).write_text(content + ("\n" if content and not content.endswith("\n") else ""),
                                            encoding="utf-8")


def neo4j_step(run: Neo4jRun, step) -> None:
    text = step["text"].strip()
    if step is _END or text == _END["text"]:
        if run.pending_unchanged:
            run.expect_side_effects({})
        return
    if text == "the side effects should be:":
        expected = {}
        for row in tck._table(step):
            if len(row) != 2 or (row[0] not in tck.SIDE_EFFECT_KEYS and row[0] not in SCHEMA_KEYS):
                raise tck.SetupFailed(f"bad side-effect row {row}")
            expected[row[0]] = int(row[1])
        run.expect_side_effects(expected)
        return
    m = _IMPORT_STEP.match(text)
    if m:
        run.write_import_file(m.group(1), tck._doc(step))
        return
    tck._step(run, step)


# --------------------------------------------------------------------------- running


@dataclass
class Outcome:
    verdict: tck.Verdict
    construct: str
    query: str
    why: str            # one line: pass / parse error at ... / wrong result / missing error / ...
    category: str       # pass | parse error | wrong result | missing error | wrong error | unexpected error
    #                     | setup parse error | setup fails | crash | harness error | timeout
    failing_text: str = ""   # the statement that fails: the query, or the setup statement that failed
    vacuous: bool = False    # passed an expected-error step only because relate cannot parse the text
    error_line: str = ""     # for a parse error: the line of the failing statement it points into
    error_text: str = ""     # the relate error message, when a RelateError caused the failure


def construct_of(scenario) -> str:
    tags = [t.lstrip("@") for t in scenario.tags if t != "@ignore"]
    return tags[0] if tags else "(untagged)"


def discover(features: Path = FEATURES):
    scenarios = tck.discover(features)
    for s in scenarios:
        s.steps = list(s.steps) + [_END]
    return scenarios


def query_of(scenario) -> str:
    steps = scenario.steps
    for i, st in enumerate(steps):
        if st.get("text", "").strip() == "executing query:":
            return tck._doc(st)
    return ""


def _classify(verdict: tck.Verdict, run: Neo4jRun | None) -> tuple[str, str]:
    if verdict.passed:
        return "pass", "pass"
    msg = verdict.message
    if verdict.status == "error":
        if msg.startswith("setup query failed: "):
            first = msg[len("setup query failed: "):].splitlines()[0]
            kind = "setup parse error" if "parse error" in first else "setup fails"
            return kind, f"{kind}: {first[:150]}"
        return "harness error", "harness error: " + (msg.strip().splitlines() or [""])[-1][:140]
    if msg.startswith("timed out"):
        return "timeout", msg
    if msg.startswith("the engine crashed"):
        last = [ln for ln in msg.strip().splitlines() if ln.strip()][-1]
        return "crash", "crash: " + last.strip()[:140]
    err = run.error if run is not None else None
    if isinstance(err, RelateError) and msg.startswith(("expected a result", "columns differ",
                                                        "expected an empty")):
        if err.kind == "ParseError":
            return "parse error", "parse error at " + _where(err, run.query_text)
        return "unexpected error", f"unexpected {err.tck_type}/{err.kind}: {str(err)[:120]}"
    if msg.startswith("expected ") and (", got no error" in msg or ", got a result with" in msg):
        return "missing error", "missing error: " + msg.split(",")[0][len("expected "):]
    if msg.startswith("expected ") and " got " in msg and isinstance(err, RelateError):
        if err.kind == "ParseError":
            return "parse error", "parse error at " + _where(err, run.query_text) + " (an error was expected)"
        return "wrong error", f"wrong error: {msg.splitlines()[0][:160]}"
    if msg.startswith(("rows differ", "columns differ", "expected an empty", "side effects differ",
                       "schema side effects differ")):
        return "wrong result", "wrong result: " + msg.splitlines()[0][:140]
    return "wrong result", msg.splitlines()[0][:160]


def _where(err: RelateError, text: str) -> str:
    pos = err.position
    if pos is None:
        return "?"
    snippet = text[pos.offset:pos.offset + 24].split("\n")[0]
    return f"{pos.line}:{pos.column} `{snippet}`"


def run_one(scenario, timeout: float = 30.0) -> Outcome:
    holder: list[Neo4jRun] = []

    def factory(sc, any_graph):
        r = Neo4jRun(sc, any_graph)
        holder.append(r)
        return r
    verdict = tck.run_scenario(scenario, timeout=timeout, run_class=factory, step=neo4j_step)
    run = holder[0] if holder else None
    category, why = _classify(verdict, run)
    query = query_of(scenario)
    failing, err = query, (run.error if run is not None else None)
    if category.startswith("setup") and run is not None and run.setup_error is not None:
        err, failing = run.setup_error
    vacuous = bool(verdict.passed and isinstance(err, RelateError) and err.kind == "ParseError")
    line = ""
    if isinstance(err, RelateError) and err.kind == "ParseError" and err.position is not None:
        lines = failing.splitlines()
        if 0 < err.position.line <= len(lines):
            line = lines[err.position.line - 1].strip()
    text = str(err) if isinstance(err, RelateError) and not verdict.passed else ""
    return Outcome(verdict, construct_of(scenario), query, why, category, failing, vacuous, line, text)
