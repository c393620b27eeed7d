"""Cold start (issue 22): a new `relate "RETURN 1"` process against a bare `python -c pass`, and
the browser page's first tryout, each against its target -> bench/results/cold_start.md.

    python bench/cold_start.py [--rounds N] [--base REV] [--browser-loads N] [--no-browser] [--out FILE]

Native: the two commands run alternately, `--rounds` times each, with the project's venv Python
and its `relate` script; both the wall time and the CPU time (user + system, from `wait4`) of
each process are kept, and the target is judged on the lowest wall time of each (the figure the
least disturbed by other work on the machine; the CPU medians are printed beside it).  The child
processes get the environment a user's shell has: bytecode caches written and used
(`PYTHONDONTWRITEBYTECODE` is dropped), the parser image cached, both warmed by one run first.
`-X importtime` (lowest of five runs per module) lists what the start-up still spends its time on.
`--instructions` adds each command's instruction count under callgrind (one run each, about ten
seconds): a figure load on the machine does not move, for comparing revisions.
`--base REV` also times `relate "RETURN 1"` at another revision (checked out in a temporary
worktree and put first on `PYTHONPATH`, run by the same venv), alternating with the rest.

Browser: `bench/site.py`'s page-load figures for index.html (navigation start to the first tryout
ready), `--browser-loads` fresh loads, the lowest and the median; `--browser-base DIR` times
another built site (e.g. main's, `build/site.py --out DIR` in its checkout) alternately with it.  Needs the built site (python
build/site.py) and /usr/bin/chromium; `--no-browser` leaves it out.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
RELATE = str(Path(sys.executable).parent / "relate")
NATIVE_TARGET = 5.0      # relate "RETURN 1" within 5x of python -c pass
BROWSER_TARGET_MS = 1500.0

BARE, RELATE_1 = "python -c pass", 'relate "RETURN 1"'


def _env(tree: Path | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = str(tree or ROOT)
    return env


def run_once(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one process (run from `/`, so that the working directory
    does not decide which relate is imported)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd="/")
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"bench/cold_start.py: {cmd} exited {proc.returncode}")
    return wall, usage.ru_utime + usage.ru_stime


def native(rounds: int, base: Path | None, base_name: str, instructions: bool) -> dict[str, dict[str, list[float]]]:
    runs = {BARE: ([PYTHON, "-c", "pass"], _env()), RELATE_1: ([RELATE, "RETURN 1"], _env())}
    if base is not None:
        runs[f'{RELATE_1} at {base_name}'] = ([RELATE, "RETURN 1"], _env(base))
    for cmd, env in runs.values():  # bytecode and the parser image written before timing
        run_once(cmd, env)
    out: dict[str, dict[str, list[float]]] = {name: {"wall": [], "cpu": [], "ir": []} for name in runs}
    for _ in range(rounds):
        for name, (cmd, env) in runs.items():
            wall, cpu = run_once(cmd, env)
            out[name]["wall"].append(wall)
            out[name]["cpu"].append(cpu)
    if instructions:
        for name, (cmd, env) in runs.items():
            out[name]["ir"].append(count_instructions(cmd, env))
    return out


def count_instructions(cmd: list[str], env: dict[str, str]) -> float:
    proc = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd],
                          capture_output=True, text=True, env=env, cwd="/")
    m = re.search(r"refs:\s*([\d,]+)", proc.stderr)
    if m is None:
        raise SystemExit(f"bench/cold_start.py: no instruction count from callgrind:\n{proc.stderr[-2000:]}")
    return float(m[1].replace(",", ""))


@contextmanager
def worktree(rev: str) -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "base"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), rev],
                       check=True, capture_output=True)
        try:
            yield tree
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                           capture_output=True)


def import_costs(runs: int = 5, top: int = 15) -> list[tuple[str, int, int]]:
    """(module, self µs, cumulative µs) of the costliest imports of a `relate "RETURN 1"`, lowest
    of `runs` runs each, by self time."""
    selfs: dict[str, list[int]] = defaultdict(list)
    cums: dict[str, list[int]] = defaultdict(list)
    for _ in range(runs):
        proc = subprocess.run([PYTHON, "-X", "importtime", RELATE, "RETURN 1"], capture_output=True,
                              text=True, env=_env(), cwd="/")
        for line in proc.stderr.splitlines():
            m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \| *(\S+)", line)
            if m:
                selfs[m[3]].append(int(m[1]))
                cums[m[3]].append(int(m[2]))
    rows = [(name, min(v), min(cums[name])) for name, v in selfs.items()]
    rows.sort(key=lambda r: -r[1])
    return [("(all modules)", sum(r[1] for r in rows), 0)] + rows[:top]


def browser(loads: int, sites: dict[str, Path]) -> dict[str, list[float]]:
    """Page load -> first tryout ready of index.html, per built site, the sites' loads alternating."""
    spec = importlib.util.spec_from_file_location("bench_site", ROOT / "bench" / "site.py")
    site = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(site)
    servers = {}
    for name, folder in sites.items():
        if not (folder / "wheels" / "manifest.json").is_file():
            raise SystemExit(f"bench/cold_start.py: no built site in {folder}: python build/site.py (or --no-browser)")
        site.SITE = folder
        servers[name] = site.serve_site()
    out: dict[str, list[float]] = {name: [] for name in sites}
    try:
        for _ in range(loads):
            for name, (_, base) in servers.items():
                out[name] += site.browser_figures(base, ["index"], 1, 1)["ready_ms"]["index"]
    finally:
        for server, _ in servers.values():
            server.shutdown()
    return out


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def report(figures: dict, imports: list, pages: dict[str, list[float]] | None, rounds: int) -> str:
    bare, relate = figures[BARE], figures[RELATE_1]
    ratio = min(relate["wall"]) / min(bare["wall"])
    cpu_ratio = statistics.median(relate["cpu"]) / statistics.median(bare["cpu"])
    verdict = "met" if ratio <= NATIVE_TARGET else f"missed by {ratio / NATIVE_TARGET:.1f}x"
    lines = [
        "# Cold start",
        "",
        f"Measured by `bench/cold_start.py` on {time.strftime('%Y-%m-%d')}: {platform.machine()}, "
        f"{os.cpu_count()} CPUs, CPython {platform.python_version()}, 1-minute load average "
        f"{os.getloadavg()[0]:.2f} at the end of the run (the machine is shared: the lowest wall "
        "time is the figure other work disturbs least).",
        "",
        "## Targets",
        "",
        "| target | measured | verdict |",
        "| --- | --- | --- |",
        f"| `relate \"RETURN 1\"` within {NATIVE_TARGET:g}x of `python -c pass` | {ratio:.1f}x "
        f"({_ms(min(relate['wall']))} ms against {_ms(min(bare['wall']))} ms; CPU medians {cpu_ratio:.1f}x) "
        f"| {verdict} |",
    ]
    ready = None if pages is None else pages["this tree's site"]
    if ready is not None:
        best = min(ready)
        verdict = "met" if best <= BROWSER_TARGET_MS else f"missed by {best - BROWSER_TARGET_MS:.0f} ms"
        lines.append(f"| the page's first tryout ready within {BROWSER_TARGET_MS / 1000:g} s | {best:.0f} ms "
                     f"lowest, {statistics.median(ready):.0f} ms median of {len(ready)} loads | {verdict} |")
    lines += [
        "",
        f"## New processes ({rounds} of each, alternating)",
        "",
        "| command | wall min ms | wall median ms | CPU median ms | instructions (callgrind) |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for name, f in figures.items():
        ir = f"{f['ir'][0] / 1e6:.0f} M ({f['ir'][0] / bare['ir'][0]:.1f}x)" if f["ir"] else "-"
        lines.append(f"| `{name}` | {_ms(min(f['wall']))} | {_ms(statistics.median(f['wall']))} | "
                     f"{_ms(statistics.median(f['cpu']))} | {ir} |")
    if pages is not None:
        lines += ["", "## The docs page: navigation start to the first tryout ready (index.html, loads alternating)",
                  "", "| site | lowest ms | median ms |", "| --- | ---: | ---: |"]
        for name, times in pages.items():
            lines.append(f"| {name} | {min(times):.0f} | {statistics.median(times):.0f} |")
    lines += [
        "",
        "## Where a `relate \"RETURN 1\"` start-up still goes (`-X importtime`, lowest of 5 runs)",
        "",
        "| module | self ms | cumulative ms |",
        "| --- | ---: | ---: |",
    ]
    for name, own, cum in imports:
        lines.append(f"| `{name}` | {own / 1000:.1f} | {cum / 1000:.1f} |" if cum else
                     f"| {name} | {own / 1000:.1f} | |")
    lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--instructions", action="store_true", help="add callgrind instruction counts")
    parser.add_argument("--base", help="also time this revision's relate (e.g. main)")
    parser.add_argument("--browser-loads", type=int, default=5)
    parser.add_argument("--browser-base", type=Path, help="another built site to time beside dist/site")
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "cold_start.md")
    args = parser.parse_args(argv)
    if args.base:
        with worktree(args.base) as tree:
            figures = native(args.rounds, tree, args.base, args.instructions)
    else:
        figures = native(args.rounds, None, "", args.instructions)
    imports = import_costs()
    sites = {"this tree's site": ROOT / "dist" / "site"}
    if args.browser_base is not None:
        sites[f"{args.browser_base}"] = args.browser_base
    pages = None if args.no_browser else browser(args.browser_loads, sites)
    text = report(figures, imports, pages, args.rounds)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
