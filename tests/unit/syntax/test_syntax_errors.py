"""Statements the parser refuses: the error class, its text and where it points."""
from __future__ import annotations

import pytest

from relate.errors import CypherSyntaxError


def test_syntax_error_carries_position(db):
    with pytest.raises(CypherSyntaxError) as e:
        db.execute("MATCH (n) RETRUN n")
    assert e.value.message == 'syntax error: parse error: unexpected token "RETRUN"'
    assert (e.value.position.line, e.value.position.column) == (1, 11)


def test_second_statement_is_a_syntax_error(db):
    with pytest.raises(CypherSyntaxError):
        db.execute("RETURN 1; RETURN 2")
