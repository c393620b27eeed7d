// The vendored Pyodide runtime + the wheels listed in wheels/manifest.json -> window.relate,
// this page's relate engine.  Everything comes from the site's own folder: no CDN, no PyPI,
// no micropip.  Test hook (kept by every page with tryouts):
//   await window.relate.ready
//   await window.relate.mcp(line, {readOnly})  -> reply line as `relate serve --mcp stdio` prints it, or null
//   await window.relate.cli(args, {env})       -> {stdout, stderr, exitCode} as `relate ARGS` prints them
//   await window.relate.cell(statement, parameters) -> a cell result on the page's database
import { loadPyodide } from "../vendor/pyodide/pyodide.mjs";

const site = new URL("../", import.meta.url);
const startupTasks = [];

async function loadEngine() {
  const pyodide = await loadPyodide({ indexURL: new URL("vendor/pyodide/", site).href });
  const response = await fetch(new URL("wheels/manifest.json", site));
  if (!response.ok) throw new Error(`wheels/manifest.json: HTTP ${response.status}`);
  const manifest = await response.json();
  const urls = manifest.wheels.map((name) => new URL("wheels/" + name, site).href);
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
  return pyodide.pyimport(manifest.module).call; // JSON string in, JSON string out
}

const engine = loadEngine();

// One request to relate.browser.  Calls run synchronously on the main thread, one at a time.
export async function request(message) {
  const call = await engine;
  return JSON.parse(call(JSON.stringify(message)));
}

// UI modules register what must happen before the page counts as ready (the autorun cell).
export function atStartup(task) {
  startupTasks.push(task);
}

export const ready = engine.then(async () => {
  for (const task of startupTasks) await task();
  return true;
});

window.relate = {
  ready,
  async mcp(line, { readOnly = false } = {}) {
    await ready;
    const answer = await request({ op: "mcp", line, read_only: Boolean(readOnly) });
    return answer.reply ?? null;
  },
  async cli(args, { env = {} } = {}) {
    await ready;
    return request({ op: "cli", args: [...args], env: { ...env } });
  },
  async cell(statement, parameters = {}) {
    await ready;
    return request({ op: "cell", statement, parameters });
  },
};
