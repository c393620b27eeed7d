// The page's engine, in a Web Worker so the page never freezes while Pyodide starts or a long
// statement runs.  The vendored Pyodide runtime + the wheels listed in wheels/manifest.json ->
// relate.browser.call, reached by messages:
//
//   worker -> page  {type: "progress", step, steps, text}   while loading (steps 1..3 of 4)
//                   {type: "ready"} | {type: "failed", message}
//   page -> worker  {id, request: "<JSON>"}
//   worker -> page  {id, answer: "<JSON>"} | {id, error: "<text>"}
//
// Everything comes from the site's own folder: no CDN, no PyPI, no micropip.
import { loadPyodide } from "../vendor/pyodide/pyodide.mjs";

const site = new URL("../", import.meta.url);
const STEPS = 4; // the 4th, running the page's first cell, is relate.js's

function progress(step, text) {
  postMessage({ type: "progress", step, steps: STEPS, text });
}

// Pyodide's loader never settles when one of its files fails to arrive (it logs a warning and
// waits), so ask for each of them first: a missing file then fails the start with its name.
const RUNTIME_FILES = ["pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];

async function checkRuntime(indexURL) {
  const missing = [];
  await Promise.all(RUNTIME_FILES.map(async (name) => {
    const reply = await fetch(new URL(name, indexURL), { method: "HEAD" }).catch(() => null);
    if (!reply?.ok) missing.push(`${name} (${reply ? `HTTP ${reply.status}` : "no answer"})`);
  }));
  if (missing.length) throw new Error(`the Python runtime is incomplete on the server: ${missing.join(", ")}`);
}

async function start() {
  progress(1, "Loading the Python runtime (Pyodide, about 6 MB compressed)…");
  const indexURL = new URL("vendor/pyodide/", site).href;
  await checkRuntime(indexURL);
  const pyodide = await loadPyodide({ indexURL });
  const response = await fetch(new URL("wheels/manifest.json", site));
  if (!response.ok) throw new Error(`wheels/manifest.json: HTTP ${response.status}`);
  const manifest = await response.json();
  const urls = manifest.wheels.map((name) => new URL("wheels/" + name, site).href);
  progress(2, `Installing relate and its dependencies (${urls.length} wheels)…`);
  // loadPackage resolves even when a wheel failed to download or install, leaving the engine
  // half-installed; collect its errors and count what it loaded, and refuse to start otherwise.
  const errors = [];
  const loaded = await pyodide.loadPackage(urls, {
    messageCallback: () => {},
    errorCallback: (message) => errors.push(message),
  });
  if (errors.length || loaded.length !== urls.length) {
    throw new Error(`installing wheels failed (${loaded.length}/${urls.length}): ${errors.join("; ")}`);
  }
  progress(3, "Starting the engine…");
  return pyodide.pyimport(manifest.module).call; // JSON string in, JSON string out
}

const engine = start();
engine.then(
  () => postMessage({ type: "ready" }),
  (error) => postMessage({ type: "failed", message: String(error?.message ?? error) }),
);

// Requests run one at a time, in the order they arrive: `call` is synchronous.
self.onmessage = async (event) => {
  const { id, request } = event.data;
  try {
    const call = await engine;
    postMessage({ id, answer: call(request) });
  } catch (error) {
    postMessage({ id, error: String(error?.message ?? error) });
  }
};
