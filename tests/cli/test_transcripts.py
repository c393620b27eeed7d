"""Golden CLI transcripts: what `relate` prints, byte for byte, for a run a user types.

Each case is one or more steps run in order in a fresh folder (so a step can leave a store for
the next one): argv, environment, stdin and whether stdout is a terminal go in; stdout, stderr
and the exit code come out.  The whole transcript is kept in `tests/golden/cli/<case>.txt` and
reviewed as a diff: run `pytest tests/cli/test_transcripts.py --update-golden` to rewrite the
files from the current output, then read the diff before committing.

Only what changes from run to run is normalised: timings (`"elapsed_ms":0.41` -> `<ms>`) and
process ids in lock messages.
"""
from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from relate.cli.main import run
from relate.cli.agent import HARNESS_VARIABLES

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "cli"
TIMING = re.compile(r'(_ms":)-?[0-9][0-9.eE+-]*')
PID = re.compile(r"\(pid \d+\)")

HARNESS = {"CLAUDECODE": "1"}
NAMES = "UNWIND ['Ada', 'Grace', 'Noor'] AS name RETURN name"
MODES = ("table", "envelope", "jsonl", "toon")

SCALARS = ("RETURN null AS nothing, true AS yes, false AS no, 42 AS int, -7 AS negative, 3.5 AS float, "
           "1.0e-5 AS tiny, 1.0e20 AS huge, 1.0e22 AS vast, 'Ada' AS str, '' AS empty, "
           "'a, b: \"c\"' AS tricky, 'naïve 中文' AS unicode, 'line\\nbreak' AS control, '-1' AS dash, "
           "'true' AS word")
COLLECTIONS = ("RETURN [1, 2, 3] AS ints, ['a', null] AS mixed, [] AS empty, [[1, 2], [3]] AS nested, "
               "{name: 'Ada', age: 36} AS map, {} AS emptymap, {a: {b: [1, {c: 2}]}} AS deep")
GRAPH = ("CREATE p = (a:Person {name: 'Ada'})-[r:KNOWS {since: 2020}]->(b:Person:Admin {name: 'Grace'}) "
         "RETURN a, r, b, p")
TEMPORAL = ("RETURN date('2024-01-02') AS d, localtime('12:30:15.5') AS lt, time('12:30+01:00') AS t, "
            "localdatetime('2024-01-02T03:04:05') AS ldt, datetime('2024-01-02T03:04:05+01:00') AS dt, "
            "duration('P1Y2M3DT4H5M6.5S') AS du")
SPATIAL = ("RETURN point({x: 1, y: 2}) AS p, point({longitude: 2.35, latitude: 48.85}) AS geo, "
           "point({x: 1, y: 2, z: 3}) AS p3, [point({x: 0, y: 0})] AS inlist")
NODE_ROWS = "UNWIND [1, 2] AS i CREATE (n:Item {i: i}) RETURN n, i"
MAP_ROWS = "UNWIND [{x: 1, y: 'a'}, {x: 2, y: 'b'}] AS m RETURN m, m.x AS x"
NULL_ROWS = "UNWIND [1, null, 3] AS x RETURN x"
NO_ROWS = "UNWIND [] AS x RETURN x"
WRITE_ONLY = "CREATE (:Person {name: 'Ada'})-[:KNOWS]->(:Person {name: 'Grace'})"
BIG = "UNWIND range(1, 150) AS i RETURN i"
SLOW_WRITE = "UNWIND range(1, 3000) AS a UNWIND range(1, 3000) AS b CREATE (:N {a: a})"
COUNT = "MATCH (n) RETURN count(n) AS nodes"


@dataclass(frozen=True)
class Step:
    argv: tuple[str, ...]
    env: dict = field(default_factory=dict)
    stdin: str = ""
    tty: bool = False
    files: dict = field(default_factory=dict)  # files written into the folder before the step
    hold: str | None = None  # a store another writer holds open while the step runs


def step(*argv: str, env: dict | None = None, stdin: str = "", tty: bool = False,
         files: dict | None = None, hold: str | None = None) -> Step:
    return Step(tuple(argv), env or {}, stdin, tty, files or {}, hold)


CASES: dict[str, list[Step]] = {}

