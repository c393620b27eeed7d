"""Every access-path rule switched off gives the same answers as the rules on.

The TCK scenarios (driven by `tests/tck/runner.py`; each read-only statement twice, since the
second read of a label may come from its columns) and the benchmark's queries (on the bench
generator's tiny graph, loaded as `bench/engines/relate_engine.py` loads it) run with the planner's
rules on and then with rules off (`RELATE_PLANNER_RULES_OFF`: all of them, then each alone).  Every
statement must give the same columns, the same rows (as a multiset; in order when the statement
has an ORDER BY), the same counters, or the same error.  Without the rules the plan is the
generic one (first node as anchor, label scans, inline maps checked node by node, every WHERE
conjunct a filter after the match, aggregations counting rows), so a rule that changes an answer
fails here.
"""
from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

import relate
from relate.errors import RelateError
from relate.plan import rules

from tests.tck import runner
from tests.tck.values import canon

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

from engines import relate_engine  # noqa: E402
from graphgen import generate  # noqa: E402
from queries import CYPHER, READ_QUERIES  # noqa: E402

SWITCHES = ("all",) + tuple(r.name for r in rules.RULES)
SCENARIOS = runner.discover(runner.DEFAULT_FEATURES) if runner.DEFAULT_FEATURES.is_dir() else []


def _outcome(text: str, result, error):
    """What a user sees of one statement, in a form that compares across plans."""
    if error is not None:
        if isinstance(error, RelateError):
            return ("error", type(error).__name__, error.kind, str(error))
        return ("error", type(error).__name__, str(error))
    rows = [tuple(canon(v) for v in r) for r in result.rows]
    ordered = "ORDER BY" in " ".join(text.upper().split())
    return ("rows", tuple(result.columns), rows if ordered else Counter(rows), result.stats)


class _Recording(runner._Run):
    """A scenario run that keeps the outcome of every statement it executes."""

    def __init__(self, scenario) -> None:
        super().__init__(scenario, None)
        self.seen: list = []

    def execute(self, text: str, control: bool) -> None:
        super().execute(text, control)
        self.seen.append((text, _outcome(text, self.result, self.error)))
        if self.result is not None and self.result.query_type == "r":
            # once more: a label read twice without a write between is read from its columns
            try:
                again = _outcome(text, self.db.execute(text, dict(self.params)), None)
            except RelateError as exc:
                again = _outcome(text, None, exc)
            self.seen.append((text, again))


def _scenario_outcomes(scenario) -> tuple[str, list]:
    run = _Recording(scenario)
    verdict = "pass"
    try:
        for step in scenario.steps:
            runner._step(run, step)
    except (runner.ScenarioFailed, runner.SetupFailed) as exc:
        verdict = f"{type(exc).__name__}: {exc}"
    return verdict, run.seen


def _tck(monkeypatch, off: str | None) -> dict:
    if off is None:
        monkeypatch.delenv(rules.ENVIRONMENT_VARIABLE, raising=False)
    else:
        monkeypatch.setenv(rules.ENVIRONMENT_VARIABLE, off)
    return {s.id: _scenario_outcomes(s) for s in SCENARIOS}


@pytest.fixture(scope="module")
def tck_with_rules():
    with pytest.MonkeyPatch.context() as mp:
        return _tck(mp, None)


def _first_difference(a: list, b: list) -> str:
    for (text, x), (_, y) in zip(a, b):
        if x != y:
            return f"{text}\n  rules on:  {x}\n  rules off: {y}"
    return f"{len(a)} statements with the rules on, {len(b)} with them off"


@pytest.mark.skipif(not SCENARIOS, reason="../shared/tck/features is not beside this checkout")
@pytest.mark.parametrize("off", SWITCHES)
def test_tck_answers_do_not_depend_on_the_rules(tck_with_rules, monkeypatch, off):
    without = _tck(monkeypatch, off)
    differ = [sid for sid in tck_with_rules if tck_with_rules[sid] != without[sid]]
    assert not differ, (f"{len(differ)} scenario(s) differ with {off} off, first {differ[0]}:\n"
                        + _first_difference(tck_with_rules[differ[0]][1], without[differ[0]][1])
                        + f"\nverdicts: {tck_with_rules[differ[0]][0]} / {without[differ[0]][0]}")
    assert all(verdict == "pass" for verdict, _ in without.values())


