"""Stable string ids of graph records: a node id -> `n<id>`, a relationship id -> `r<id>` (the
store's integer id in decimal, no leading zeros), and back.  `elementId()`, Bolt's element_id and
`Database.node_by_str_id` use them.  Nothing extra is stored, so they survive restarts and
`clone`.  Explicit string ids (a later issue) must not match `[nr][0-9]+`, so the two cannot clash.
"""
from __future__ import annotations


def node_str_id(node_id: int) -> str:
    return f"n{node_id}"


def rel_str_id(rel_id: int) -> str:
    return f"r{rel_id}"


def parse(text: object, prefix: str) -> int | None:
    """`n12` (prefix "n") -> 12; None for any other text."""
    if not isinstance(text, str) or len(text) < 2 or text[0] != prefix:
        return None
    digits = text[1:]
    if not digits.isascii() or not digits.isdigit() or (digits[0] == "0" and len(digits) > 1):
        return None
    return int(digits)