# every value type in every mode
for _mode in MODES:
    CASES[f"values-scalars-{_mode}"] = [step("--mode", _mode, SCALARS)]
    CASES[f"values-collections-{_mode}"] = [step("--mode", _mode, COLLECTIONS)]
    CASES[f"values-temporal-{_mode}"] = [step("--mode", _mode, TEMPORAL)]
    CASES[f"values-spatial-{_mode}"] = [step("--mode", _mode, SPATIAL)]
    CASES[f"values-graph-{_mode}"] = [step("--mode", _mode, GRAPH)]
    CASES[f"values-node-rows-{_mode}"] = [step("--mode", _mode, NODE_ROWS)]
    CASES[f"values-map-rows-{_mode}"] = [step("--mode", _mode, MAP_ROWS)]
    CASES[f"values-null-rows-{_mode}"] = [step("--mode", _mode, NULL_ROWS)]
    CASES[f"values-no-rows-{_mode}"] = [step("--mode", _mode, NO_ROWS)]
    CASES[f"values-write-only-{_mode}"] = [step("--mode", _mode, WRITE_ONLY)]

CASES.update({
    "values-nested-toon": [step("--mode", "toon", "RETURN [{a: 1, b: 'x'}, {a: 2, b: 'y'}] AS l, 1 AS x, "
                                "{p: {q: 1}, r: {q: 2}} AS keyed; UNWIND [{a: 1}, {b: 2}] AS m RETURN m")],
    # default modes and agent-mode detection
    "default-pipe-is-jsonl": [step(NAMES)],
    "default-terminal-is-table": [step(NAMES, tty=True)],
    "agent-harness-pipe-is-toon": [step(NAMES, env=HARNESS)],
    "agent-harness-terminal-is-table": [step(NAMES, env=HARNESS, tty=True)],
    "agent-harness-off-by-flag": [step("--no-agent-mode", NAMES, env={"CURSOR_AGENT": "1"})],
    "agent-harness-off-by-variable": [step(NAMES, env={**HARNESS, "RELATE_AGENT_MODE": "0"})],
    "agent-mode-forced": [step(NAMES, env={"RELATE_AGENT_MODE": "1"})],
    "agent-mode-forced-on-terminal": [step(NAMES, env={"RELATE_AGENT_MODE": "1"}, tty=True)],
    "agent-harness-mode-pinned": [step("--mode", "envelope", NAMES, env=HARNESS)],
    # the row cap
    "row-cap-agent-toon": [step(BIG, env=HARNESS)],
    "row-cap-agent-jsonl": [step("--mode", "jsonl", BIG, env=HARNESS)],
    "row-cap-agent-table": [step("--mode", "table", BIG, env=HARNESS)],
    "row-cap-agent-all-rows": [step("--max-rows", "0", "UNWIND range(1, 102) AS i RETURN i", env=HARNESS)],
    "row-cap-max-rows-envelope": [step("--mode", "envelope", "--max-rows", "2", NAMES)],
    "row-cap-max-rows-one": [step("--mode", "toon", "--max-rows", "1", NAMES)],
    "row-cap-per-statement": [step("--mode", "jsonl", "--max-rows", "1", f"{NAMES}; RETURN 1 AS one")],
    # scripts
    "script-two-statements-jsonl": [step("RETURN 1 AS one; RETURN 'two' AS two")],
    "script-two-statements-envelope": [step("--mode", "envelope", "RETURN 1 AS one; RETURN 'two' AS two")],
    "script-two-statements-table": [step("--mode", "table", "RETURN 1 AS one; RETURN 'two' AS two")],
    "script-two-statements-toon": [step("--mode", "toon", "RETURN 1 AS one; RETURN 'two' AS two")],
    "script-semicolons-in-strings-and-comments": [step(
        "--mode", "jsonl",
        "RETURN 'a;b' AS s; // a comment; still a comment\nRETURN \"c;d\" AS `e;f` /* ; */;\n// only a comment;")],
    "script-arguments-each-a-script": [step("--mode", "jsonl", "RETURN 1 AS a; RETURN 2 AS b", "RETURN 3 AS c")],
    "script-from-stdin": [step("--mode", "envelope", stdin="CREATE (:A);\nMATCH (a:A) RETURN count(a) AS n;\n")],
    "script-from-file": [step("--mode", "envelope", "-f", "script.cypher",
                              files={"script.cypher": "CREATE (:A {n: 1});\nCREATE (:A {n: 2});\n"
                                                      "MATCH (a:A) RETURN a.n AS n ORDER BY n;\n"})],
    "script-file-dash-is-stdin": [step("--mode", "jsonl", "-f", "-", stdin="RETURN 1 AS one")],
    "script-store-persists": [step("--database", "g.rl", WRITE_ONLY),
                              step("--database", "g.rl", "--mode", "table",
                                   "MATCH (a)-[:KNOWS]->(b) RETURN a.name AS a, b.name AS b")],
    "script-fails-midway-envelope": [step("--database", "g.rl", "--mode", "envelope",
                                          "CREATE (:A); RETURN $missing AS x; CREATE (:B)"),
                                     step("--database", "g.rl", "--mode", "jsonl",
                                          "MATCH (n) RETURN labels(n) AS labels")],
    "script-fails-midway-toon": [step("--mode", "toon", "RETURN 1 AS one;\nMATCH (n) RETRUN n; RETURN 3")],
    "script-fails-midway-table": [step("--mode", "table", "RETURN 1 AS one;\nMATCH (n) RETRUN n; RETURN 3")],
    # parameters
    "params-name-value": [step("--mode", "envelope", "--param", "name=Ada", "--param", "age=36",
                               "--param", "admin=true", "--param", "tags=[\"a\", \"b\"]", "--param", "code=\"007\"",
                               "--param", "note=hello world",
                               "RETURN $name AS name, $age AS age, $admin AS admin, $tags AS tags, "
                               "$code AS code, $note AS note")],
    "params-json-map": [step("--mode", "jsonl", "--params", '{"who": {"name": "Ada"}, "n": 2}',
                             "--param", "n=3", "RETURN $who.name AS name, $n AS n")],
    "params-json-file": [step("--mode", "jsonl", "--params", "@params.json", "UNWIND $names AS name RETURN name",
                              files={"params.json": '{"names": ["Ada", "Grace"]}'})],
    "params-in-every-statement": [step("--mode", "jsonl", "--param", "x=5", "RETURN $x AS a; RETURN $x * 2 AS b")],
    "params-missing": [step("--mode", "envelope", "RETURN $who AS who")],
    "params-bad-pair": [step("--mode", "envelope", "--param", "novalue", "RETURN 1")],
    "params-bad-json": [step("--mode", "envelope", "--params", "{nope}", "RETURN 1")],
    "params-not-an-object": [step("--mode", "toon", "--params", "[1, 2]", "RETURN 1")],
    "params-integer-overflow": [step("--param", "n=9223372036854775808", "RETURN $n")],
    # failures and exit codes
    "exit-6-syntax-table": [step("--mode", "table", "MATCH (n)\nRETRUN n")],
    "exit-6-syntax-envelope": [step("--mode", "envelope", "MATCH (n RETURN n")],
    "exit-6-syntax-toon-agent": [step("MATCH (n RETURN n", env=HARNESS)],
    "exit-6-runtime-error": [step("--mode", "jsonl", "RETURN 1 / 0 AS x")],
    "exit-6-read-only-write": [step("--database", "g.rl", "RETURN 1"),
                               step("--database", "g.rl", "--read-only", "--mode", "envelope", WRITE_ONLY)],
    "exit-6-safe-unbounded-match": [step("--safe", "--mode", "envelope", "MATCH (n) RETURN n")],
    "exit-6-safe-unlabelled-node": [step("--safe", "--mode", "envelope", "CREATE (n) RETURN n")],
    "exit-6-safe-grouped-per-node": [step("--safe", "--mode", "table", "MATCH (n) RETURN n.id, count(*)")],
    "exit-0-safe-bounded": [step("--safe", "--mode", "jsonl",
                                 "CREATE (:P); MATCH (n) RETURN count(n) AS n; MATCH (n) RETURN n LIMIT 1")],
    "exit-7-timeout-leaves-graph-unchanged": [
        step("--database", "g.rl", "--mode", "envelope", "--timeout", "0.2", SLOW_WRITE),
        step("--database", "g.rl", "--mode", "jsonl", COUNT)],
    "exit-5-locked-store": [step("--database", "store", "--mode", "envelope", "CREATE (:A)", hold="store")],
    "exit-1-store-missing": [step("--database", "none.rl", "--read-only", "--mode", "envelope", "RETURN 1")],
    "exit-2-bad-mode": [step("--mode", "xml", "RETURN 1")],
    "exit-2-unknown-flag": [step("--bogus", "RETURN 1")],
    "exit-2-missing-value": [step("--max-rows")],
    "exit-2-negative-max-rows": [step("--max-rows", "-1", "RETURN 1")],
    "exit-2-bad-timeout": [step("--timeout", "soon", "RETURN 1")],
    "exit-2-no-statement": [step("--mode", "envelope", stdin="  // nothing but a comment\n")],
    "exit-2-statement-and-file": [step("-f", "x.cypher", "RETURN 1")],
    "exit-2-file-missing": [step("--mode", "envelope", "-f", "missing.cypher")],
    "exit-2-skill-subcommand": [step("skill", "remove")],
    "exit-2-unknown-flag-envelope": [step("--mode", "envelope", "--bogus", "RETURN 1")],
    "exit-2-unknown-flag-near-miss": [step("--max-row", "3", "RETURN 1")],
    "exit-2-unknown-flag-agent": [step("--bogus", "RETURN 1", env=HARNESS)],
    "exit-2-unknown-flag-terminal": [step("--bogus", "RETURN 1", tty=True)],
    "exit-2-mistyped-command": [step("sevre", "--mcp", "stdio")],
    "exit-2-read-only-live-outside-serve": [step("--read-only=live", "RETURN 1")],
    "exit-2-clone-needs-arguments": [step("clone")],
    "exit-6-syntax-unclosed-node": [step("--mode", "table", "MATCH (p:Person RETURN p")],
    "exit-6-unsupported-command": [step("--mode", "envelope", "CREATE DATABASE sales")],
    "exit-6-client-command": [step("--mode", "jsonl", ":param name => 'Ada'")],
    # help and version
    "help": [step("--help")],
    "help-agent-context": [step("agent-context", "--help")],
    "help-skill": [step("skill", "--help")],
    "help-export": [step("help", "export")],
    "help-import": [step("import", "--help")],
    "exit-2-export-needs-out": [step("export", "s.rl")],
    "exit-1-import-bad-row": [step("import", "new.rl", "--nodes=Person=people.csv",
                                   files={"people.csv": "id:ID,age:int\n1,41\n2,forty\n"}),
                              step("--database", "new.rl", "--read-only", "--mode", "table", "RETURN 1")],
    "version": [step("--version")],
})


