"""TCK feature files -> scenarios -> verdicts, judged strictly (see ../shared/tck/CONFORMANCE.md).

Discovery: every `*.feature` under a features directory (or the files a list file names) is parsed
with `gherkin-official`; its pickle compiler prepends Background steps and expands Scenario
Outlines (placeholders in step text, docstrings and table cells).  `@ignore` scenarios are dropped.

Each scenario runs against a fresh `:memory:` database.  A verdict is `pass`, `fail` (the engine
answered differently from the expectation) or `error` (a setup step failed or the engine crashed
with something that is not a `RelateError`).  Judging is strict: result columns by name and order,
rows as a multiset (or a list), values by the TCK's typed equality, side effects from a before/after
snapshot of the graph, errors by type, phase and detail code.
"""
from __future__ import annotations

import re
import signal
import threading
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from gherkin.parser import Parser
from gherkin.pickles.compiler import Compiler
from gherkin.stream.id_generator import IdGenerator

import relate
from relate.errors import RelateError

from .values import ValueSyntaxError, canon, parse_value, show

REPO = Path(__file__).resolve().parents[2]
DEFAULT_FEATURES = REPO.parent / "shared" / "tck" / "features"
SCENARIO_TIMEOUT = 30.0  # seconds; a scenario that runs longer fails instead of hanging the run

PHASES = {"compile": "compile time", "runtime": "runtime"}
SIDE_EFFECT_KEYS = ("+nodes", "-nodes", "+relationships", "-relationships", "+labels", "-labels",
                    "+properties", "-properties")


# --------------------------------------------------------------------------- discovery

@dataclass
class Scenario:
    id: str            # "<relpath>:<scenario line>" plus "#<example row, 1-based>" for outlines
    area: str          # the feature file's folder, e.g. "clauses/match"
    feature: str       # relpath of the feature file
    name: str
    tags: tuple[str, ...]
    steps: list = field(repr=False)
    graphs_dir: Path | None = field(default=None, repr=False)


def _ast_index(doc: dict) -> dict[str, tuple[int, int | None]]:
    """AST node id -> (scenario line, example row number) for scenarios and example rows."""
    out: dict[str, tuple[int, int | None]] = {}
    for child in doc["feature"].get("children", []):
        sc = child.get("scenario")
        if sc is None:
            continue
        out[sc["id"]] = (sc["location"]["line"], None)
        n = 0
        for ex in sc.get("examples", []):
            for row in ex.get("tableBody", []):
                n += 1
                out[row["id"]] = (sc["location"]["line"], n)
    return out


def load_feature(path: Path, root: Path) -> list[Scenario]:
    rel = path.resolve().relative_to(root.resolve()).as_posix() if path.resolve().is_relative_to(
        root.resolve()) else path.name
    doc = Parser().parse(path.read_text(encoding="utf-8"))
    doc["uri"] = rel
    index = _ast_index(doc)
    pickles = Compiler(IdGenerator()).compile(doc)
    area = rel.rsplit("/", 1)[0] if "/" in rel else ""
    graphs = root.resolve().parent / "graphs"
    out = []
    for p in pickles:
        tags = tuple(t["name"] for t in p.get("tags", []))
        if "@ignore" in tags:
            continue
        line, row = None, None
        for nid in p["astNodeIds"]:
            if nid in index:
                line, r = index[nid]
                row = r if r is not None else row
        sid = f"{rel}:{line}" + (f"#{row}" if row is not None else "")
        out.append(Scenario(sid, area, rel, p["name"], tags, p["steps"], graphs))
    return out


def discover(features: Path, list_file: Path | None = None, areas=(), exclude_areas=()) -> list[Scenario]:
    """Scenarios of a features directory (or of the files `list_file` names), filtered by area
    prefix (`clauses/match`, `clauses`, `expressions/temporal`, ...)."""
    features = Path(features)
    if list_file is not None:
        files = []
        for line in Path(list_file).read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            p = Path(line)
            files.append(p if p.is_absolute() else features / p)
    else:
        files = sorted(features.rglob("*.feature"))
    out: list[Scenario] = []
    for f in files:
        out.extend(load_feature(f, features))

    def under(area: str, prefix: str) -> bool:
        prefix = prefix.strip("/")
        return area == prefix or area.startswith(prefix + "/")
    if areas:
        out = [s for s in out if any(under(s.area, a) for a in areas)]
    if exclude_areas:
        out = [s for s in out if not any(under(s.area, a) for a in exclude_areas)]
    return out


