"""Property maps records share: the empty map of every record created without properties
(`NO_PROPS`), and relationship property maps shared by value (`SharedMaps`).

Invariants:
- `NO_PROPS` is never mutated and stays empty.
- a map `SharedMaps.share` handed out may be held by many records and is never mutated either
  (`SharedMaps.owns` tells it by identity).
`Graph.set_prop`, the only writer of property maps, gives a record its own map before its first
change when it holds either kind; creating and loading records put them in place of a map of their
own, so a graph of property-less records holds one map, and relationships whose properties repeat
(a year, a weight, a role) hold one map per distinct set of values instead of one each."""
from __future__ import annotations

NO_PROPS: dict = {}

# distinct maps a graph keeps for sharing; past that, maps are still shared when they match one
# kept, and new ones are their records' own (so maps that never repeat cost a bounded table)
SHARED_CAP = 4096


class SharedMaps:
    """Property maps shared by value: `share(props)` -> a map equal to `props`, the same object for
    every equal map of int and str values (equal maps of those types are interchangeable: an int
    never equals a str, and no float or bool, whose equality crosses types, is shared)."""

    __slots__ = ("maps", "ids")

    def __init__(self) -> None:
        self.maps: dict[tuple, dict] = {}
        self.ids: set[int] = set()  # identities of the maps in `maps` (alive as long as it holds them)

    def share(self, props: dict, copy: bool = True) -> dict:
        """`props` (not empty) -> the shared map equal to it, else a map of its own (a copy when
        `copy`, else `props` itself)."""
        for v in props.values():
            t = v.__class__
            if t is not int and t is not str:
                return dict(props) if copy else props
        key = tuple(props.items())
        got = self.maps.get(key)
        if got is None:
            got = dict(props) if copy else props
            maps = self.maps
            if len(maps) < SHARED_CAP:
                maps[key] = got
                self.ids.add(id(got))
        return got

    def owns(self, props: dict) -> bool:
        """Whether `props` is a shared map (never to be changed in place)."""
        return id(props) in self.ids