# ---------------------------------------------------------------- the benchmark's queries

@pytest.fixture(scope="module")
def tiny():
    return generate("T")


def _bench_answers(monkeypatch, off: str | None, g) -> dict:
    if off is None:
        monkeypatch.delenv(rules.ENVIRONMENT_VARIABLE, raising=False)
    else:
        monkeypatch.setenv(rules.ENVIRONMENT_VARIABLE, off)
    engine = relate_engine.Engine()
    engine.load(g)
    out = {}
    for name in READ_QUERIES:
        for i, params in enumerate(g.params[name]):
            for round_ in range(2):  # the second read of a label may use its columns
                out[(name, i, round_)] = _outcome(CYPHER[name], _Rows(engine.query(name, params)), None)
    ids = sorted(p[0] for p in g.persons)
    for lo, hi in ((ids[0], ids[len(ids) // 2]), (ids[3], ids[3]), (ids[-5], ids[-1] + 1)):
        out[("count_range", lo, hi)] = engine.count_range(lo, hi)
    engine.close()
    return out


class _Rows:
    """Just the rows of a bench answer (the engine returns rows only)."""

    def __init__(self, rows) -> None:
        self.rows = rows
        self.columns = ()
        self.stats = None


@pytest.fixture(scope="module")
def bench_with_rules(tiny):
    with pytest.MonkeyPatch.context() as mp:
        return _bench_answers(mp, None, tiny)


@pytest.mark.parametrize("off", SWITCHES)
def test_bench_answers_do_not_depend_on_the_rules(bench_with_rules, tiny, monkeypatch, off):
    without = _bench_answers(monkeypatch, off, tiny)
    assert without.keys() == bench_with_rules.keys()
    for key, answer in bench_with_rules.items():
        assert without[key] == answer, key


# ---------------------------------------------------------------- the shapes the rules look for

_VALUES = [0, 1, 2, 1.0, 0.5, float("nan"), True, False, "", "a", "b", [1], None]
_SHAPES_GRAPH = """UNWIND range(0, size($vs) - 1) AS i
CREATE (a:V {i: i, v: $vs[i], w: i % 3})-[:T]->(b:W:V {i: 100 + i, v: $vs[(i + 1) % size($vs)]})"""


def _shape_statements() -> list[tuple[str, dict]]:
    out = []
    for op in ("=", "<>", "<", "<=", ">", ">="):
        for c in (1, 1.0, "a", True, None, [1]):
            p = {"c": c}
            out += [(f"MATCH (n:V) WHERE n.v {op} $c RETURN n.i", p),
                    (f"MATCH (n:V) WHERE $c {op} n.v AND n.w = 1 RETURN n.i", p),
                    (f"MATCH (n) WHERE n.v {op} $c RETURN n.i, n.v IS NULL", p),
                    (f"MATCH (a:V)-[:T]->(b:W) WHERE b.v {op} $c AND a.w <> 2 RETURN a.i, b.i", p),
                    (f"MATCH (n:V) WHERE n.v {op} $c RETURN n.w, count(*)", p)]
    for c in (0, 1, 1.0, "a", True, None, [1]):
        p = {"c": c}
        out += [("MATCH (n:V {v: $c}) RETURN n.i", p),
                ("MATCH (n:V:W {v: $c, w: 1}) RETURN n.i", p),
                ("MATCH (a:V)-[:T]->(b:V {v: $c}) RETURN a.i, b.i", p),
                ("MATCH (x:V {i: 1}) MATCH (x)-[:T]->(n:V) WHERE n.v = $c RETURN n.i", p),
                ("MATCH (x:V {i: 2}), (n:V) WHERE n.v = x.v AND n.i <> x.i RETURN n.i", p),
                ("OPTIONAL MATCH (n:W) WHERE n.v = $c RETURN n.i", p),
                # counted walks: trails and distinct ends, with a test on the end
                ("MATCH (a:V)-[:T*0..2]-(b) WHERE b.v <> $c RETURN count(b)", p),
                ("MATCH (a:V)-[:T]->(:W)<-[:T]-(b:V) WHERE b.v = $c RETURN count(DISTINCT b)", p)]
    out += [("MATCH (n:V) WHERE n.v IS NULL RETURN n.i", {}),
            ("MATCH (n:V) WHERE n.v IS NOT NULL AND n.w >= 1 RETURN n.i", {}),
            ("MATCH (n:V) RETURN n.v, n.w, count(*), count(*) AS again", {}),
            ("MATCH (n:W) RETURN count(*)", {}),
            ("MATCH (a:V)-[:T]->(b:W) RETURN a.w, count(*)", {}),
            ("MATCH p = (a:V) RETURN a.w, count(*)", {}),
            ("MATCH (a:V) WITH a MATCH (a) RETURN a.w, count(*)", {}),
            ("MATCH (a:V) WHERE a.v = 1 OR a.w = 2 RETURN a.w, count(*)", {}),
            ("MATCH (n:V {w: 0}) RETURN n.v, count(*)", {}),
            ("MATCH (n:V) WHERE n.w = 2 RETURN n.v, count(*) ORDER BY count(*) DESC", {}),
            ("MATCH p = shortestPath((a:V {i: 0})-[:T*]->(b:W)) RETURN length(p), b.i", {}),
            ("MATCH (a:V) WHERE (a)-[:T]->(:W {v: 'a'}) RETURN a.i", {}),
            ("MATCH (a:V) RETURN a.i, [(a)-[:T]->(b {w: 0}) | b.i] AS bs", {}),
            ("MATCH (a:V) WHERE EXISTS { MATCH (a)-[:T]->(b:W) WHERE b.v = 1 } RETURN a.i", {}),
            ("MERGE (n:V {v: 'a'}) RETURN n.i", {}),
            ("MATCH (n:W|V) RETURN n.i", {}),
            ("MATCH (n:(Nope|W)|W) WHERE n.w = 1 RETURN n.i", {}),
            ("MATCH (a:W|Nope)<-[:T]-(b) RETURN a.i, b.i", {}),
            ("MATCH (n:V|W {w: 2}) RETURN n.w, count(*)", {}),
            ("MATCH (a:V)-[:T*1..2]->(b:W) RETURN a.w, count(*)", {}),
            ("MATCH (a:V {i: 1})-[:T]-()-[:T]-(b) RETURN count(DISTINCT b)", {})]
    # what a range index answers besides equality: bounds on both sides, chains, IN, STARTS WITH
    for lo, hi in ((0, 2), (0.5, 1), ("", "b"), ("a", 1), (False, True), (None, 2), (float("nan"), 2), ([0], [2])):
        p = {"lo": lo, "hi": hi}
        out += [("MATCH (n:V) WHERE n.v > $lo AND n.v <= $hi RETURN n.i", p),
                ("MATCH (n:V) WHERE $lo <= n.v < $hi RETURN n.i", p),
                ("MATCH (n:V) WHERE n.v >= $lo AND $hi > n.v AND n.w <> 1 RETURN n.i", p),
                ("MATCH (n:V) WHERE $lo < n.v > $hi RETURN n.i", p),
                ("MATCH (a:V)-[:T]->(b:W) WHERE b.v < $hi AND b.v >= $lo RETURN a.i, b.i", p),
                ("MATCH (n:V) WHERE n.v IN [$lo, $hi, 1] RETURN n.i", p),
                ("MATCH (n:V) WHERE n.v IN $lo RETURN n.i", p),
                ("MATCH (n:V) WHERE n.v STARTS WITH $lo RETURN n.i", p),
                ("MATCH (n:V) WHERE n.v > $lo RETURN n.w, count(*)", p)]
    out += [("MATCH (n:V) WHERE n.v IN [] RETURN n.i", {}),
            ("MATCH (n:V) WHERE n.v IN [1, 1.0, [1], null] RETURN n.i", {}),
            ("MATCH (n:V) WHERE n.v STARTS WITH '' RETURN n.i", {})]
    return out


def _shape_answers(monkeypatch, off: str | None, indexed: bool) -> list:
    if off is None:
        monkeypatch.delenv(rules.ENVIRONMENT_VARIABLE, raising=False)
    else:
        monkeypatch.setenv(rules.ENVIRONMENT_VARIABLE, off)
    db = relate.connect()
    if indexed:
        db.execute("CREATE INDEX v_v FOR (n:V) ON (n.v)")
        db.execute("CREATE INDEX w_v FOR (n:W) ON (n.v)")
    db.execute(_SHAPES_GRAPH, {"vs": _VALUES})
    out = []
    for text, params in _shape_statements():
        for _ in range(2):  # the second read of a label may come from its columns
            try:
                out.append(_outcome(text, db.execute(text, params), None))
            except RelateError as exc:
                out.append(_outcome(text, None, exc))
    return out


@pytest.mark.parametrize("indexed", (False, True), ids=("no index", "indexed"))
@pytest.mark.parametrize("off", SWITCHES)
def test_the_shapes_the_rules_look_for_answer_alike(monkeypatch, off, indexed):
    on = _shape_answers(monkeypatch, None, indexed)
    without = _shape_answers(monkeypatch, off, indexed)
    texts = [t for t, _ in _shape_statements() for _ in range(2)]
    for text, a, b in zip(texts, on, without):
        assert a == b, text


# ---------------------------------------------------------------- the switch takes effect

def _plan_text(db, statement: str) -> list[str]:
    plan = db.execute("EXPLAIN " + statement).plan
    out = []
    stack = [plan]
    while stack:
        p = stack.pop()
        out.append(f"{p.operator} {p.details}")
        stack.extend(p.children)
    return out


def test_rules_off_gives_the_generic_plan(monkeypatch):
    statements = ["MATCH (p:Person {id: 1}) RETURN p",
                  "MATCH (p:Person) WHERE p.age > 30 AND p.city = 'Oslo' RETURN p",
                  "MATCH (p:Person) RETURN p.city, count(*)",
                  "MATCH (a)-[:KNOWS]->(b:Person {id: 1}) RETURN a"]

    def plans():
        db = relate.connect()
        db.execute("CREATE INDEX person_id FOR (p:Person) ON (p.id)")
        return [_plan_text(db, s) for s in statements]
    monkeypatch.delenv(rules.ENVIRONMENT_VARIABLE, raising=False)
    on = plans()
    monkeypatch.setenv(rules.ENVIRONMENT_VARIABLE, "all")
    off = plans()
    assert on[0][1] == "NodeIndexSeek (p:Person), index seek person_id :Person(id) WHERE p.id = 1"
    assert off[0][1] == "NodeByLabelScan (p:Person)"
    assert on[1][1] == ("NodeByLabelScan (p:Person), pushed filter p.age > 30 AND p.city = \"Oslo\", "
                        "column read :Person(city)")
    assert off[1][1] == "NodeByLabelScan (p:Person)"
    assert on[2][1] == "Aggregation p.city, count(*), column read :Person(city)"
    assert off[2][1] == "Aggregation p.city, count(*)"
    assert on[3][1] == "Expand (b:Person)<-[:KNOWS]-(a), index seek person_id :Person(id) WHERE b.id = 1"
    assert off[3][1] == "Expand (a)-[:KNOWS]->(b:Person)"


def test_an_unknown_rule_name_is_refused(monkeypatch):
    monkeypatch.setenv(rules.ENVIRONMENT_VARIABLE, "anchor,no_such_rule")
    with pytest.raises(ValueError, match="no_such_rule"):
        rules.disabled_by_environment()