# --------------------------------------------------------------------------- verdicts

class ScenarioFailed(Exception):
    """The engine's answer differs from the expectation."""


class SetupFailed(Exception):
    """A Given/setup step could not be carried out."""


@dataclass
class Verdict:
    scenario: Scenario
    status: str   # "pass" | "fail" | "error"
    message: str = ""
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        return self.status == "pass"


def _table(step) -> list[list[str]]:
    arg = step.get("argument") or {}
    rows = arg.get("dataTable", {}).get("rows", [])
    return [[c["value"] for c in r["cells"]] for r in rows]


def _doc(step) -> str:
    return (step.get("argument") or {}).get("docString", {}).get("content", "")


def _snapshot(db) -> tuple:
    """Observable graph state: node ids, relationship ids, label names, property triples."""
    g = db.graph
    nodes = set(g.nodes)
    rels = set(g.rels)
    labels = {lb for n in g.nodes.values() for lb in n.labels}
    props = Counter()
    for n in g.nodes.values():
        for k, v in n.props.items():
            props[("n", n.id, k, canon(v))] += 1
    for r in g.rels.values():
        for k, v in r.props.items():
            props[("r", r.id, k, canon(v))] += 1
    return nodes, rels, labels, props


def _diff(before: tuple, after: tuple) -> dict[str, int]:
    (n0, r0, l0, p0), (n1, r1, l1, p1) = before, after
    return {
        "+nodes": len(n1 - n0), "-nodes": len(n0 - n1),
        "+relationships": len(r1 - r0), "-relationships": len(r0 - r1),
        "+labels": len(l1 - l0), "-labels": len(l0 - l1),
        "+properties": sum((p1 - p0).values()), "-properties": sum((p0 - p1).values()),
    }


_ERROR_STEP = re.compile(r"^an? (.+) should be raised at (.+): (.+)$")
_PROC_STEP = re.compile(r"^there exists a procedure (.+?)\s*:$")
_GRAPH_STEP = re.compile(r"^the (.+) graph$")


def _split_statements(text: str) -> list[str]:
    return [s.strip() for s in text.split(";") if s.strip()]


