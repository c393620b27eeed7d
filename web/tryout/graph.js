// A cell result that holds nodes, relationships or paths -> a Table / Graph switch above its
// table and, on demand, a picture of that graph drawn by the vendored cytoscape.js
// (vendor/cytoscape/, loaded the first time a reader asks for a picture; nothing is fetched
// from elsewhere).  The graph comes from the result's JSON `values` (relate.values.to_json):
//   node          {id, kind: "node", labels, properties}
//   relationship  {id, kind: "relationship", type, start_node, end_node, properties}
//   path          {kind: "path", length, elements: [node, relationship, node, ...]}
// found at any depth of a row (lists, maps).  A relationship whose end node is not in the
// result still gets that node, drawn hollow and named by its id only.
//
// Keyboard: the switch's buttons are in the Tab order; the picture takes focus, its arrow keys
// (and Home / End) step through the nodes, and the selected node is read out in a live line;
// a text list of every node and relationship sits under the picture (a button per node
// selects it in the picture).
import { el } from "./render.js";

const LIBRARY = new URL("../vendor/cytoscape/cytoscape.esm.min.mjs", import.meta.url).href;
const MAX_NODES = 300; // a bigger picture is a hairball that takes seconds to lay out
// label colours, in order of first appearance: readable with white text around, on a light or
// a dark page
const PALETTE = ["#4c8eda", "#f79767", "#57c7e3", "#8dcc93", "#d9c8ae", "#ecb5c9", "#c990c0", "#ffc454"];

let library = null;
const shown = new WeakMap(); // cell result element -> {cy, view} of its current result

document.head.append(el("link", { rel: "stylesheet", href: new URL("./graph.css", import.meta.url).href }));

function cytoscape() {
  library ??= import(LIBRARY).then((module) => module.default);
  return library;
}

function keys(value) {
  return Object.keys(value).sort().join(",");
}

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function isNode(v) {
  return isObject(v) && v.kind === "node" && keys(v) === "id,kind,labels,properties" &&
    Number.isInteger(v.id) && Array.isArray(v.labels) && isObject(v.properties);
}

function isRelationship(v) {
  return isObject(v) && v.kind === "relationship" &&
    keys(v) === "end_node,id,kind,properties,start_node,type" && Number.isInteger(v.id) &&
    Number.isInteger(v.start_node) && Number.isInteger(v.end_node) && isObject(v.properties);
}

function isPath(v) {
  return isObject(v) && v.kind === "path" && keys(v) === "elements,kind,length" && Array.isArray(v.elements);
}

// result -> {nodes: Map(id -> node), relationships: Map(id -> relationship)}, in order of
// first appearance; null when the result holds neither.
export function graphOf(result) {
  const nodes = new Map();
  const relationships = new Map();
  const visit = (value, mapColumn = false) => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
    } else if (!isObject(value)) {
      // a scalar: nothing to draw
    } else if (!mapColumn && isNode(value)) {
      if (!nodes.has(value.id) || nodes.get(value.id).missing) nodes.set(value.id, value);
    } else if (!mapColumn && isRelationship(value)) {
      relationships.set(value.id, value);
    } else if (!mapColumn && isPath(value)) {
      for (const element of value.elements) visit(element);
    } else {
      for (const item of Object.values(value)) visit(item);
    }
  };
  const types = result.columnTypes ?? [];
  for (const row of result.values ?? []) {
    // a MAP column's own values are maps, whatever keys they have; what they hold may be graph
    row.forEach((value, column) => visit(value, types[column] === "MAP"));
  }
  if (!nodes.size && !relationships.size) return null;
  for (const rel of relationships.values()) {
    for (const end of [rel.start_node, rel.end_node]) {
      if (!nodes.has(end)) nodes.set(end, { id: end, labels: [], properties: {}, missing: true });
    }
  }
  return { nodes, relationships };
}

// A value as the table writes it (Cypher literal style), for the text descriptions.
function literal(value) {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  if (isObject(value)) {
    if (isNode(value)) return nodeText(value);
    if (isRelationship(value)) return `[:${value.type}]`;
    return `{${Object.entries(value).map(([k, v]) => `${k}: ${literal(v)}`).join(", ")}}`;
  }
  return String(value);
}

function propertiesText(properties) {
  const entries = Object.entries(properties);
  return entries.length ? ` {${entries.map(([k, v]) => `${k}: ${literal(v)}`).join(", ")}}` : "";
}

function nodeText(node) {
  if (node.missing) return `node #${node.id} (not in the result)`;
  return `(${node.labels.map((l) => ":" + l).join("")}${propertiesText(node.properties)})`;
}

// What a node is called in the picture: its name-like property, else its first text property,
// else its first label, else its id.
function caption(node) {
  const properties = node.properties;
  for (const key of ["name", "title", "caption", "label"]) {
    if (typeof properties[key] === "string" || typeof properties[key] === "number") return String(properties[key]);
  }
  const text = Object.values(properties).find((v) => typeof v === "string");
  if (text !== undefined) return text;
  return node.labels[0] ?? `#${node.id}`;
}

