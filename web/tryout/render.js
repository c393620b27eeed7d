// Small DOM helpers shared by the tryouts: element building and the result table.  The table
// markup matches what build/blocks.py pre-renders, so a live result replaces a built one in place.

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "class") node.className = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

// columns: [name], rows: [[text]] -> a scrollable table (narrow screens scroll it sideways).
export function table(columns, rows) {
  const head = el("tr", {}, ...columns.map((c) => el("th", { scope: "col" }, c)));
  const body = rows.map((row) => el("tr", {}, ...row.map((v) => el("td", {}, v))));
  return el("div", { class: "table-scroll" },
    el("table", { class: "cell-table" }, el("thead", {}, head), el("tbody", {}, ...body)));
}

// A result shows at most this many rows, then how many it has (build/blocks.py: SHOWN_ROWS):
// thousands of table rows would bury the page and take seconds to lay out.
export const SHOWN_ROWS = 50;

// columns, rows -> [table of the first SHOWN_ROWS rows] + a line saying so when rows were left out.
export function rowsTable(columns, rows) {
  const nodes = [table(columns, rows.slice(0, SHOWN_ROWS))];
  if (rows.length > SHOWN_ROWS) {
    nodes.push(el("p", { class: "cell-cut" }, `Showing the first ${SHOWN_ROWS} of ${rows.length} rows.`));
  }
  return nodes;
}

// A cell result from relate.browser -> nodes: table (when there are columns) + summary line.
export function cellResult(result) {
  if (result.error) return [el("p", { class: "cell-error" }, result.error)];
  const nodes = [];
  if (result.columns.length) nodes.push(...rowsTable(result.columns, result.rows));
  nodes.push(el("p", { class: "cell-summary" }, result.summary));
  return nodes;
}

// Ctrl+Enter (or Cmd+Enter) in a text field runs its tryout.
export function onSubmitKey(field, action) {
  field.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      action();
    }
  });
}

// A text field as tall as its content, so no statement hides behind a scrollbar.
export function autoGrow(area) {
  const fit = () => {
    area.style.height = "auto";
    area.style.height = `${area.scrollHeight + area.offsetHeight - area.clientHeight}px`;
  };
  area.addEventListener("input", fit);
  window.addEventListener("resize", fit);
  fit();
}
