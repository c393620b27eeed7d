"""The browser build against native: the same relate engine and queries inside Pyodide in Chromium.

    python bench/browser.py SCALE OUT.json --expected FLOOR.json [--budget SECONDS]

The built site's vendored Pyodide and its lark/tzdata wheels are used, but relate itself is
written into Pyodide's file system from this working tree (with bench's generator, queries and
measure.py), so the browser runs exactly the code native runs.  It measures two complete rounds
and keeps the lower median of each figure.  The page is a blank one served
under the site's origin (Playwright answers its URL itself; nothing is written into dist/), and
the timings come from bench/measure.py running inside the page, so native and browser figures are
measured by the same loop.  Needs dist/site (python build/site.py) and /usr/bin/chromium.
"""
from __future__ import annotations

import argparse
import base64
import importlib.util
import json
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "dist" / "site"
# `--no-liftoff`: V8 compiles Pyodide's WebAssembly with its optimizing compiler from the start.
# By default a page begins on the baseline compiler and moves hot functions up in the background;
# on this 2-core machine that move raced the measurements (Q1i took 6 or 10 µs from run to run),
# so the figures are the optimized steady state a page reaches after its first seconds.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--js-flags=--no-liftoff"]
PAGE = """<!doctype html><meta charset="utf-8"><title>bench</title>
<script type="module">
import { loadPyodide } from "./vendor/pyodide/pyodide.mjs";
window.benchReady = (async () => {
  const py = await loadPyodide({ indexURL: new URL("vendor/pyodide/", location).href });
  const manifest = await (await fetch("wheels/manifest.json")).json();
  const wheels = manifest.wheels.filter((w) => !w.startsWith("relate-"))
    .map((w) => new URL("wheels/" + w, location).href);
  await py.loadPackage(wheels);
  window.py = py;
  return true;
})();
</script>"""

RUN = """
import json, sys
sys.path.insert(0, "/bench/src")
sys.path.insert(0, "/bench/src/bench")
from graphgen import generate
import measure
from engines.relate_engine import Engine
graph = generate(SCALE)
# two complete rounds, each on a fresh database; per figure the lower of the two medians (a
# browser's figures swing more from run to run than a native process's)
rounds = [measure.run(Engine(":memory:"), graph, EXPECTED, budget=BUDGET) for _ in range(2)]
out = rounds[0]
for q, t in rounds[1]["times"].items():
    if q in out["times"] and rounds[1]["status"].get(q) == "ok" == out["status"].get(q):
        out["times"][q] = min(out["times"][q], t)
json.dumps(out)
"""


def sources() -> dict[str, str]:
    """Path -> text of every file to write into the page; binary files (the parser tables) as
    base64 under a `base64:` prefix."""
    files = {}
    for path in sorted((ROOT / "relate").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            data = path.read_bytes()
            try:
                files[str(path.relative_to(ROOT))] = data.decode("utf-8")
            except UnicodeDecodeError:
                files[str(path.relative_to(ROOT))] = "base64:" + base64.b64encode(data).decode("ascii")
    for name in ("graphgen.py", "queries.py", "measure.py", "engines/__init__.py",
                 "engines/relate_engine.py"):
        files["bench/" + name] = (ROOT / "bench" / name).read_text()
    return files


def measure_in_browser(scale: str, expected: dict, budget: float) -> dict:
    from playwright.sync_api import sync_playwright
    spec = importlib.util.spec_from_file_location("relate_site_server", ROOT / "server" / "serve.py")
    serve = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(serve)
    server = serve.make_server(SITE, 0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                        args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.route(base + "__bench__.html",
                       lambda route: route.fulfill(status=200, content_type="text/html", body=PAGE))
            page.goto(base + "__bench__.html")
            page.wait_for_function("window.benchReady !== undefined", timeout=60_000)
            page.evaluate("() => window.benchReady")
            page.evaluate("""(files) => {
                for (const [name, text] of Object.entries(files)) {
                    const path = "/bench/src/" + name;
                    const dir = path.slice(0, path.lastIndexOf("/"));
                    window.py.FS.mkdirTree(dir);
                    const data = text.startsWith("base64:")
                        ? Uint8Array.from(atob(text.slice(7)), (c) => c.charCodeAt(0)) : text;
                    window.py.FS.writeFile(path, data);
                }
            }""", sources())
            code = (RUN.replace("SCALE", repr(scale)).replace("BUDGET", repr(budget))
                    .replace("EXPECTED", "json.loads(%r)" % json.dumps(expected)))
            text = page.evaluate("(code) => window.py.runPython(code)", code)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    out = json.loads(text)
    out["engine"] = "relate-browser"
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("scale")
    ap.add_argument("out")
    ap.add_argument("--expected", required=True)
    ap.add_argument("--budget", type=float, default=1.0)
    args = ap.parse_args()
    expected = json.loads(Path(args.expected).read_text())["answers"]
    out = measure_in_browser(args.scale, expected, args.budget)
    Path(args.out).write_text(json.dumps(out))


if __name__ == "__main__":
    main()