def run_step(s: Step, folder: Path) -> tuple[str, str, int]:
    for name, text in s.files.items():
        (folder / name).write_text(text, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    holder = _hold(folder / s.hold) if s.hold else None
    try:
        code = run(list(s.argv), env=dict(s.env), stdin=io.StringIO(s.stdin), stdout=out, stderr=err,
                   stdout_isatty=s.tty)
    finally:
        if holder is not None:
            holder.stdin.close()
            holder.wait(timeout=60)
            holder.stdout.close()
    return out.getvalue(), err.getvalue(), code


def _hold(path: Path) -> subprocess.Popen:
    """Another process that holds the store's writer lease until its stdin closes (a second open
    inside this process would be refused as already open here, not as locked)."""
    child = subprocess.Popen([sys.executable, "-c", "import relate, sys\ndb = relate.connect(sys.argv[1])\n"
                              "print('ready', flush=True)\nsys.stdin.read()\n", str(path)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline() == "ready\n"
    return child


def _stream(name: str, text: str) -> str:
    text = PID.sub("(pid <pid>)", TIMING.sub(r"\1<ms>", text))
    if text and not text.endswith("\n"):
        text += "\n\\ no newline at end\n"
    return f"--- {name}\n{text}"


def transcript(steps: list[Step], folder: Path) -> str:
    parts = []
    for s in steps:
        out, err, code = run_step(s, folder)
        head = [f"$ relate {json.dumps(list(s.argv), ensure_ascii=False)}"]
        if s.env:
            head.append(f"env: {json.dumps(s.env, sort_keys=True)}")
        if s.stdin:
            head.append(f"stdin: {json.dumps(s.stdin, ensure_ascii=False)}")
        for name, text in s.files.items():
            head.append(f"file {name}: {json.dumps(text, ensure_ascii=False)}")
        if s.hold:
            head.append(f"store held open by another writer: {s.hold}")
        head.append(f"stdout: {'terminal' if s.tty else 'pipe'}")
        head.append(f"exit: {code}")
        parts.append("\n".join(head) + "\n" + _stream("stdout", out) + _stream("stderr", err))
    return "\n".join(parts)


@pytest.mark.parametrize("name", sorted(CASES))
def test_transcript(name, tmp_path, monkeypatch, update_golden):
    monkeypatch.chdir(tmp_path)
    text = transcript(CASES[name], tmp_path)
    path = GOLDEN / f"{name}.txt"
    if update_golden or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if not update_golden:
            pytest.fail(f"new golden transcript written: {path.name}; review it and run again")
    assert text == path.read_text(encoding="utf-8"), f"transcript differs from {path}"


def test_no_stale_golden_files():
    """Every transcript on disk belongs to a case, so a renamed case cannot leave a file behind."""
    on_disk = {p.stem for p in GOLDEN.glob("*.txt")}
    assert on_disk <= set(CASES), sorted(on_disk - set(CASES))


@pytest.mark.parametrize("variable", HARNESS_VARIABLES)
def test_every_harness_variable_turns_agent_mode_on(variable, tmp_path):
    out, err, code = run_step(step("RETURN 1 AS one", env={variable: "1"}), tmp_path)
    assert (out.splitlines()[0], code) == ("rows[1]{one}:", 0)
    out, _, _ = run_step(step("RETURN 1 AS one", env={variable: ""}), tmp_path)
    assert out.startswith('{"one":1}\n')
