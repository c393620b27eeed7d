// Cypher cells: each runs its (editable) statement on the page's one database and shows the
// rows as a table, or the counters of a write.  The cell marked data-autorun runs at start-up,
// before the page counts as ready, so every other tryout sees its graph.  A run shows that it
// runs (with the seconds it has taken) and a Stop button, which restarts the engine with the
// page's database rebuilt (relate.js: stop).
import { atStartup, send, stop, Stopped } from "./relate.js";
import { cellResult, el, onSubmitKey } from "./render.js";
import { addGraphView } from "./graph.js";

// "Running… 3 s" and a Stop button beside the Run button while a run lasts
// -> {end(), stoppedAt: ms when Stop was pressed, or null}.
function showRunning(cell, id, started) {
  const shownRun = { stoppedAt: null };
  const bar = cell.querySelector(".bar");
  const note = el("span", { class: "cell-running", role: "status" }, "Running…");
  const button = el("button", { type: "button", class: "cell-stop" }, "Stop");
  const tick = setInterval(() => {
    if (!button.disabled) note.textContent = `Running… ${Math.floor((performance.now() - started) / 1000)} s`;
  }, 250);
  button.addEventListener("click", () => {
    button.disabled = true;
    shownRun.stoppedAt = performance.now();
    stop(id, (step) => { note.textContent = step; }).catch((error) => console.error(error));
  });
  // a quick run shows nothing of this: it appears once a run has taken a moment
  const shown = setTimeout(() => bar.append(note, button), 300);
  shownRun.end = () => {
    clearTimeout(shown);
    clearInterval(tick);
    note.remove();
    button.remove();
  };
  return shownRun;
}

function stoppedNote(seconds, error) {
  return [el("p", { class: "cell-stopped" },
    `Stopped after ${seconds.toFixed(1)} s; the statement left nothing behind. ${error.message}.`)];
}

async function run(cell) {
  const source = cell.querySelector(".cell-source");
  const output = cell.querySelector(".cell-result");
  const button = cell.querySelector(".cell-run");
  button.disabled = true;
  const started = performance.now();
  const { id, answer } = send({ op: "cell", statement: source.value });
  const shownRun = showRunning(cell, id, started);
  try {
    const result = await answer;
    output.replaceChildren(...cellResult(result));
    addGraphView(output, result);
  } catch (error) {
    if (error instanceof Stopped) {
      output.replaceChildren(...stoppedNote((shownRun.stoppedAt - started) / 1000, error));
      return;
    }
    output.replaceChildren(...cellResult({ error: String(error.message ?? error) }));
    throw error;
  } finally {
    shownRun.end();
    button.disabled = false;
    cell.dataset.runs = String(Number(cell.dataset.runs || "0") + 1); // lets a test wait for this run
  }
}

for (const cell of document.querySelectorAll(".cell")) {
  const go = () => run(cell).catch((error) => console.error(error));
  cell.querySelector(".cell-run").addEventListener("click", go);
  onSubmitKey(cell.querySelector(".cell-source"), go);
  if (cell.hasAttribute("data-autorun")) atStartup(() => run(cell));
}
