// Entry of every page with tryouts: starts the engine (in a worker), wires the cells, the MCP
// buttons and the terminals, and keeps the status line telling the reader where loading stands:
// each loading step with a progress bar, then "running", or why relate could not start.
import { onProgress, ready } from "./relate.js";
import "./cells.js";
import "./mcp.js";
import "./terminal.js";
import { autoGrow } from "./render.js";

for (const area of document.querySelectorAll("main textarea")) autoGrow(area);

const status = document.getElementById("relate-status");
const text = status?.querySelector(".status-text");
const bar = status?.querySelector("progress");

function show(message) {
  if (text) text.textContent = message;
  else if (status) status.textContent = message;
}

show("Loading relate into this page…");
onProgress(({ step, steps, text: message }) => {
  show(`${message} (step ${step} of ${steps})`);
  if (bar) {
    bar.max = steps;
    bar.value = step - 1;
  }
});

// On a slow machine or connection the first step can take a while; say that it is still going.
const slow = setTimeout(() => {
  if (text && !status.classList.contains("error")) {
    text.textContent += " Still loading: the runtime is large, and this machine or connection is slow.";
  }
}, 45_000);

ready.then(
  () => {
    clearTimeout(slow);
    show("relate is running in this page. Every tryout on it uses it.");
    if (bar) bar.hidden = true;
    status?.classList.add("ready");
    for (const button of document.querySelectorAll("main button")) button.disabled = false;
  },
  (error) => {
    clearTimeout(slow);
    console.error(error);
    if (bar) bar.hidden = true;
    status?.classList.add("error");
    show(`relate could not start in this browser, so the tryouts on this page cannot run ` +
         `(the text and the recorded results still read fine): ${error.message ?? error}`);
  },
);
