"""Two verdict files (tests/pyodide/verdicts.py: native, and the same function inside Pyodide) ->
the cases whose verdicts differ, each printed side by side.

Cases pair by id.  A case on one side only is a difference (a side skipped it), a case either
side reports as skipped is one (even on both sides: it was not compared), and so is any
field that differs: status, message, columns, rows (in the engine's order, values as text, so a
float rendered otherwise or rows in another order show), the error's kind, message, phase or
position, the plan lines, a golden case's output.  Nothing is normalised first.
"""
from __future__ import annotations

from dataclasses import dataclass

WIDTH = 70
FIELDS = ("status", "message", "columns", "rows", "error", "plan", "output")


@dataclass(frozen=True)
class Difference:
    case: str
    field: str          # one of FIELDS, another record key, "presence" or "skipped"
    native: object
    pyodide: object

    def side_by_side(self) -> str:
        left, right = _lines(self.native), _lines(self.pyodide)
        out = [f"{self.case}: {self.field} differs", f"  {'native':<{WIDTH}} | pyodide"]
        for i in range(max(len(left), len(right))):
            a = left[i] if i < len(left) else ""
            b = right[i] if i < len(right) else ""
            mark = " " if a == b else "!"
            out.append(f"{mark} {a[:WIDTH]:<{WIDTH}} | {b[:WIDTH]}")
        return "\n".join(out)


def _lines(value) -> list[str]:
    if value is None:
        return ["(none)"]
    if isinstance(value, list):
        return [str(v) for v in value] or ["(empty)"]
    if isinstance(value, dict):
        return [f"{k}: {value[k]!r}" for k in sorted(value)]
    return str(value).splitlines() or [repr(value)]


def _by_id(doc: dict, side: str) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for record in doc["verdicts"]:
        if record["id"] in out:
            raise ValueError(f"{side}: case {record['id']} appears twice")
        out[record["id"]] = record
    return out


def compare(native: dict, pyodide: dict) -> list[Difference]:
    """Every difference between two verdict documents, in the native side's case order."""
    a, b = _by_id(native, "native"), _by_id(pyodide, "pyodide")
    diffs = []
    for case in list(a) + [c for c in b if c not in a]:
        if case not in b:
            diffs.append(Difference(case, "presence", "ran", "skipped"))
            continue
        if case not in a:
            diffs.append(Difference(case, "presence", "skipped", "ran"))
            continue
        x, y = a[case], b[case]
        if "skip" in (x.get("status"), y.get("status")):  # a case a side skipped was not compared
            diffs.append(Difference(case, "skipped", x.get("status"), y.get("status")))
        keys = [k for k in FIELDS if k in x or k in y] + sorted((set(x) | set(y)) - set(FIELDS) - {"id"})
        for key in keys:
            if x.get(key) != y.get(key):
                diffs.append(Difference(case, key, x.get(key), y.get(key)))
    return diffs


def summary(native: dict, pyodide: dict, diffs: list[Difference]) -> str:
    """`N passed, D differing` (with `F failed` between when some case failed on both sides alike)."""
    differing = {d.case for d in diffs}
    b = _by_id(pyodide, "pyodide")
    alike = [r for c, r in _by_id(native, "native").items() if c not in differing and c in b]
    passed = sum(r["status"] == "pass" for r in alike)
    failed = len(alike) - passed
    return f"{passed} passed, " + (f"{failed} failed, " if failed else "") + f"{len(differing)} differing"


def report(native: dict, pyodide: dict) -> tuple[bool, str]:
    """(no difference?, the text to print: every difference side by side, then the summary)."""
    diffs = compare(native, pyodide)
    text = "\n\n".join(d.side_by_side() for d in diffs)
    return not diffs, (text + "\n\n" if text else "") + summary(native, pyodide, diffs)