class _Run:
    """The state of one scenario while its steps run."""

    def __init__(self, scenario: Scenario, any_graph: str | None) -> None:
        self.scenario = scenario
        self.any_graph = any_graph
        self.db = relate.connect(":memory:")
        self.params: dict = {}
        self.result = None          # a relate Result, or None
        self.error: BaseException | None = None
        self.before: tuple | None = None
        self.ran_query = False

    # -- Given
    def load_graph(self, name: str) -> None:
        graphs = self.scenario.graphs_dir
        path = graphs / name / f"{name}.cypher" if graphs else None
        if path is None or not path.exists():
            raise SetupFailed(f"named graph {name!r} not found")
        for stmt in _split_statements(path.read_text(encoding="utf-8")):
            self.setup(stmt)

    def setup(self, text: str) -> None:
        try:
            self.db.execute(text)
        except Exception as exc:  # a setup failure is a harness error, not a verdict on the query
            raise SetupFailed(f"setup query failed: {type(exc).__name__}: {exc}\n{text}") from exc

    def parameters(self, table) -> None:
        for row in table:
            if len(row) != 2:
                raise SetupFailed(f"parameter row must have two cells: {row}")
            try:
                self.params[row[0]] = parse_value(row[1])
            except ValueSyntaxError as exc:
                raise SetupFailed(f"bad parameter value: {exc}") from exc

    def procedure(self, signature: str, table) -> None:
        from relate.procedures import fixture_procedure
        header = table[0] if table and any(c for c in table[0]) else []
        rows = [[parse_value(c) for c in r] for r in table[1:]] if header else []
        self.db.register_procedure(fixture_procedure(signature, header, rows))

    # -- When
    def execute(self, text: str, control: bool) -> None:
        if not control:
            self.before = _snapshot(self.db)
            self.ran_query = True
        self.result, self.error = None, None
        try:
            # the engine's door: rows of Cypher values, as the scenarios state them
            self.result = self.db.run(self.db.prepare(text), dict(self.params))
        except RelateError as exc:
            self.error = exc
        except (RecursionError, MemoryError) as exc:
            self.error = exc
        except _Timeout:
            raise
        except Exception as exc:
            raise ScenarioFailed("the engine crashed: " + "".join(
                traceback.format_exception(type(exc), exc, exc.__traceback__)[-6:])) from exc

    # -- Then
    def _need_result(self):
        if self.error is not None:
            raise ScenarioFailed(f"expected a result, got an error: {_describe_error(self.error)}")
        if self.result is None:
            raise SetupFailed("no query was executed before a result step")
        return self.result

    def expect_rows(self, table, ordered: bool, unordered_lists: bool) -> None:
        res = self._need_result()
        header, body = (table[0], table[1:]) if table else ([], [])
        columns = list(res.columns)
        if columns != header:
            raise ScenarioFailed(f"columns differ: expected {header}, got {columns}")
        try:
            expected = [tuple(parse_value(c) for c in row) for row in body]
        except ValueSyntaxError as exc:
            raise SetupFailed(f"cannot parse an expected value: {exc}") from exc
        actual = [tuple(row) for row in res.rows]
        exp_c = [tuple(canon(v, unordered_lists) for v in r) for r in expected]
        act_c = [tuple(canon(v, unordered_lists) for v in r) for r in actual]
        same = exp_c == act_c if ordered else Counter(exp_c) == Counter(act_c)
        if not same:
            raise ScenarioFailed(
                ("rows differ (in order)" if ordered else "rows differ (any order)")
                + f"\nexpected {len(expected)}:\n" + _rows_text(expected)
                + f"\nactual {len(actual)}:\n" + _rows_text(actual))

    def expect_empty(self) -> None:
        res = self._need_result()
        if list(res.columns) or res.rows:
            raise ScenarioFailed(f"expected an empty result, got columns {list(res.columns)} "
                                 f"and {len(res.rows)} row(s):\n" + _rows_text(res.rows))

    def expect_error(self, type_: str, phase: str, detail: str) -> None:
        if self.error is None:
            got = "no error" if self.result is None else f"a result with {len(self.result.rows)} row(s)"
            raise ScenarioFailed(f"expected {type_} at {phase}: {detail}, got {got}")
        err = self.error
        if not isinstance(err, RelateError):
            raise ScenarioFailed(f"expected {type_} at {phase}: {detail}, got {_describe_error(err)}")
        a_type, a_phase, a_detail = err.tck_type, PHASES.get(err.phase, err.phase), err.tck_detail
        ok = ((type_ == "Error" or a_type == "Error" or a_type == type_)
              and (phase == "any time" or a_phase == phase)
              and (detail == "*" or a_detail == "*" or a_detail == detail))
        if not ok:
            raise ScenarioFailed(f"expected {type_} at {phase}: {detail}, "
                                 f"got {a_type} at {a_phase}: {a_detail} ({err})")
        # an error step implies that the graph is unchanged
        self.expect_side_effects({})

    def expect_side_effects(self, expected: dict[str, int]) -> None:
        if self.before is None:
            raise SetupFailed("side effects checked before the query ran")
        got = _diff(self.before, _snapshot(self.db))
        want = {k: expected.get(k, 0) for k in SIDE_EFFECT_KEYS}
        if got != want:
            diff = {k: (want[k], got[k]) for k in SIDE_EFFECT_KEYS if want[k] != got[k]}
            raise ScenarioFailed("side effects differ (expected, actual): " + ", ".join(
                f"{k}: {a} vs {b}" for k, (a, b) in diff.items()))


