"""Helpers the expression tests share: the single value a query answers, or the error it raises."""
from __future__ import annotations

import pytest

from relate.errors import RelateError


def one(db, q, **params):
    """The one row's value (or the row, when it has several columns)."""
    rows = db.execute(q, params).rows
    assert len(rows) == 1
    return rows[0][0] if len(rows[0]) == 1 else rows[0]


def fails(db, q, **params) -> RelateError:
    """The error the query raises (the test fails when it raises none)."""
    with pytest.raises(RelateError) as e:
        db.execute(q, params)
    return e.value
