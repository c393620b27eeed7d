// Cypher cells: each runs its (editable) statement on the page's one database and shows the
// rows as a table, or the counters of a write.  The cell marked data-autorun runs at start-up,
// before the page counts as ready, so every other tryout sees its graph.
import { atStartup, request } from "./relate.js";
import { cellResult, onSubmitKey } from "./render.js";
import { addGraphView } from "./graph.js";

async function run(cell) {
  const source = cell.querySelector(".cell-source");
  const output = cell.querySelector(".cell-result");
  const button = cell.querySelector(".cell-run");
  button.disabled = true;
  try {
    const result = await request({ op: "cell", statement: source.value });
    output.replaceChildren(...cellResult(result));
    addGraphView(output, result);
  } catch (error) {
    output.replaceChildren(...cellResult({ error: String(error.message ?? error) }));
    throw error;
  } finally {
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
