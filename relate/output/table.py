"""`--mode table`: one result set -> text for a person at a terminal.

- Columns -> a box: `+---+` borders, a header row of the column names, one row per printed
  result row, each cell the Cypher-literal text of the value (`values.to_text`) padded to the
  widest cell of its column.  No rows -> the header box and its closing border.  No row count and
  no timings are printed.
- Write statement -> after the box (if any), one line of the non-zero mutation counters, e.g.
  `nodes created: 1, properties set: 1, labels added: 1`.
- No columns and no changes -> `(no changes, no records)`.
- EXPLAIN -> the plan as an operator tree instead of the rows: one line per operator,
  `+Operator  details`, each child two spaces deeper than its parent.
- Notifications -> after everything else, `SEVERITY code: title` with the description and the
  remedy on indented lines below.

Control characters inside cells are escaped (`\\n`, `\\t`, `\\r`, `\\u001b`, ...) so a value can
never break the grid; column widths count East Asian wide characters as two cells and
combining marks as none.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from ..result import Notification, PlanDescription, Result, Stats
from ..values import to_text

# (attribute, label) in the order the counters line lists them.
STAT_LABELS = (
    ("nodes_created", "nodes created"),
    ("nodes_deleted", "nodes deleted"),
    ("relationships_created", "relationships created"),
    ("relationships_deleted", "relationships deleted"),
    ("properties_set", "properties set"),
    ("labels_added", "labels added"),
    ("labels_removed", "labels removed"),
    ("indexes_added", "indexes added"),
    ("indexes_removed", "indexes removed"),
    ("constraints_added", "constraints added"),
    ("constraints_removed", "constraints removed"),
)

NO_CHANGES = "(no changes, no records)"

_CONTROL_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


# controls, DEL, and lone surrogates (a terminal cannot show one; UTF-8 cannot carry it)
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f\ud800-\udfff]")


def _printable(text: str) -> str:
    if not _UNPRINTABLE.search(text):
        return text
    return _UNPRINTABLE.sub(lambda m: _CONTROL_ESCAPES.get(m.group(), f"\\u{ord(m.group()):04x}"), text)


def width(text: str) -> int:
    """Terminal columns `text` takes up."""
    if text.isascii():
        return len(text)
    total = 0
    for ch in text:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        total += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return total


def box(columns: Sequence[str], cells: Sequence[Sequence[str]]) -> list[str]:
    """The bordered grid of `columns` over already-rendered cell texts."""
    head = [_printable(c) for c in columns]
    body = [[_printable(c) for c in row] for row in cells]
    widths = [width(h) for h in head]
    for row in body:
        for i, cell in enumerate(row):
            w = width(cell)
            if w > widths[i]:
                widths[i] = w
    border = "+" + "+".join("-" * (w + 2) for w in widths) + "+"

    def line(row: Sequence[str]) -> str:
        return "|" + "|".join(f" {c}{' ' * (w - width(c))} " for c, w in zip(row, widths)) + "|"

    return [border, line(head), border, *(line(row) for row in body), border]


def stats_line(stats: Stats) -> str:
    """The non-zero counters, comma separated; empty when nothing changed."""
    return ", ".join(f"{label}: {getattr(stats, attr)}" for attr, label in STAT_LABELS
                     if getattr(stats, attr))


def plan_tree(plan: PlanDescription, depth: int = 0) -> list[str]:
    """One line per operator, children indented under their parent."""
    text = "  " * depth + "+" + plan.operator
    if plan.details:
        text += "  " + _printable(plan.details)
    if plan.estimated_rows is not None:
        est = plan.estimated_rows
        text += f"  (estimated rows: {int(est) if float(est).is_integer() else est})"
    if plan.actual:
        text += "  (" + ", ".join(f"{k}: {v}" for k, v in sorted(plan.actual.items())) + ")"
    lines = [text]
    for child in plan.children:
        lines += plan_tree(child, depth + 1)
    return lines


def notification_lines(note: Notification) -> list[str]:
    lines = [f"{note.severity} {note.code}: {_printable(note.title)}"]
    if note.description:
        lines.append("  " + _printable(note.description))
    if note.remedy:
        lines.append("  remedy: " + _printable(note.remedy))
    return lines


def render(result: Result, rows: Sequence[tuple], total: int) -> str:
    lines: list[str] = []
    changes = stats_line(result.stats)
    if result.explained:
        lines += plan_tree(result.plan) if result.plan is not None else ["(no plan)"]
    else:
        if result.columns:
            lines += box(result.columns, [[to_text(v) for v in row] for row in rows])
        if changes:
            lines.append(changes)
        elif not result.columns:
            lines.append(NO_CHANGES)
        if result.profiled and result.plan is not None:
            lines += plan_tree(result.plan)  # PROFILE: the rows, then the plan with what each operator did
    for note in result.all_notifications:
        lines += notification_lines(note)
    return "\n".join(lines) + "\n"
