"""The built site on this machine -> how long a reader waits, browser against native.

    page load -> first tryout ready   navigation start to `window.relate.ready` (Pyodide in the
                                      worker, the wheels, the engine, the page's autorun cell),
                                      per page, over --loads fresh loads of each page
    one tryout call                   median wall time of one call, timed inside the page around
                                      `await window.relate.mcp(...)` / `.cli(...)`, against the
                                      same request to the native binary: a `relate serve --mcp
                                      stdio` process (request line in, reply line out) and a
                                      `relate ARGS` process per CLI call (start-up included, as a
                                      shell pays it)

Usage: python bench/site.py [--loads N] [--calls N] [--pages index,cli] [--out FILE]
Needs the built site (python build/site.py) and /usr/bin/chromium.  Writes a Markdown report
(bench/results/site.md by default) and prints it.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "dist" / "site"
RELATE = str(Path(sys.executable).parent / "relate")
CHROMIUM = "/usr/bin/chromium"

STATEMENT = "MATCH (p:Person)-[w:WORKS_ON]->(r:Project) RETURN p.name AS name, r.name AS project ORDER BY name"
GRAPH = ("CREATE (ada:Person {name: 'Ada'}), (grace:Person {name: 'Grace'}), (r:Project {name: 'relate'}), "
         "(ada)-[:WORKS_ON]->(r), (grace)-[:WORKS_ON]->(r)")
CLI_ARGS = ["--mode", "envelope", "UNWIND range(1, 100) AS n RETURN n, n * n AS square"]


def read_line(n: int) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": n, "method": "tools/call",
                       "params": {"name": "read_cypher", "arguments": {"statement": STATEMENT}}})


def serve_site():
    spec = importlib.util.spec_from_file_location("serve", ROOT / "server" / "serve.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    server = module.make_server(SITE, 0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def browser_figures(base: str, pages: list[str], loads: int, calls: int) -> dict:
    from playwright.sync_api import sync_playwright

    out = {"ready_ms": {}, "steps": {}, "mcp_ms": [], "cli_ms": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=["--no-sandbox", "--disable-gpu"])
        context = browser.new_context()
        context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(base)
                      else route.abort())
        for name in pages:
            times = []
            for _ in range(loads):
                page = context.new_page()
                page.goto(base + f"{name}.html")
                page.wait_for_function("() => window.relate !== undefined")
                page.evaluate("() => window.relate.ready")
                timings = page.evaluate("() => window.relate.timings")
                times.append(timings["readyMs"])
                for step in timings["steps"]:
                    out["steps"].setdefault(step["text"], []).append(step["ms"])
                page.close()
            out["ready_ms"][name] = times
        page = context.new_page()
        page.goto(base + "index.html")
        page.wait_for_function("() => window.relate !== undefined")
        page.evaluate("() => window.relate.ready")
        page.evaluate("(g) => window.relate.cell(g)", GRAPH)
        out["mcp_ms"] = page.evaluate("""async ([lines]) => {
            const times = [];
            for (const line of lines) {
              const t0 = performance.now();
              await window.relate.mcp(line, {readOnly: true});
              times.push(performance.now() - t0);
            }
            return times;
        }""", [[read_line(n) for n in range(calls)]])
        out["cli_ms"] = page.evaluate("""async ([args, n]) => {
            const times = [];
            for (let i = 0; i < n; i++) {
              const t0 = performance.now();
              await window.relate.cli(args);
              times.push(performance.now() - t0);
            }
            return times;
        }""", [CLI_ARGS, calls])
        browser.close()
    return out


def native_figures(calls: int, tmp: Path) -> dict:
    store = tmp / "bench.rl"
    subprocess.run([RELATE, "--database", str(store), GRAPH], check=True, capture_output=True)
    proc = subprocess.Popen([RELATE, "serve", "--mcp", "stdio", "--database", str(store), "--read-only"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    mcp = []
    for n in range(calls):
        t0 = time.perf_counter()
        proc.stdin.write(read_line(n) + "\n")
        proc.stdin.flush()
        proc.stdout.readline()
        mcp.append((time.perf_counter() - t0) * 1000)
    proc.stdin.close()
    proc.wait()
    cli = []
    for _ in range(calls):
        t0 = time.perf_counter()
        subprocess.run([RELATE, *CLI_ARGS], capture_output=True, check=True)
        cli.append((time.perf_counter() - t0) * 1000)
    return {"mcp_ms": mcp, "cli_ms": cli}


def median(values) -> str:
    return f"{statistics.median(values):.1f}"


def report(browser: dict, native: dict, loads: int, calls: int) -> str:
    chromium = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True).stdout.strip()
    manifest = json.loads((SITE / "wheels" / "manifest.json").read_text())
    lines = [
        "# The documentation site: load time and tryout calls",
        "",
        f"Measured by `bench/site.py` on {time.strftime('%Y-%m-%d')}: {platform.machine()}, "
        f"{_cpus()} CPUs, {chromium}, Pyodide {manifest['pyodide']} (Python {manifest['python']}) in the page, "
        f"native CPython {platform.python_version()}, 1-minute load average {os.getloadavg()[0]:.2f} at the end of the run "
        "(other work on the machine slows the browser most; read the figures as an order of "
        "magnitude).",
        "",
        f"## Page load to first tryout ready ({loads} loads per page)",
        "",
        "From navigation start to `window.relate.ready`: Pyodide started in the worker, wheels installed, "
        "the engine imported, and the page's first cell run.",
        "",
        "| page | median ms | min ms | max ms |",
        "| --- | ---: | ---: | ---: |",
    ]
    for name, times in browser["ready_ms"].items():
        lines.append(f"| {name}.html | {median(times)} | {min(times):.1f} | {max(times):.1f} |")
    lines += ["", "When each loading step began (median over every load above, ms after navigation start):", "",
              "| step | median ms |", "| --- | ---: |"]
    for text, times in browser["steps"].items():
        lines.append(f"| {text.rstrip('…')} | {median(times)} |")
    all_ready = [t for times in browser["ready_ms"].values() for t in times]
    lines.append(f"| ready | {median(all_ready)} |")
    lines += [
        "",
        f"## One tryout call ({calls} calls each, median)",
        "",
        "| call | browser ms | native ms | browser / native |",
        "| --- | ---: | ---: | ---: |",
        f"| MCP `read_cypher` (`{STATEMENT[:40]}…`), read-only server | {median(browser['mcp_ms'])} | "
        f"{median(native['mcp_ms'])} | {statistics.median(browser['mcp_ms']) / statistics.median(native['mcp_ms']):.1f} |",
        f"| CLI `relate {' '.join(CLI_ARGS[:2])} '…100 rows…'` | {median(browser['cli_ms'])} | "
        f"{median(native['cli_ms'])} | {statistics.median(browser['cli_ms']) / statistics.median(native['cli_ms']):.2f} |",
        "",
        "The native MCP figure is one request line to a running `relate serve --mcp stdio` and its reply "
        "line back; the browser figure adds the hop from the page to its worker and back. The native CLI "
        "figure includes starting a Python process (what a shell or an agent pays per command); the page "
        "runs the CLI in the worker's already started interpreter, so it pays no start-up.",
        "",
    ]
    return "\n".join(lines)


def _cpus() -> int:
    import os
    return os.cpu_count() or 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--loads", type=int, default=3)
    parser.add_argument("--calls", type=int, default=30)
    parser.add_argument("--pages", default="index,cypher,cli,serve-mcp")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "site.md")
    args = parser.parse_args(argv)
    if not (SITE / "wheels" / "manifest.json").is_file():
        print("bench/site.py: build the site first: python build/site.py", file=sys.stderr)
        return 1
    import tempfile

    server, base = serve_site()
    try:
        browser = browser_figures(base, args.pages.split(","), args.loads, args.calls)
    finally:
        server.shutdown()
    with tempfile.TemporaryDirectory() as tmp:
        native = native_figures(args.calls, Path(tmp))
    text = report(browser, native, args.loads, args.calls)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
