"""What the static checks leave to run time: parameters and values whose type only shows while a
statement runs fail then, as a TypeError or an ArithmeticError of phase `runtime`."""
from __future__ import annotations

import pytest

from relate.errors import CypherArithmeticError, CypherTypeError
from tests.unit.answers import fails


@pytest.mark.parametrize("q, params", [
    ("RETURN $x AND true", {"x": 1}),
    ("RETURN $x - 1", {"x": "a"}),
    ("RETURN $x.key", {"x": 1}),
])
def test_parameters_are_checked_at_run_time(db, q, params):
    e = fails(db, q, **params)
    assert isinstance(e, CypherTypeError) and e.phase == "runtime"


@pytest.mark.parametrize("q, kind", [
    ("RETURN [x IN [true, []] | toBoolean(x)]", "InvalidArgumentValue"),
    ("RETURN [x IN [1, {}] | toInteger(x)]", "InvalidArgumentValue"),
    ("RETURN [x IN [1.0, true] | toFloat(x)]", "InvalidArgumentValue"),
    ("CREATE (a) WITH [a, 1] AS l RETURN labels(l[1])", "InvalidArgumentValue"),
    ("RETURN range(0, 1.5)", "InvalidArgumentType"),
])
def test_function_argument_errors_at_run_time(db, q, kind):
    e = fails(db, q)
    assert (e.tck_type, e.phase, e.kind) == ("TypeError", "runtime", kind)


def test_element_access_errors(db):
    e = fails(db, "WITH $m AS m, $k AS k RETURN m[k]", m={"a": 1}, k=1)
    assert (e.tck_type, e.kind) == ("TypeError", "MapElementAccessByNonString")
    e = fails(db, "WITH $l AS l, $k AS k RETURN l[k]", l=[1], k="0")
    assert (e.tck_type, e.kind) == ("TypeError", "ListElementAccessByNonInteger")


def test_overflow_is_an_arithmetic_error(db):
    e = fails(db, "RETURN 9223372036854775807 + 1")
    assert isinstance(e, CypherArithmeticError)
    assert (e.tck_type, e.phase, e.kind) == ("ArithmeticError", "runtime", "IntegerOverflow")
