"""Executable fenced blocks of a page -> the HTML the tryout scripts bring to life.

    ```cypher run         a Cypher cell: editable statement, Run button, result (pre-rendered at
                          build time by the same `relate.browser` code the page runs)
    ```mcp                MCP call buttons, from {"calls": [{"tool": ..., "arguments": {...}}]} and
                          optionally "tools" (the page core's `relate serve --tools`), "serve"
                          (its budget flags: --result-budget-bytes, --structured-content,
                          --call-timeout-secs) and "era": "2026-07-28" (requests carry `_meta`)
    ```terminal           a CLI terminal, from {"statement": ..., "mode": ..., "harness": ...,
                          "presets": [{"label": ..., "statement": ...}]}
    ```bash verify        shell commands whose output (the next ```text block) the test suite
                          checks against the native binary (see build/verify.py)
    ```errors             the errors reference, generated from the error tree (build/errors_ref.py)

The first Cypher cell of a page is marked `data-autorun`: the page runs it on its database as
soon as the engine is up, so the other tryouts see the example graph.  Everything here works
as plain HTML too (the statement and its result are readable before, or without, JavaScript).
"""
from __future__ import annotations

import html
import json
from typing import Callable

import errors_ref
from markdown import Fence, code_block

CellRunner = Callable[[str], dict]
MODES = ("table", "envelope", "jsonl", "toon")


def _attr(value: str) -> str:
    return html.escape(value, quote=True)


# A result shows at most this many rows, then says how many it has (web/tryout/render.js: SHOWN_ROWS)
SHOWN_ROWS = 50


def cut_note_html(total: int) -> str:
    """The line under a table that shows only the first SHOWN_ROWS of `total` rows, or ''."""
    if total <= SHOWN_ROWS:
        return ""
    return f'<p class="cell-cut">Showing the first {SHOWN_ROWS} of {total} rows.</p>'


def result_html(result: dict) -> str:
    """A cell result (the JSON `relate.browser` returns) -> table + summary line.  The page's
    cells.js renders the live result with the same markup."""
    if result.get("error"):
        return f'<p class="cell-error">{html.escape(result["error"])}</p>'
    out = []
    if result["columns"]:
        head = "".join(f"<th scope=\"col\">{html.escape(c)}</th>" for c in result["columns"])
        body = "".join("<tr>" + "".join(f"<td>{html.escape(v)}</td>" for v in row) + "</tr>"
                       for row in result["rows"][:SHOWN_ROWS])
        out.append(f'<div class="table-scroll"><table class="cell-table"><thead><tr>{head}</tr>'
                   f"</thead><tbody>{body}</tbody></table></div>")
        out.append(cut_note_html(len(result["rows"])))
    out.append(f'<p class="cell-summary">{html.escape(result["summary"])}</p>')
    return "".join(out)


