"""A syntax tree (`relate.syntax.ast` dataclasses) -> indented text, one node per line, for the
parse golden files.

A node's line is its class name followed by its plain fields (`name=value`, values as `repr`,
enum members as `Kind.MEMBER`); each field holding nodes follows on its own lines, two spaces
deeper, as `field: Node ...`, a tuple of nodes as `field[0]: ...`, `field[1]: ...`, and a tuple of
(key, node) pairs (map literal entries) as `field['key']: ...`.  Every field of every node is
shown, in declaration order within its group, so a change in the parser shows as a changed line.
"""
from __future__ import annotations

import dataclasses
from enum import Enum


def _holds_nodes(value: object) -> bool:
    if dataclasses.is_dataclass(value):
        return True
    return isinstance(value, tuple) and any(_holds_nodes(v) for v in value)


def _plain(value: object) -> str:
    if isinstance(value, Enum):
        return f"{type(value).__name__}.{value.name}"
    if isinstance(value, tuple):
        inner = ", ".join(_plain(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    return repr(value)


def _keyed(items: tuple) -> bool:
    return all(isinstance(i, tuple) and len(i) == 2 and isinstance(i[0], str) for i in items)


def render(node: object) -> str:
    lines: list[str] = []
    _value(node, "", 0, lines)
    return "\n".join(lines) + "\n"


def _value(value: object, label: str, depth: int, lines: list[str]) -> None:
    """`value` under `label` (empty for the root) at `depth`."""
    pad = "  " * depth + (f"{label}: " if label else "")
    if dataclasses.is_dataclass(value):
        # a field declared `shown: if set` (a later addition) shows only when it is not its default
        fields = [f for f in dataclasses.fields(value) if f.repr and not (
            f.metadata.get("shown") == "if set" and getattr(value, f.name) == f.default)]
        plain = [f"{f.name}={_plain(getattr(value, f.name))}" for f in fields
                 if not _holds_nodes(getattr(value, f.name))]
        lines.append(pad + " ".join([type(value).__name__, *plain]))
        for f in fields:
            v = getattr(value, f.name)
            if _holds_nodes(v):
                _value(v, f.name, depth + 1, lines)
    elif isinstance(value, tuple):
        if _keyed(value):
            for key, item in value:
                _value(item, f"{label}[{key!r}]", depth, lines)
        else:
            for i, item in enumerate(value):
                _value(item, f"{label}[{i}]", depth, lines)
    else:
        lines.append(pad + _plain(value))
