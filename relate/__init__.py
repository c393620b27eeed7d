"""relate: an embedded Cypher graph database in pure Python, built for AI agents.

>>> import relate
>>> db = relate.connect(":memory:")
>>> db.execute("RETURN 1 + 2 AS sum").rows
[(3,)]
"""
from .database import Database, connect
from .errors import RelateError
from .policy import Policy
from .result import Result
from .temporal.duration import Duration
from .temporal.point import Point
from .version import __version__

__all__ = ["Database", "Duration", "Point", "Policy", "RelateError", "Result", "connect", "__version__"]