class Blocks:
    """The block callback for one page.  `run_cell` (build-time engine) may be None: the cells
    are then left for the browser to fill."""

    def __init__(self, run_cell: CellRunner | None) -> None:
        self.run_cell = run_cell
        self.count = 0  # tryouts (cells, MCP panels, terminals): the page loads the engine if any
        self.cells = 0
        self.verified = 0

    def __call__(self, fence: Fence) -> str | None:
        if fence.lang == "cypher" and "run" in fence.flags:
            return self.cell(fence)
        if fence.lang == "mcp":
            return self.mcp(fence, self._json(fence))
        if fence.lang == "terminal":
            return self.terminal(fence, self._json(fence))
        if fence.lang == "bash" and "verify" in fence.flags:
            return self.verify(fence)
        if fence.lang == "errors":
            return errors_ref.reference_html()
        return None

    def verify(self, fence: Fence) -> str:
        self.verified += 1
        code = fence.options.get("exit", "0")
        note = "exits 0" if code == "0" else f"exits {html.escape(code)}"
        return ('<div class="verify">' + code_block(fence.body, "bash") +
                f'<p class="verify-note">Checked: the test suite runs this with the native '
                f"<code>relate</code> and compares what it prints with the output shown ({note}).</p></div>")

    def _id(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}-{self.count}"

    @staticmethod
    def _json(fence: Fence) -> dict:
        try:
            return json.loads(fence.body)
        except ValueError as exc:
            raise ValueError(f"line {fence.line}: ```{fence.lang} block is not JSON: {exc}") from None

    def cell(self, fence: Fence) -> str:
        statement = fence.body.strip()
        self.cells += 1
        autorun = " data-autorun" if self.cells == 1 else ""
        name = fence.options.get("name", "")
        ident = self._id("cell")
        rows = statement.count("\n") + 1
        if self.run_cell is not None:
            result = result_html(self.run_cell(statement))
        else:
            result = '<p class="cell-summary">Not run yet: press Run.</p>'
        return (
            f'<section class="cell" data-cell="{_attr(name)}"{autorun} aria-label="Cypher cell">\n'
            f'<label class="visually-hidden" for="{ident}">Cypher statement</label>\n'
            f'<textarea id="{ident}" class="cell-source code" rows="{rows}" spellcheck="false" '
            f'autocapitalize="off">{html.escape(statement)}</textarea>\n'
            f'<div class="bar"><button type="button" class="cell-run" disabled>Run</button>'
            f'<span class="hint">Ctrl+Enter runs it</span></div>\n'
            f'<div class="cell-result" aria-live="polite">{result}</div>\n'
            f"</section>")

    def mcp(self, fence: Fence, spec: dict) -> str:
        calls = spec.get("calls") or []
        if not calls:
            raise ValueError(f"line {fence.line}: ```mcp block has no calls")
        forms = []
        for call in calls:
            tool, arguments = call["tool"], dict(call.get("arguments") or {})
            fields = []
            # read_cypher/write_cypher's `statement`, cypher_query's `query` (fulltext_search's
            # `query` is keywords, not a statement with parameters: it stays in the arguments)
            field = "statement" if "statement" in arguments else (
                "query" if "query" in arguments and tool == "cypher_query" else None)
            if field is not None:
                sid, pid = self._id("mcp-statement"), self._id("mcp-parameters")
                statement = arguments.pop(field)
                parameters = arguments.pop("parameters", {})
                fields.append(
                    f'<label for="{sid}">{field}</label>'
                    f'<textarea id="{sid}" class="mcp-statement code" data-field="{field}" '
                    f'rows="{statement.count(chr(10)) + 2}" '
                    f'spellcheck="false">{html.escape(statement)}</textarea>'
                    f'<label for="{pid}">parameters (JSON object)</label>'
                    f'<textarea id="{pid}" class="mcp-parameters code" rows="1" '
                    f'spellcheck="false">{html.escape(json.dumps(parameters))}</textarea>')
            if arguments or not fields:
                aid = self._id("mcp-arguments")
                fields.append(
                    f'<label for="{aid}">arguments (JSON object)</label>'
                    f'<textarea id="{aid}" class="mcp-arguments code" rows="1" '
                    f'spellcheck="false">{html.escape(json.dumps(arguments))}</textarea>')
            forms.append(
                f'<fieldset class="mcp-call" data-tool="{_attr(tool)}"><legend><code>{html.escape(tool)}</code>'
                f"</legend>{''.join(fields)}"
                f'<div class="bar"><button type="button" class="mcp-send" disabled>Call '
                f"<code>{html.escape(tool)}</code></button></div></fieldset>")
        ro = self._id("mcp-readonly")
        tools = spec.get("tools")  # `relate serve --tools` of the page's core (default cypher)
        served = f' data-tools="{_attr(tools)}"' if tools else ""
        flags = spec.get("serve")  # further `relate serve` flags of the panel's core
        if flags:
            served += f' data-serve="{_attr(json.dumps(flags))}"'
        if spec.get("era"):
            served += f' data-era="{_attr(spec["era"])}"'
        discover = ('<button type="button" class="mcp-discover" disabled>Discover (<code>server/discover</code>)'
                    '</button>') if spec.get("era") else ""
        return (
            f'<section class="mcp"{served} aria-label="MCP tryout">\n'
            f'<div class="bar"><span class="field"><input type="checkbox" id="{ro}" class="mcp-readonly">'
            f'<label for="{ro}">Serve read-only (<code>--read-only</code>)</label></span>'
            '<button type="button" class="mcp-list" disabled>List tools (<code>tools/list</code>)</button>'
            f'{discover}</div>\n'
            f'<div class="mcp-calls">{"".join(forms)}</div>\n'
            '<div class="mcp-exchange" aria-live="polite">'
            '<h4>Request</h4><pre class="mcp-request code">Press a button to send a request.</pre>'
            '<h4>Reply</h4><pre class="mcp-reply code"></pre>'
            '<div class="mcp-decoded"></div></div>\n'
            "</section>")

    def terminal(self, fence: Fence, spec: dict) -> str:
        mode = spec.get("mode", "table")
        if mode not in MODES:
            raise ValueError(f"line {fence.line}: unknown output mode {mode!r}")
        sid, mid, hid, pid, rid = (self._id(p) for p in
                                   ("term-statement", "term-mode", "term-harness", "term-preset", "term-rows"))
        presets = spec.get("presets") or []
        options = "".join(f'<option value="{_attr(p["statement"])}">{html.escape(p["label"])}</option>'
                          for p in presets)
        modes = "".join(f'<option{" selected" if m == mode else ""}>{m}</option>' for m in MODES)
        checked = " checked" if spec.get("harness") else ""
        preset = (f'<span class="field"><label for="{pid}">preset</label><select id="{pid}" class="term-preset">'
                  f'<option value="">(choose one)</option>{options}</select></span>') if presets else ""
        return (
            '<section class="terminal" aria-label="relate CLI terminal">\n'
            '<div class="term-controls">'
            f'<label for="{sid}">statement</label>'
            f'<textarea id="{sid}" class="term-statement code" rows="2" spellcheck="false">'
            f'{html.escape(spec.get("statement", ""))}</textarea>'
            f'<div class="bar"><span class="field"><label for="{mid}"><code>--mode</code></label>'
            f'<select id="{mid}" class="term-mode">{modes}</select></span>'
            f'<span class="field"><label for="{rid}"><code>--max-rows</code></label><input id="{rid}" '
            f'class="term-rows" type="number" min="0" inputmode="numeric" placeholder="default"></span>'
            f"{preset}</div>"
            f'<div class="bar"><span class="field"><input type="checkbox" id="{hid}" class="term-harness"{checked}>'
            f'<label for="{hid}">Run as an agent harness (<code>CLAUDECODE=1</code>)</label></span>'
            '<button type="button" class="term-run" disabled>Run</button></div></div>\n'
            '<div class="term-screen" aria-live="polite">'
            '<pre class="term-command code"></pre>'
            '<h4>stdout</h4><pre class="term-stdout code"></pre>'
            '<h4>stderr</h4><pre class="term-stderr code"></pre>'
            '<p class="term-exit">exit code <output class="term-code">–</output></p></div>\n'
            "</section>")


__all__ = ["Blocks", "result_html", "code_block"]
