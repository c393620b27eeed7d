// MCP call buttons: each builds the JSON-RPC `tools/call` request an agent host would send to
// `relate serve --mcp stdio`, passes it to the page's MCP core (window.relate.mcp) and shows
// the request line, the reply line, and a readable decoding of the reply.  The read-only
// switch sends the same request to the read-only core, as a server started --read-only.
import { el, onSubmitKey, rowsTable } from "./render.js";

let nextId = 1; // one id sequence per page, as one host session would use

// A panel with data-era="2026-07-28" speaks that revision: every request carries the protocol
// version (and the client's capabilities and identity) in params._meta.
function requestLine(method, params, era = null) {
  const message = { jsonrpc: "2.0", id: nextId++, method };
  if (era) {
    const meta = {
      "io.modelcontextprotocol/protocolVersion": era,
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": { name: "relate-docs", version: "1" },
    };
    params = { _meta: meta, ...(params ?? {}) };
  }
  if (params !== undefined) message.params = params;
  return JSON.stringify(message);
}

// data-serve: the `relate serve` flags of the panel's core -> window.relate.mcp's options
function serveOptions(panel) {
  const flags = JSON.parse(panel.dataset.serve || "[]");
  const options = {};
  for (let i = 0; i < flags.length; i++) {
    if (flags[i] === "--result-budget-bytes") options.resultBudgetBytes = Number(flags[++i]);
    else if (flags[i] === "--call-timeout-secs") options.callTimeoutSecs = Number(flags[++i]);
    else if (flags[i] === "--structured-content") options.structuredContent = true;
    else throw new Error(`unknown serve flag ${flags[i]}`);
  }
  return options;
}

function jsonObject(text, what) {
  let value;
  try {
    value = JSON.parse(text.trim() || "{}");
  } catch (error) {
    throw new Error(`${what} is not valid JSON: ${error.message}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new Error(`${what} must be a JSON object`);
  }
  return value;
}

function cellText(value) {
  return typeof value === "string" ? value : JSON.stringify(value);
}

// The reply line -> what a person wants to see of it.
function decode(reply) {
  if (reply === null) return [el("p", {}, "No reply: that was a notification.")];
  const message = JSON.parse(reply);
  if (message.error) {
    const subcode = message.error.data?.subcode ? ` (${message.error.data.subcode})` : "";
    return [el("p", { class: "cell-error" }, `JSON-RPC error ${message.error.code}${subcode}: ${message.error.message}`)];
  }
  const result = message.result ?? {};
  if (Array.isArray(result.tools)) {
    return [el("p", {}, "Tools listed: " + result.tools.map((t) => t.name).join(", "))];
  }
  if (!Array.isArray(result.content)) return [el("pre", { class: "code" }, JSON.stringify(result, null, 2))];
  const text = result.content.map((c) => c.text).join("\n");
  if (result.isError) return [el("p", { class: "cell-error" }, `Tool error: ${text}`)];
  let payload;
  try {
    payload = JSON.parse(text);
  } catch {
    return [el("pre", { class: "code" }, text)];
  }
  if (Array.isArray(payload.columns) && Array.isArray(payload.rows)) {
    const nodes = [];
    if (payload.columns.length) {
      // read_cypher's rows are objects keyed by column; cypher_query's are lists in column order
      const cells = (row) => (Array.isArray(row) ? row.map(cellText) : payload.columns.map((c) => cellText(row[c])));
      nodes.push(...rowsTable(payload.columns, payload.rows.map(cells)));
    }
    const counters = Object.entries(payload.stats ?? {}).filter(([, n]) => n).map(([k, n]) => `${k} ${n}`);
    const cut = payload.rowCap ? ` of ${payload.rowCap.total} (cut by the result budget)` : "";
    const rows = (payload.rows.length === 1 ? "1 row" : `${payload.rows.length} rows`) + cut;
    const cache = payload.plan_cache === undefined ? "" : ` · plan cache: ${payload.plan_cache}`;
    const replayed = payload.replayed ? " · replayed" : "";
    nodes.push(el("p", { class: "cell-summary" }, [rows, ...counters].join(" · ") + cache + replayed));
    return nodes;
  }
  return [el("pre", { class: "code" }, JSON.stringify(payload, null, 2))];
}

function setUp(panel) {
  const readOnly = panel.querySelector(".mcp-readonly");
  const exchange = panel.querySelector(".mcp-exchange");
  const shown = {
    request: panel.querySelector(".mcp-request"),
    reply: panel.querySelector(".mcp-reply"),
    decoded: panel.querySelector(".mcp-decoded"),
  };
  let calls = 0;

  // The request and reply go right under what was pressed, not below every other call form.
  function placeExchange(pressed) {
    const anchor = pressed.closest(".mcp-call") ?? pressed.closest(".bar");
    if (anchor.nextElementSibling !== exchange) anchor.after(exchange);
  }

  // A reply reaching below the screen scrolls up into view, as far as its top edge allows.
  function showExchange() {
    const box = exchange.getBoundingClientRect();
    const below = box.bottom - window.innerHeight + 16;
    if (below > 0) window.scrollBy(0, Math.min(below, box.top - 16));
  }

  async function send(build, pressed) {
    placeExchange(pressed);
    let line;
    try {
      line = build();
    } catch (error) {
      shown.request.textContent = "";
      shown.reply.textContent = "";
      shown.decoded.replaceChildren(el("p", { class: "cell-error" }, error.message));
      return;
    }
    const options = { readOnly: readOnly.checked, tools: panel.dataset.tools || null, ...serveOptions(panel) };
    shown.request.textContent = line;
    shown.reply.textContent = "…";
    shown.decoded.replaceChildren();
    try {
      const reply = await window.relate.mcp(line, options);
      shown.reply.textContent = reply ?? "(none)";
      shown.decoded.replaceChildren(...decode(reply));
    } catch (error) {
      shown.reply.textContent = "";
      shown.decoded.replaceChildren(el("p", { class: "cell-error" }, String(error.message ?? error)));
    }
    showExchange();
    exchange.dataset.readOnly = String(options.readOnly);
    exchange.dataset.calls = String(++calls); // lets a test wait for this very reply
  }

  const era = panel.dataset.era || null;
  const list = panel.querySelector(".mcp-list");
  list.addEventListener("click", () => send(() => requestLine("tools/list", undefined, era), list));
  const discover = panel.querySelector(".mcp-discover");
  discover?.addEventListener("click", () => send(() => requestLine("server/discover", undefined, era), discover));

  for (const form of panel.querySelectorAll(".mcp-call")) {
    const tool = form.dataset.tool;
    const statement = form.querySelector(".mcp-statement");
    const parameters = form.querySelector(".mcp-parameters");
    const extra = form.querySelector(".mcp-arguments");
    const build = () => {
      let args = {};
      if (statement) {
        args[statement.dataset.field || "statement"] = statement.value;
        args.parameters = jsonObject(parameters.value, "parameters");
      }
      if (extra) args = { ...args, ...jsonObject(extra.value, "arguments") };
      return requestLine("tools/call", { name: tool, arguments: args }, era);
    };
    const go = () => send(build, form);
    form.querySelector(".mcp-send").addEventListener("click", go);
    for (const field of form.querySelectorAll("textarea")) onSubmitKey(field, go);
  }
}

for (const panel of document.querySelectorAll(".mcp")) setUp(panel);
