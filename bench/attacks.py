"""The attack figures of issue 14: fuzzed inputs against real `relate serve` processes, SIGKILL
rounds against writing processes, and the other attack reports, in one Markdown file.

    .venv/bin/python bench/attacks.py [--inputs 50000] [--kills 400] [--seed 14] [--out bench/results/attacks.md]

* Fuzz: the generator of tests/attacks/fuzzgen.py at a larger count than CI's.  Two fifths of
  `--inputs` go to each stdio store (`.rl` and directory), one fifth to HTTP requests, through the
  harness of tests/attacks/test_fuzz.py (the same checks: one answer per request, in order, with
  the request's id, no internal error, a control ping after every HTTP batch, every acknowledged
  write present at the end and after a restart).  Figures per family.
* SIGKILL rounds: the child and the prefix check of tests/storage/test_crash_kill.py, `--kills`
  rounds split over a `.rl` file and a directory store; acknowledged transactions lost are counted.
* bench/results/runaway.md and bench/results/damage.md are included when present (other
  attack suites write them).

Exit status 1 when any check failed.
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import random
import signal
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.attacks import fuzzgen  # noqa: E402
from tests.attacks import test_fuzz as harness  # noqa: E402
from tests.storage import test_crash_kill as crash  # noqa: E402


# ---------------------------------------------------------------- fuzz

def _rpc_outcome(reply) -> str:
    if reply is None:
        return "no reply (due none)"
    if "error" in reply:
        return f"JSON-RPC error {reply['error'].get('code')}"
    result = reply.get("result")
    if isinstance(result, dict) and result.get("isError") is True:
        return "tool error"
    return "result"


def fuzz_stdio(n: int, seed: int, tmp: Path) -> dict:
    out = {"lines": 0, "due": 0, "answered": 0, "families": defaultdict(Counter), "findings": [], "acked": 0,
           "lost": 0, "seconds": 0.0}
    for kind in ("fuzz.rl", "fuzzdir"):
        rng = random.Random(f"{seed}-bench-stdio-{kind}")
        ids, handed = fuzzgen.Ids(), []
        cases = [fuzzgen.rpc_case(rng, ids, handed) for _ in range(n // 2)]
        acked: dict[int, str] = {}
        findings = harness.Findings(f"stdio on {kind}")

        def tally(case, reply):
            if case.family == "check":
                return
            out["lines"] += 1
            out["families"][case.family][_rpc_outcome(reply)] += 1
            if reply is not None:
                out["answered"] += 1

        out["due"] += sum(harness.stdio_oracle(c.line) is not harness.NONE for c in cases)
        start = time.monotonic()
        try:
            harness.run_stdio(str(tmp / kind), tmp, cases, findings, acked, tally)
            harness.run_stdio(str(tmp / kind), tmp, [], findings, acked)  # the restart
        except BaseException as e:  # pytest.fail raises an OutcomeException
            out["findings"].append(f"{kind}: {e}")
        out["seconds"] += time.monotonic() - start
        out["acked"] += len(acked)
        out["lost"] += _lost(findings)
    return out


def _lost(findings) -> int:
    return sum(item.startswith("acknowledged write") and " lost" in item.split("\n")[0] for item in findings.items)


def fuzz_http(n: int, seed: int, tmp: Path) -> dict:
    out = {"cases": 0, "requests": 0, "responses": 0, "framed": 0, "framed_answered": 0,
           "families": defaultdict(Counter), "findings": [], "acked": 0, "lost": 0, "exits": 0, "seconds": 0.0}
    cases = harness.http_cases(random.Random(f"{seed}-bench-http"), n)
    acked: dict[int, str] = {}
    findings = harness.Findings("HTTP")
    lock = multiprocessing.Lock()

    def tally(case, statuses, closed):
        with lock:
            out["cases"] += 1
            out["requests"] += case.requests
            out["responses"] += len(statuses)
            if case.rpcs:
                out["framed"] += len(case.rpcs)
                out["framed_answered"] += min(len(statuses), len(case.rpcs))
            out["families"][case.family][" ".join(map(str, statuses)) or "closed, no response"] += 1

    start = time.monotonic()
    try:
        out["exits"] = harness.run_http(tmp, cases, findings, acked, tally)
    except BaseException as e:
        out["findings"].append(str(e))
    out["seconds"] = time.monotonic() - start
    out["acked"] = len(acked)
    out["lost"] = _lost(findings)
    return out


# ---------------------------------------------------------------- SIGKILL rounds

def kill_rounds(kills: int, tmp: Path) -> list[dict]:
    """test_crash_kill's loop, counting instead of asserting."""
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["relate", "relate.database", "relate.storage.dirstore",
                                "relate.storage.filestore", "tests.storage.test_crash_kill"])
    rows = []
    for name in ("kill.rl", "killdir"):
        path = str(tmp / name)
        rng = random.Random(6)
        acked = present = done = lost = broken = 0
        start = time.monotonic()
        while done < kills // 2:
            recv, send = ctx.Pipe(duplex=False)
            child = ctx.Process(target=crash.writer, args=(path, send, rng.choice([1500, 6000, 1 << 20]), done))
            child.start()
            send.close()
            if rng.random() < 0.2:
                time.sleep(rng.random() * 0.03)
            else:
                recv.poll(2.0)
                time.sleep(rng.random() * 0.05)
            os.kill(child.pid, signal.SIGKILL)
            child.join()
            done += 1
            while True:
                try:
                    if not recv.poll(0):
                        break
                    acked = max(acked, int(recv.recv_bytes()) + 1)
                except EOFError:
                    break
            recv.close()
            if not os.path.exists(path):
                continue
            try:
                present = crash.check_prefix(path, acked)
            except AssertionError as e:
                broken += 1
                lost += "lost" in str(e)
        rows.append({"store": name, "rounds": done, "acked": acked, "present": present, "lost": lost,
                     "broken": broken, "seconds": time.monotonic() - start})
    return rows


