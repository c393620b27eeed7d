"""relate: an embedded Cypher graph database in pure Python, built for AI agents.

>>> import relate
>>> db = relate.connect(":memory:")
>>> db.execute("RETURN 1 + 2 AS sum").rows
[(3,)]
"""
from typing import TYPE_CHECKING

from .dataclass_code import reusing as _reusing_dataclass_code
from .gc_pause import paused as _gc_paused

# the engine's modules are imported here, their dataclasses' methods compiled by an earlier process
# (`dataclass_code.py`), without the cyclic collector walking what the imports make (`gc_pause.py`)
with _gc_paused(), _reusing_dataclass_code():
    from .database import Database, connect
    from .errors import RelateError
    from .policy import Policy
    from .result import Result
    from .version import __version__

if TYPE_CHECKING:
    from .temporal.duration import Duration
    from .temporal.point import Point

__all__ = ["Database", "Duration", "Point", "Policy", "RelateError", "Result", "connect", "__version__"]


def __getattr__(name: str) -> object:
    # the temporal types load on first use: a statement without dates or points never needs them
    if name == "Duration":
        from .temporal.duration import Duration
        return Duration
    if name == "Point":
        from .temporal.point import Point
        return Point
    raise AttributeError(f"module 'relate' has no attribute {name!r}")
