"""Relationship ids -> live relationship records, in blocks of slots instead of a dict.

Relationship ids are handed out in increasing order and never reused, so the ids of a store are
dense: a block of `_BLOCK` list slots per range of ids (None where nothing lives) takes about a
sixth of what a dict entry per relationship takes.  A block is dropped when its last relationship
goes, so deleting many relationships gives the memory back.  Iteration is in id order.
"""
from __future__ import annotations

from collections.abc import Mapping

from ..values import Relationship

_BLOCK = 64  # ids per block (a power of two)
_SHIFT = _BLOCK.bit_length() - 1


class RelTable(Mapping):
    """id -> live relationship, for ids handed out in increasing order: one list of `_BLOCK`
    slots (None where nothing lives) per block of ids, dropped when its last relationship goes.
    Much smaller than a dict for dense ids; iterates in id order."""

    __slots__ = ("_blocks", "_len")

    def __init__(self) -> None:
        self._blocks: dict[int, list] = {}
        self._len = 0

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, id: int) -> Relationship:
        block = self._blocks.get(id >> _SHIFT)
        if block is not None:
            rel = block[id & (_BLOCK - 1)]
            if rel is not None:
                return rel
        raise KeyError(id)

    def get(self, id: int, default=None):
        block = self._blocks.get(id >> _SHIFT)
        if block is not None:
            rel = block[id & (_BLOCK - 1)]
            if rel is not None:
                return rel
        return default

    def __contains__(self, id: object) -> bool:
        if id.__class__ is not int:
            return False
        block = self._blocks.get(id >> _SHIFT)
        return block is not None and block[id & (_BLOCK - 1)] is not None

    def __iter__(self):
        for r in self.values():
            yield r.id

    def values(self) -> list[Relationship]:  # type: ignore[override]
        """The live relationships in id order (a new list)."""
        blocks = self._blocks
        return [r for k in sorted(blocks) for r in blocks[k] if r is not None]

    def __setitem__(self, id: int, rel: Relationship) -> None:
        block = self._blocks.get(id >> _SHIFT)
        if block is None:
            if id < 0:
                raise KeyError(id)
            block = self._blocks[id >> _SHIFT] = [None] * _BLOCK
        if block[id & (_BLOCK - 1)] is None:
            self._len += 1
        block[id & (_BLOCK - 1)] = rel

    def pop(self, id: int, *default):
        block = self._blocks.get(id >> _SHIFT) if id.__class__ is int else None
        if block is not None:
            rel = block[id & (_BLOCK - 1)]
            if rel is not None:
                block[id & (_BLOCK - 1)] = None
                self._len -= 1
                if not any(block):
                    del self._blocks[id >> _SHIFT]
                return rel
        if default:
            return default[0]
        raise KeyError(id)
