// Entry of every page with tryouts: starts the engine, wires the cells, the MCP buttons and
// the terminal, and reports in the status line whether relate is running in the page.
import { ready } from "./relate.js";
import "./cells.js";
import "./mcp.js";
import "./terminal.js";
import { autoGrow } from "./render.js";

for (const area of document.querySelectorAll("main textarea")) autoGrow(area);

const status = document.getElementById("relate-status");
if (status) status.textContent = "Loading relate into this page (Pyodide, about 6 MB)…";

ready.then(
  () => {
    if (status) status.textContent = "relate is running in this page. Every tryout below uses it.";
    for (const button of document.querySelectorAll("main button")) button.disabled = false;
  },
  (error) => {
    console.error(error);
    if (status) {
      status.classList.add("error");
      status.textContent = `relate could not start in this browser: ${error.message ?? error}`;
    }
  },
);
