"""A browser answer and a native answer -> pass, or an AssertionError showing where they part.

Two things may differ.  A timing: a number after a key ending in `_ms"` (plain JSON,
`"elapsed_ms":0.41`) or `_ms\\"` (JSON inside a JSON string, as in an MCP reply's text:
`\\"elapsed_ms\\":0.41`) becomes `<ms>` on both sides before comparing.  And the times of a
record's span (`valid_from`, `txnFrom`, ...; null stays null), which each side's clock read:
they become `<time>`.  Everything else, plan-cache outcomes, key order, whitespace and trailing
newlines included, must be identical.
"""
from __future__ import annotations

import re

TIMING = re.compile(r'(_ms\\?"\s*:\s*)-?[0-9][0-9.eE+-]*')
# a record's span (get_node_by_str, get_relationship_by_str) holds the times of the writes that
# made it, which the two sides' clocks read differently: a time (ns or ISO text) -> `<time>`;
# an open end (null) stays null, so the shape is still compared
SPAN_TIME = re.compile(r'((?:valid|txn)(?:_from|_to|From|To)\\?"\s*:\s*)(?:[0-9]+|\\?"[0-9][0-9:.TZ+-]*\\?")')


def normalise(value):
    """Timings -> `<ms>` in a string, or in every string inside a list/dict answer."""
    if isinstance(value, str):
        return SPAN_TIME.sub(r"\1<time>", TIMING.sub(r"\1<ms>", value))
    if isinstance(value, list):
        return [normalise(v) for v in value]
    if isinstance(value, dict):
        return {k: normalise(v) for k, v in value.items()}
    return value


def _where(a: str, b: str, names=("browser", "native")) -> str:
    """Point at the first differing character of two strings, with some context."""
    i = next((n for n, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    lo = max(0, i - 60)
    width = max(len(n) for n in names) + 1
    return (f"first difference at character {i} (lengths {len(a)} / {len(b)}):\n"
            f"  {names[0] + ':':<{width}} …{a[lo:i + 60]!r}\n  {names[1] + ':':<{width}} …{b[lo:i + 60]!r}")


def assert_parity(browser, native, what: str = "reply", names=("browser", "native")) -> None:
    """Fail unless `browser` equals `native` once timings are normalised.  Either side may be a
    string, None (no reply), or a list/dict of those (e.g. a CLI run's stdout/stderr/exitCode)."""
    b, n = normalise(browser), normalise(native)
    if b == n:
        return
    lines = [f"{what}: {names[0]} and {names[1]} differ"]
    if isinstance(b, dict) and isinstance(n, dict):
        for key in sorted(set(b) | set(n), key=str):
            if b.get(key) != n.get(key):
                lines.append(f"[{key}] " + _diff(b.get(key), n.get(key), names))
    elif isinstance(b, list) and isinstance(n, list) and len(b) == len(n):
        for i, (x, y) in enumerate(zip(b, n)):
            if x != y:
                lines.append(f"[{i}] " + _diff(x, y, names))
    else:
        lines.append(_diff(b, n, names))
    raise AssertionError("\n".join(lines))


def _diff(b, n, names=("browser", "native")) -> str:
    if isinstance(b, str) and isinstance(n, str):
        return _where(b, n, names)
    return f"{names[0]}: {b!r}\n  {names[1]}: {n!r}"