# ---------------------------------------------------------------- report

def _exits(stdio: dict) -> int:
    return sum("the server exited" in f for f in stdio["findings"])


def report(args, stdio: dict, http: dict, kills: list[dict]) -> str:
    lines = ["# Attack figures (issue 14)", "",
             f"`bench/attacks.py --inputs {args.inputs} --kills {args.kills} --seed {args.seed}` on "
             f"{platform.system()} {platform.machine()}, Python {platform.python_version()}, "
             f"{os.cpu_count()} cores, {time.strftime('%Y-%m-%d')}.", ""]
    total = stdio["lines"] + http["cases"]
    findings = stdio["findings"] + http["findings"]
    lost = sum(r["lost"] for r in kills)
    lines += ["## Summary", "",
              "| figure | value |", "| --- | --- |",
              f"| attack inputs tried (JSON-RPC lines on stdio + HTTP byte streams) | {total} |",
              f"| stdio: replies / requests that were due one | {stdio['answered']} / {stdio['due']} |",
              f"| HTTP: responses / well-framed requests (exactly one each) | {http['framed_answered']} / "
              f"{http['framed']} |",
              f"| HTTP: responses / all requests sent (at most one each) | {http['responses']} / {http['requests']} |",
              f"| server exits or restarts during the fuzz | {http['exits'] + _exits(stdio)} |",
              f"| acknowledged writes during the fuzz (stdio + HTTP) | {stdio['acked'] + http['acked']} |",
              "| acknowledged writes lost during the fuzz, incl. after a restart | "
              f"{stdio['lost'] + http['lost']} |",
              f"| SIGKILL rounds | {sum(r['rounds'] for r in kills)} |",
              f"| acknowledged transactions lost over the SIGKILL rounds | {lost} |",
              f"| findings (any failed check) | {len(findings)} |", ""]
    if findings:
        lines += ["## Findings", ""] + [f"```\n{f[:3000]}\n```" for f in findings] + [""]
    lines += ["## Fuzz over stdio, by family", "",
              f"`relate serve --mcp stdio` on a `.rl` file and on a directory store, "
              f"{stdio['lines'] // 2} lines each, then a restart on each store ({stdio['seconds']:.0f} s).", "",
              "| family | lines | answers |", "| --- | ---: | --- |"]
    for fam in fuzzgen.FAMILIES:
        c = stdio["families"].get(fam, Counter())
        lines.append(f"| {fam} | {sum(c.values())} | " + ", ".join(f"{k}: {v}" for k, v in sorted(c.items())) + " |")
    lines += ["", "## Fuzz over HTTP, by family", "",
              f"`relate serve --mcp 0 --auth ...`, {http['cases']} connections (well-framed requests on a "
              "connection kept open until answered, other byte streams then a half-close), "
              f"6 at a time, a control ping after every 100 ({http['seconds']:.0f} s).", "",
              "| family | connections | response statuses per connection |", "| --- | ---: | --- |"]
    for fam in fuzzgen.HTTP_FAMILIES:
        c = http["families"].get(fam, Counter())
        shown = ", ".join(f"{k}: {v}" for k, v in c.most_common(8))
        if len(c) > 8:
            shown += f", {len(c) - 8} more"
        lines.append(f"| {fam} | {sum(c.values())} | {shown} |")
    lines += ["", "## SIGKILL rounds", "",
              "tests/storage/test_crash_kill.py's writer, killed at random moments (while opening, mid-commit, "
              "mid-checkpoint); after each kill the store is opened read-only and must hold a whole prefix "
              "covering every acknowledged transaction.", "",
              "| store | rounds | acknowledged | present at the end | lost | broken prefixes | seconds |",
              "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in kills:
        lines.append(f"| {r['store']} | {r['rounds']} | {r['acked']} | {r['present']} | {r['lost']} | "
                     f"{r['broken']} | {r['seconds']:.0f} |")
    lines.append("")
    for name, title in (("runaway.md", "Runaway statements"), ("damage.md", "Damaged logs and snapshots")):
        path = ROOT / "bench" / "results" / name
        lines += [f"## {title} (from bench/results/{name})", ""]
        if path.exists():
            text = path.read_text(encoding="utf-8").strip()
            lines += ["#" + line if line.startswith("#") else line for line in text.splitlines()]
        else:
            lines.append("Not present in this tree when the figures were made.")
        lines.append("")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--inputs", type=int, default=50_000)
    ap.add_argument("--kills", type=int, default=400)
    ap.add_argument("--seed", type=int, default=fuzzgen.seed())
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "attacks.md")
    args = ap.parse_args(argv)
    os.environ["RELATE_FUZZ_SEED"] = str(args.seed)
    with tempfile.TemporaryDirectory(prefix="relate-attacks-") as d:
        tmp = Path(d)
        (tmp / "s").mkdir()
        (tmp / "h").mkdir()
        (tmp / "k").mkdir()
        stdio = fuzz_stdio(args.inputs * 4 // 5, args.seed, tmp / "s")
        print(f"stdio: {stdio['lines']} lines, {len(stdio['findings'])} findings", flush=True)
        http = fuzz_http(args.inputs - args.inputs * 4 // 5, args.seed, tmp / "h")
        print(f"http: {http['cases']} connections, {len(http['findings'])} findings", flush=True)
        kills = kill_rounds(args.kills, tmp / "k")
        print(f"kills: {kills}", flush=True)
    text = report(args, stdio, http, kills)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    bad = stdio["findings"] or http["findings"] or any(r["lost"] or r["broken"] for r in kills)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
