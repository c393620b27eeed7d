// The page's side of the engine: starts web/tryout/worker.js (Pyodide + relate, off the main
// thread), forwards its load progress, and turns requests into messages -> window.relate.
// Test hook (kept by every page with tryouts):
//   await window.relate.ready
//   await window.relate.mcp(line, {readOnly, tools, resultBudgetBytes, structuredContent, callTimeoutSecs})
//                                              -> reply line as `relate serve --mcp stdio [--read-only]
//                                                 [--tools TOOLS] [--result-budget-bytes N]
//                                                 [--structured-content] [--call-timeout-secs N]` prints it, or null
//   await window.relate.cli(args, {env})       -> {stdout, stderr, exitCode} as `relate ARGS` prints them
//   await window.relate.cell(statement, parameters) -> a cell result on the page's database
//   window.relate.timings                      -> {steps: [{step, text, ms}], readyMs}: ms from navigation
//                                                 start to each loading step and to ready (for bench/)
// A running request can be stopped (stop(id)): the worker is restarted and the database rebuilt.

const startupTasks = [];
const progressListeners = [];
let lastProgress = null;
const pending = new Map(); // id -> {resolve, reject, message}: sent, not answered yet
let nextId = 1;
// The requests that reached the page's database and were answered, in the order the worker ran
// them: a restarted worker replays them to rebuild the same database (and plan cache).
const journal = [];
const replies = new Map(); // id -> callback, for the replayed requests of a restart

function answered(message, answer) {
  if ((message.op === "cell" && !answer.error) || message.op === "mcp") journal.push(message);
}

// quiet: a restart, whose loading steps are the stopped cell's to show, not the status line's
function startWorker({ quiet = false } = {}) {
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
        if (!quiet) announce(message);
      } else if (message.type === "ready") {
        resolve(worker);
      } else if (message.type === "failed") {
        reject(new Error(message.message));
      } else if (pending.has(message.id)) {
        const { resolve: done, reject: fail, message: asked } = pending.get(message.id);
        pending.delete(message.id);
        if (message.error !== undefined) {
          fail(new Error(message.error));
        } else {
          const answer = JSON.parse(message.answer);
          answered(asked, answer);
          done(answer);
        }
      } else if (replies.has(message.id)) {
        replies.get(message.id)(message);
      }
    });
    // A worker script that cannot load (or a browser without module workers) ends up here.
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      reject(new Error(`the engine's worker stopped: ${event.message || "its script could not be loaded"}`));
    });
  });
}

let engine = startWorker();

// UI modules follow the loading steps (the status line shows them).
export function onProgress(listener) {
  progressListeners.push(listener);
  if (lastProgress) listener(lastProgress);
}

// One request to relate.browser, answered in the worker.  Requests are served in order.
// -> {id, answer}: the id lets the caller stop it (stop(id)); answer is the promise of the reply.
export function send(message) {
  const id = nextId++;
  const answer = new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject, message });
    engine.then((worker) => {
      if (pending.has(id)) worker.postMessage({ id, request: JSON.stringify(message) });
    }, reject);
  });
  return { id, answer };
}

export function request(message) {
  return send(message).answer;
}

export class Stopped extends Error {}

// Stop request `id` while it runs: the worker is ended (a statement cannot be interrupted inside
// it), a new one started, the journal replayed into its database, and the requests that waited
// behind the stopped one sent again.  -> the number of requests replayed.
export async function stop(id, onStep = () => {}) {
  const stopped = pending.get(id);
  if (!stopped) return 0;
  pending.delete(id);
  const old = await engine;
  old.terminate();
  const waiting = [...pending.entries()];
  let done, failed;
  engine = new Promise((resolve, reject) => { done = resolve; failed = reject; });
  onStep("Restarting relate in this page…");
  let worker;
  try {
    worker = await startWorker({ quiet: true });
  } catch (error) {
    failed(error);
    for (const [, { reject }] of pending) reject(error);
    stopped.reject(error);
    throw error;
  }
  onStep(`Rebuilding the page's database (${journal.length} statements)…`);
  const replay = journal.splice(0);
  for (const message of replay) {
    const replyId = nextId++;
    const reply = await new Promise((resolve) => {
      replies.set(replyId, resolve);
      worker.postMessage({ id: replyId, request: JSON.stringify(message) });
    });
    replies.delete(replyId);
    if (reply.error === undefined) journal.push(message);
  }
  for (const [waitingId, { message }] of waiting) {
    worker.postMessage({ id: waitingId, request: JSON.stringify(message) });
  }
  done(worker);
  const count = replay.length === 1 ? "1 earlier request" : `${replay.length} earlier requests`;
  stopped.reject(new Stopped(`relate restarted in this page and rebuilt its database from the ${count}`));
  return replay.length;
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
  async mcp(line, { readOnly = false, tools = null, resultBudgetBytes = null, structuredContent = false,
                    callTimeoutSecs = null } = {}) {
    await ready;
    const message = { op: "mcp", line, read_only: Boolean(readOnly) };
    if (tools) message.tools = String(tools);
    // `relate serve --result-budget-bytes N`, `--structured-content`, `--call-timeout-secs N`
    if (resultBudgetBytes) message.result_budget_bytes = Number(resultBudgetBytes);
    if (structuredContent) message.structured_content = true;
    if (callTimeoutSecs) message.call_timeout_secs = Number(callTimeoutSecs);
    const answer = await request(message);
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