def _describe_error(err: BaseException) -> str:
    if isinstance(err, RelateError):
        return f"{err.tck_type} at {PHASES.get(err.phase, err.phase)}: {err.kind} ({err})"
    return f"{type(err).__name__}: {err}"


def _rows_text(rows) -> str:
    return "\n".join("  | " + " | ".join(show(v) for v in r) + " |" for r in rows) or "  (none)"


def _step(run: _Run, step) -> None:
    text = step["text"].strip()
    if text == "an empty graph":
        return
    if text == "any graph":
        if run.any_graph:
            run.load_graph(run.any_graph)
        return
    if text == "having executed:":
        run.setup(_doc(step))
        return
    if text == "parameters are:":
        run.parameters(_table(step))
        return
    if text == "executing query:":
        run.execute(_doc(step), control=False)
        return
    if text == "executing control query:":
        run.execute(_doc(step), control=True)
        return
    if text == "the result should be, in any order:":
        run.expect_rows(_table(step), ordered=False, unordered_lists=False)
        return
    if text == "the result should be, in order:":
        run.expect_rows(_table(step), ordered=True, unordered_lists=False)
        return
    if text == "the result should be (ignoring element order for lists):":
        run.expect_rows(_table(step), ordered=False, unordered_lists=True)
        return
    if text == "the result should be, in order (ignoring element order for lists):":
        run.expect_rows(_table(step), ordered=True, unordered_lists=True)
        return
    if text == "the result should be empty":
        run.expect_empty()
        return
    if text == "no side effects":
        run.expect_side_effects({})
        return
    if text == "the side effects should be:":
        expected = {}
        for row in _table(step):
            if len(row) != 2 or row[0] not in SIDE_EFFECT_KEYS:
                raise SetupFailed(f"bad side-effect row {row}")
            expected[row[0]] = int(row[1])
        run.expect_side_effects(expected)
        return
    m = _ERROR_STEP.match(text)
    if m:
        run.expect_error(*m.groups())
        return
    m = _PROC_STEP.match(text)
    if m:
        run.procedure(m.group(1), _table(step))
        return
    m = _GRAPH_STEP.match(text)
    if m:
        run.load_graph(m.group(1))
        return
    raise SetupFailed(f"unknown step: {text!r}")


class _Timeout(BaseException):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def run_scenario(scenario: Scenario, *, any_graph: str | None = None,
                 timeout: float | None = SCENARIO_TIMEOUT, run_class=None, step=None) -> Verdict:
    """Run every step of one scenario against a fresh database and judge it.  `run_class` and
    `step` let another corpus (tests/neo4j5) extend the state and the steps; the TCK uses
    `_Run` and `_step`."""
    run_class = run_class or _Run
    step = step or _step
    t0 = time.perf_counter()
    use_alarm = bool(timeout) and hasattr(signal, "setitimer") and \
        threading.current_thread() is threading.main_thread()
    old = None
    if use_alarm:
        old = signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        run = run_class(scenario, any_graph)
        for one in scenario.steps:
            step(run, one)
        if not run.ran_query:
            raise SetupFailed("the scenario has no `executing query` step")
        verdict = Verdict(scenario, "pass")
    except ScenarioFailed as exc:
        verdict = Verdict(scenario, "fail", str(exc))
    except SetupFailed as exc:
        verdict = Verdict(scenario, "error", str(exc))
    except _Timeout:
        verdict = Verdict(scenario, "fail", f"timed out after {timeout} s")
    except Exception as exc:
        verdict = Verdict(scenario, "error", "".join(
            traceback.format_exception(type(exc), exc, exc.__traceback__)[-6:]))
    finally:
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
    verdict.seconds = time.perf_counter() - t0
    return verdict


# --------------------------------------------------------------------------- manifest

def read_manifest(path: Path) -> dict[str, str]:
    """Expected failures: one `<scenario id> <reason>` per line; `#` starts a comment line."""
    out: dict[str, str] = {}
    if not Path(path).exists():
        return out
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        sid, _, reason = line.partition(" ")
        out[sid] = reason.strip()
    return out
