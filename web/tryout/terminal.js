// The CLI terminal: statement + output mode (+ --max-rows) + agent-harness switch -> the
// arguments and environment of one `relate` run, executed in-page with stdout not a terminal;
// shows the command line, stdout, stderr and the exit code.  Each run is its own process as
// far as relate can tell: it opens a fresh :memory: database.
import { onSubmitKey } from "./render.js";

// POSIX shell quoting, for showing a command a reader can paste into a shell.  Cypher is full
// of single quotes, so prefer double quotes whenever nothing inside them would be expanded.
function shellQuote(word) {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  if (!word.includes("'")) return `'${word}'`;
  if (!/["$`\\!]/.test(word)) return `"${word}"`;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

function setUp(terminal) {
  const field = (name) => terminal.querySelector(name);
  const statement = field(".term-statement");
  const mode = field(".term-mode");
  const maxRows = field(".term-rows");
  const harness = field(".term-harness");
  const preset = field(".term-preset");
  const button = field(".term-run");
  let runs = 0;

  function invocation() {
    const args = ["--mode", mode.value];
    if (maxRows.value.trim() !== "") args.push("--max-rows", maxRows.value.trim());
    args.push(statement.value);
    const env = harness.checked ? { CLAUDECODE: "1" } : {};
    return { args, env };
  }

  async function run() {
    const { args, env } = invocation();
    const prefix = Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)} `).join("");
    field(".term-command").textContent = `$ ${prefix}relate ${args.map(shellQuote).join(" ")}`;
    button.disabled = true;
    try {
      const { stdout, stderr, exitCode } = await window.relate.cli(args, { env });
      field(".term-stdout").textContent = stdout;
      field(".term-stderr").textContent = stderr;
      field(".term-code").textContent = String(exitCode);
      terminal.classList.toggle("failed", exitCode !== 0);
    } catch (error) {
      field(".term-stdout").textContent = "";
      field(".term-stderr").textContent = String(error.message ?? error);
      field(".term-code").textContent = "?";
    } finally {
      button.disabled = false;
    }
    terminal.dataset.args = JSON.stringify(args); // what ran, for tests and curious readers
    terminal.dataset.env = JSON.stringify(env);
    terminal.dataset.runs = String(++runs);
  }

  button.addEventListener("click", run);
  onSubmitKey(statement, run);
  if (preset) {
    preset.addEventListener("change", () => {
      if (preset.value) statement.value = preset.value;
    });
  }
}

for (const terminal of document.querySelectorAll(".terminal")) setUp(terminal);
