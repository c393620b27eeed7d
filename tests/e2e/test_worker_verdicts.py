"""The page's Web Worker gives the native verdicts too: a sample of the TCK and of the Neo4j-style
corpus, and every golden case, run by tests/pyodide/verdicts.py inside the worker that
web/tryout/worker.js starts (its Pyodide and the site's wheels, served by the site) and natively,
compared case by case (tests/pyodide/compare.py).  The same test body as
tests/pyodide/test_verdicts.py, on the second target.

The worker script is served as built, with three small additions made here on the way (a
Playwright route, nothing written into dist/): it keeps its Pyodide in `self.__relatePyodide`, and
a `{verdicts: {files, args}}` message writes the test files into its file system and runs the
verdict function.  Chromium missing: fails under CI, else skips (conftest.py's browser_context).
"""
from __future__ import annotations

import base64

from tests.pyodide import targets
from tests.pyodide.compare import report

# about 40 scenarios of each corpus, every golden case (the unit suite runs under Node only)
SAMPLE = ["--suite", "tck", "--suite", "neo4j5", "--suite", "golden", "--sample", "40"]
HARNESS = "__verdicts__.html"

EXPOSE = ("const pyodide = await loadPyodide({ indexURL });",
          "const pyodide = await loadPyodide({ indexURL });\n  self.__relatePyodide = pyodide;")
DISPATCH = ("self.onmessage = async (event) => {",
            "self.onmessage = async (event) => {\n"
            "  if (event.data?.verdicts) {\n"
            "    try { postMessage({ verdicts: await self.__verdicts(event.data.verdicts) }); }\n"
            "    catch (error) { postMessage({ verdictsFailed: String(error?.stack ?? error) }); }\n"
            "    return;\n"
            "  }")
HOOK = """
self.__verdicts = async ({ files, args }) => {
  await engine;
  const py = self.__relatePyodide;
  for (const [path, data] of Object.entries(files)) {
    py.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    py.FS.writeFile(path, Uint8Array.from(atob(data), (c) => c.charCodeAt(0)));
  }
  py.globals.set("ARGV", py.toPy(["/tmp/verdicts.json", ...args]));
  py.runPython(`
import sys
sys.dont_write_bytecode = True
sys.path[:0] = ["/src", "/extra"]
from tests.pyodide.verdicts import inside
inside(list(ARGV))
`);
  return py.FS.readFile("/tmp/verdicts.json", { encoding: "utf8" });
};
"""
RUN = """async ({ files, args }) => {
  const worker = new Worker("tryout/worker.js", { type: "module" });
  return await new Promise((resolve, reject) => {
    worker.onerror = (event) => reject(new Error(`worker error: ${event.message}`));
    worker.onmessage = (event) => {
      const m = event.data;
      if (m.type === "ready") worker.postMessage({ verdicts: { files, args } });
      else if (m.type === "failed") reject(new Error(`the worker did not start: ${m.message}`));
      else if (m.verdicts !== undefined) { worker.terminate(); resolve(m.verdicts); }
      else if (m.verdictsFailed !== undefined) { worker.terminate(); reject(new Error(m.verdictsFailed)); }
    };
  });
}"""


def _patched(source: str) -> str:
    for old, new in (EXPOSE, DISPATCH):
        assert source.count(old) == 1, f"worker.js no longer has `{old}`: update this test's patch"
        source = source.replace(old, new)
    return source + HOOK


def test_worker_verdicts_equal_native(browser_context, site_url, tmp_path):
    import json

    targets.check_ready()
    native = targets.start_native(tmp_path / "native.json", SAMPLE)
    files = {path: base64.b64encode(data).decode("ascii") for path, data in targets.fs_image().items()}
    served = []

    def worker_script(route):
        reply = route.fetch()
        served.append(reply.status)
        route.fulfill(response=reply, body=_patched(reply.text()),
                      headers={**reply.headers, "content-type": "text/javascript"})

    page = browser_context.new_page()
    try:
        page.route(site_url + HARNESS, lambda route: route.fulfill(
            status=200, content_type="text/html", body="<!doctype html><title>verdicts</title>"))
        page.route(site_url + "tryout/worker.js", worker_script)
        page.goto(site_url + HARNESS)
        worker_doc = json.loads(page.evaluate(RUN, {"files": files, "args": SAMPLE}))
    finally:
        page.close()
    native_doc = targets.finish(native, tmp_path / "native.json")

    assert served == [200], "the page's worker script was not the one served by the site"
    assert worker_doc["meta"]["platform"] == "emscripten"
    ids = [v["id"] for v in native_doc["verdicts"]]
    for prefix, least in (("tck:", 30), ("neo4j5:", 30), ("golden:", 90)):
        assert sum(i.startswith(prefix) for i in ids) >= least, prefix
    same, text = report(native_doc, worker_doc)
    print(text.splitlines()[-1])
    assert same, text