function short(text, limit = 24) {
  return text.length > limit ? text.slice(0, limit - 1) + "…" : text;
}

function relationshipText(rel, nodes) {
  const end = (id) => short(caption(nodes.get(id)), 40);
  return `${end(rel.start_node)} -[:${rel.type}${propertiesText(rel.properties)}]-> ${end(rel.end_node)}`;
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

// The part of the graph the picture draws: at most MAX_NODES nodes and the relationships
// between them.
function drawn(graph) {
  const nodes = [...graph.nodes.values()].slice(0, MAX_NODES);
  const ids = new Set(nodes.map((n) => n.id));
  const relationships = [...graph.relationships.values()]
    .filter((r) => ids.has(r.start_node) && ids.has(r.end_node));
  return { nodes, relationships };
}

function colours(nodes) {
  const byLabel = new Map();
  for (const node of nodes) {
    const label = node.labels[0];
    if (label !== undefined && !byLabel.has(label)) byLabel.set(label, PALETTE[byLabel.size % PALETTE.length]);
  }
  return byLabel;
}

function cssVariable(element, name, fallback) {
  return getComputedStyle(element).getPropertyValue(name).trim() || fallback;
}

function stylesheet(figure) {
  const fg = cssVariable(figure, "--fg", "#1d232b");
  const bg = cssVariable(figure, "--bg", "#ffffff");
  const muted = cssVariable(figure, "--muted", "#5b6573");
  const accent = cssVariable(figure, "--accent", "#1f5fbf");
  return [
    { selector: "node", style: {
      "background-color": "data(colour)", width: 30, height: 30, label: "data(caption)", color: fg,
      "font-size": 11, "text-valign": "bottom", "text-margin-y": 4, "text-wrap": "ellipsis",
      "text-max-width": 110, "border-width": 1, "border-color": bg } },
    { selector: "node.missing", style: {
      "background-color": bg, "border-width": 2, "border-style": "dashed", "border-color": muted, color: muted } },
    { selector: "node:selected", style: { "border-width": 4, "border-color": accent } },
    { selector: "edge", style: {
      width: 1.5, "line-color": muted, "target-arrow-color": muted, "target-arrow-shape": "triangle",
      "curve-style": "bezier", label: "data(type)", "font-size": 9, color: muted,
      "text-rotation": "autorotate", "text-background-color": bg, "text-background-opacity": 1,
      "text-background-padding": 1 } },
    { selector: "edge:selected", style: { "line-color": accent, "target-arrow-color": accent, width: 3 } },
  ];
}

// The nodes start on a circle (in first-appearance order) and cose, with no random start,
// settles them from there: the same result gives the same picture every time.
function elements(part, colourOf) {
  const count = part.nodes.length;
  const radius = 40 * Math.max(1, count / 4);
  const nodes = part.nodes.map((node, i) => ({
    group: "nodes",
    data: { id: `n${node.id}`, caption: short(caption(node)), colour: colourOf.get(node.labels[0]) ?? "#a5abb6" },
    classes: node.missing ? "missing" : "",
    position: { x: radius * Math.cos((2 * Math.PI * i) / count), y: radius * Math.sin((2 * Math.PI * i) / count) },
  }));
  const edges = part.relationships.map((rel) => ({
    group: "edges",
    data: { id: `r${rel.id}`, source: `n${rel.start_node}`, target: `n${rel.end_node}`, type: rel.type },
  }));
  return [...nodes, ...edges];
}

function layoutOptions(count) {
  if (count <= 1) return { name: "grid", fit: true, padding: 40, animate: false };
  return { name: "cose", randomize: false, animate: false, fit: true, padding: 30,
           nodeDimensionsIncludeLabels: true, numIter: 1000 };
}

// The picture, its live line and its text list, for one result; the picture itself is drawn
// on first show (it needs the panel visible to know its size).
function graphPanel(graph) {
  const part = drawn(graph);
  const colourOf = colours(part.nodes);
  const total = `${plural(graph.nodes.size, "node")} and ${plural(graph.relationships.size, "relationship")}`;
  const cut = part.nodes.length < graph.nodes.size
    ? ` The picture shows the first ${part.nodes.length} nodes and the relationships between them.` : "";
  const canvas = el("div", {
    class: "graph-canvas", tabindex: "0", role: "group", "aria-roledescription": "graph picture",
    "aria-label": `Graph of ${total}. Arrow keys step through the nodes; the list below names them all.`,
  });
  const focusLine = el("p", { class: "graph-focus", "aria-live": "polite" },
    "Select a node (click it, or focus the picture and press an arrow key) to read it here.");
  const legend = el("p", { class: "graph-legend" }, ...[...colourOf].flatMap(([label, colour]) =>
    [el("span", { class: "graph-swatch", style: `background:${colour}`, "aria-hidden": "true" }), `:${label} `]));
  const nodeItems = [...graph.nodes.values()].map((node) =>
    el("li", {}, el("button", { type: "button", class: "graph-node", "data-node": String(node.id) },
      short(caption(node), 40)), " ", node.missing ? "(not in the result; a relationship in it ends here)" : nodeText(node)));
  const relItems = [...graph.relationships.values()].map((rel) => el("li", {}, relationshipText(rel, graph.nodes)));
  const list = el("details", { class: "graph-text" },
    el("summary", {}, `The graph as text: ${total}`),
    el("h5", {}, "Nodes"), el("ul", { class: "graph-nodes" }, ...nodeItems),
    ...(relItems.length ? [el("h5", {}, "Relationships"), el("ul", { class: "graph-relationships" }, ...relItems)] : []));
  const figure = el("figure", {
    class: "graph-view", "data-nodes": String(part.nodes.length),
    "data-relationships": String(part.relationships.length),
  }, canvas, el("figcaption", {}, legend, `${total}.${cut}`), focusLine, list);
  figure.hidden = true;

  let cy = null;
  let drawing = null;
  const order = part.nodes.map((n) => n.id);
  const select = (id) => {
    const node = graph.nodes.get(id);
    if (cy) {
      cy.$(":selected").unselect();
      cy.$id(`n${id}`).select();
    }
    figure.dataset.selected = String(id);
    const touching = part.relationships.filter((r) => r.start_node === id || r.end_node === id).length;
    focusLine.textContent = `Selected: ${nodeText(node)}, ${plural(touching, "relationship")} in the picture.`;
  };
  const step = (delta) => {
    if (!order.length) return;
    const at = order.indexOf(Number(figure.dataset.selected));
    const next = at < 0 ? (delta > 0 ? 0 : order.length - 1) : (at + delta + order.length) % order.length;
    select(order[next]);
  };
  canvas.addEventListener("keydown", (event) => {
    const moves = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    if (event.key in moves) step(moves[event.key]);
    else if (event.key === "Home" && order.length) select(order[0]);
    else if (event.key === "End" && order.length) select(order[order.length - 1]);
    else if (event.key === "Escape") {
      cy?.$(":selected").unselect();
      delete figure.dataset.selected;
      return;
    } else return;
    event.preventDefault();
  });
  list.addEventListener("click", (event) => {
    const button = event.target.closest(".graph-node");
    if (!button) return;
    const id = Number(button.dataset.node);
    if (order.includes(id)) select(id);
    else focusLine.textContent = `${nodeText(graph.nodes.get(id))}: not in the picture (it is past the first ${MAX_NODES}).`;
  });

  const draw = () => {
    drawing ??= cytoscape().then((make) => new Promise((resolve) => {
      cy = make({
        container: canvas, elements: elements(part, colourOf), style: stylesheet(figure),
        // the wheel scrolls the page, as everywhere else on it; dragging pans or moves a node
        layout: { name: "preset" }, userZoomingEnabled: false, boxSelectionEnabled: false,
      });
      cy.on("tap", "node", (event) => select(Number(event.target.id().slice(1))));
      if (figure.dataset.selected) cy.$id(`n${figure.dataset.selected}`).select(); // chosen in the list meanwhile
      const layout = cy.layout(layoutOptions(part.nodes.length));
      layout.one("layoutstop", () => {
        // two frames: cytoscape paints on the next animation frame after the layout
        requestAnimationFrame(() => requestAnimationFrame(() => {
          figure.dataset.drawn = "1"; // lets a test wait for the picture
          resolve(cy);
        }));
      });
      layout.run();
    }));
    return drawing;
  };
  const destroy = () => cy?.destroy();
  return { figure, draw, destroy };
}

function viewSwitch(choose) {
  const buttons = ["table", "graph"].map((view) =>
    el("button", { type: "button", class: "view-choice", "data-view": view, "aria-pressed": String(view === "table") },
      view === "table" ? "Table" : "Graph"));
  for (const button of buttons) button.addEventListener("click", () => choose(button.dataset.view));
  const group = el("div", { class: "view-switch", role: "group", "aria-label": "Show the result as" }, ...buttons);
  return { group, buttons };
}

// The hook: after a cell's result is put in `output`, add the switch and the (hidden) picture
// when the result holds graph values.  A reader who chose the picture keeps it on the next run.
export function addGraphView(output, result) {
  const previous = shown.get(output);
  previous?.panel.destroy();
  shown.delete(output);
  const graph = result && !result.error ? graphOf(result) : null;
  if (!graph) return;
  const table = output.querySelector(".table-scroll");
  const panel = graphPanel(graph);
  const state = { panel, view: "table" };
  const { group, buttons } = viewSwitch((view) => {
    state.view = view;
    for (const button of buttons) button.setAttribute("aria-pressed", String(button.dataset.view === view));
    if (table) table.hidden = view === "graph";
    panel.figure.hidden = view !== "graph";
    if (view === "graph") panel.draw().catch((error) => {
      console.error(error);
      panel.figure.replaceChildren(el("p", { class: "cell-error" }, `The picture could not be drawn: ${error.message ?? error}`));
    });
  });
  if (table) table.before(group);
  else output.prepend(group);
  (table ?? group).after(panel.figure);
  shown.set(output, state);
  if (previous?.view === "graph") buttons[1].click();
}
