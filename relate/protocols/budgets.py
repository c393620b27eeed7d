"""Per-call budgets of the MCP tools (opt-in, `relate serve` flags; off, nothing changes).

* Result size (`--result-budget-bytes N`): the rows of a `read_cypher` or `cypher_query` result
  are cut at a row boundary so that its `rows` array, written as the tool writes it (serde-style
  JSON, UTF-8), holds at most N bytes.  The result then says `truncated` (always, while the budget
  is on) and, when rows were dropped, `rowCap: {kept, total}`, as the CLI's row cap does.  A
  result whose rows fit exactly is whole.  The engine has computed every row by then: the budget
  bounds what reaches the model's context, a `LIMIT` bounds the work.
* Time (`--call-timeout-secs N`, `Policy.time_limit`): enforced by the engine; here only named.

`Budgets.tools(tool_list)` -> the listed tools, with a sentence naming each budget that is on
appended to the description of every tool it binds; `Budgets.instructions()` -> the same facts
for `server/discover`.  With every budget off both return their input (the reference's bytes).
"""
from __future__ import annotations

from dataclasses import dataclass

from .jsonrpc import _dumps

TIMED_TOOLS = frozenset({"read_cypher", "write_cypher", "cypher_query"})
SIZED_TOOLS = frozenset({"read_cypher", "cypher_query"})


@dataclass(frozen=True, slots=True)
class Budgets:
    result_bytes: int | None = None  # None: off
    time_secs: float | None = None  # None: off (the policy's time limit)

    @property
    def on(self) -> bool:
        return self.result_bytes is not None or self.time_secs is not None

    def time_text(self) -> str:
        n = self.time_secs
        shown = int(n) if n is not None and float(n).is_integer() else n
        return (f"Each call's statement may run for at most {shown} seconds; past that it is stopped, rolled "
                "back and the call fails with a timeout.")

    def size_text(self) -> str:
        return (f"The result's rows are cut at a row boundary to fit {self.result_bytes} bytes of JSON; the result "
                "says truncated, and rowCap {kept, total} when rows were cut.")

    def sentences(self, tool: str) -> list[str]:
        out = []
        if self.time_secs is not None and tool in TIMED_TOOLS:
            out.append(self.time_text())
        if self.result_bytes is not None and tool in SIZED_TOOLS:
            out.append(self.size_text())
        return out

    def tools(self, listed: list[dict]) -> list[dict]:
        if not self.on:
            return listed
        out = []
        for tool in listed:
            extra = self.sentences(tool["name"])
            if extra:
                tool = {**tool, "description": " ".join([tool["description"], *extra])}
            out.append(tool)
        return out

    def instructions(self) -> str | None:
        parts = []
        if self.time_secs is not None:
            parts.append("Time budget: " + self.time_text())
        if self.result_bytes is not None:
            parts.append("Result budget (read_cypher, cypher_query): " + self.size_text())
        return " ".join(parts) or None

    def cut(self, payload: dict) -> dict:
        """`payload` (a result with a `rows` list) within the size budget, marked as cut or not."""
        if self.result_bytes is None:
            return payload
        rows = payload["rows"]
        kept = fit(rows, self.result_bytes)
        out = dict(payload)
        out["truncated"] = kept < len(rows)
        if kept < len(rows):
            out["rows"] = rows[:kept]
            out["rowCap"] = {"kept": kept, "total": len(rows)}
        return out


def fit(rows: list, budget: int) -> int:
    """How many leading rows fit in `budget` bytes as a JSON array (`[`, rows, commas, `]`)."""
    size = 2
    for n, row in enumerate(rows):
        size += len(_dumps(row).encode("utf-8")) + (1 if n else 0)
        if size > budget:
            return n
    return len(rows)
