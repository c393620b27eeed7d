// The page's side of the engine: starts web/tryout/worker.js (Pyodide + relate, off the main
// thread), forwards its load progress, and turns requests into messages -> window.relate.
// Test hook (kept by every page with tryouts):
//   await window.relate.ready
//   await window.relate.mcp(line, {readOnly})  -> reply line as `relate serve --mcp stdio` prints it, or null
//   await window.relate.cli(args, {env})       -> {stdout, stderr, exitCode} as `relate ARGS` prints them
//   await window.relate.cell(statement, parameters) -> a cell result on the page's database
//   window.relate.timings                      -> {steps: [{step, text, ms}], readyMs}: ms from navigation
//                                                 start to each loading step and to ready (for bench/)

const startupTasks = [];
const progressListeners = [];
let lastProgress = null;
const pending = new Map();
let nextId = 1;

function startWorker() {
  let worker;
  try {
    worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  } catch (error) {
    return Promise.reject(new Error(`this browser cannot start the engine's worker: ${error.message ?? error}`));
  }
  return new Promise((resolve, reject) => {
    worker.addEventListener("message", (event) => {
      const message = event.data;
      if (message.type === "progress") {
        announce(message);
      } else if (message.type === "ready") {
        resolve(worker);
      } else if (message.type === "failed") {
        reject(new Error(message.message));
      } else if (pending.has(message.id)) {
        const { resolve: done, reject: fail } = pending.get(message.id);
        pending.delete(message.id);
        if (message.error !== undefined) fail(new Error(message.error));
        else done(JSON.parse(message.answer));
      }
    });
    // A worker script that cannot load (or a browser without module workers) ends up here.
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      reject(new Error(`the engine's worker stopped: ${event.message || "its script could not be loaded"}`));
    });
  });
}

const engine = startWorker();

// UI modules follow the loading steps (the status line shows them).
export function onProgress(listener) {
  progressListeners.push(listener);
  if (lastProgress) listener(lastProgress);
}

// One request to relate.browser, answered in the worker.  Requests are served in order.
export async function request(message) {
  const worker = await engine;
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, request: JSON.stringify(message) });
  });
}

// UI modules register what must happen before the page counts as ready (the autorun cell).
export function atStartup(task) {
  startupTasks.push(task);
}

// ms since navigation start: when each loading step began, and when the page became ready
const timings = { steps: [], readyMs: null };

function announce(message) {
  timings.steps.push({ step: message.step, text: message.text, ms: performance.now() });
  lastProgress = message;
  for (const listener of progressListeners) listener(message);
}

export const ready = engine.then(async () => {
  if (startupTasks.length) announce({ type: "progress", step: 4, steps: 4, text: "Running the page's first cell…" });
  for (const task of startupTasks) await task();
  timings.readyMs = performance.now();
  return true;
});

window.relate = {
  ready,
  timings,
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
