"""The property map every record created without properties shares (`NO_PROPS`).

Invariant: it is never mutated and stays empty.  `Graph.set_prop`, the only writer of property
maps, gives a record its own map before its first change; creating and loading records put it in
place of an empty map, so a graph of property-less records holds one map, not one each."""
from __future__ import annotations

NO_PROPS: dict = {}
