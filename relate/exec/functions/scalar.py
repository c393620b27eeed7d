"""Scalar functions of Neo4j 5 that belong to no other family: nullIf, valueType, randomUUID and
timestamp (milliseconds since the epoch on the statement clock, so one statement sees one value)."""
from __future__ import annotations

from ...values.compare import equals
from ...values.cypher_types import value_type


def null_if(a, b):
    """null when the two values are equal (`nullIf(2, 2.0)` too), else the first."""
    return None if equals(a, b) is True else a


def _random_uuid():
    import uuid  # on first use: it brings `platform` and a native module along
    return str(uuid.uuid4())


def _timestamp():
    from ...temporal.clock import clock_ns
    return clock_ns("statement") // 1_000_000


SCALAR: dict[str, tuple] = {
    "nullif": (null_if, 2, 2),
    "valuetype": (value_type, 1, 1),
    "randomuuid": (_random_uuid, 0, 0),
    "timestamp": (_timestamp, 0, 0),
    # null outside LOAD CSV; inside it the compiler reads the clause's slots (`exec/load_csv.py`)
    "linenumber": (lambda: None, 0, 0),
    "file": (lambda: None, 0, 0),
}
