"""Numeric functions: abs, sign, rounding, roots, logarithms, trigonometry, constants.

Results follow Java's `Math` (which the TCK's expectations come from): out-of-domain arguments
give NaN rather than an error, overflow gives an infinity, and every function but `abs` and
`sign` returns a float.  `round(x, precision, mode)` rounds the decimal text of x, as Java's
`BigDecimal.valueOf` does, so `round(2.345, 2)` is 2.35; without a mode the ties go away from zero
(HALF_UP), except at precision 0, where `round(x, 0)` agrees with `round(x)` (ties up: -3.5 -> -3.0).
"""
from __future__ import annotations

import math
import random
from decimal import (ROUND_CEILING, ROUND_DOWN, ROUND_FLOOR, ROUND_HALF_DOWN, ROUND_HALF_EVEN,
                     ROUND_HALF_UP, ROUND_UP, Decimal)

from ...errors import E
from ...values.ints import check_int
from ...values.kinds import is_num
from .common import int_arg, type_err

NAN, INF = float("nan"), float("inf")


def _numeric(name: str, f):
    def g(v):
        if v is None:
            return None
        if not is_num(v):
            raise type_err(name, v)
        return f(v)
    return g


def _real(f):
    """A float function of a float: domain errors give NaN, overflow gives infinity."""
    def g(v):
        try:
            return float(f(float(v)))
        except ValueError:
            return NAN
        except OverflowError:
            return INF
    return g


def _abs(v):
    return check_int(abs(v)) if isinstance(v, int) else abs(v)


def _sign(v):
    if isinstance(v, float) and math.isnan(v):
        return 0
    return (v > 0) - (v < 0)


def _log(v):
    return math.log(v) if v > 0 else (-INF if v == 0 else NAN)


def _log10(v):
    return math.log10(v) if v > 0 else (-INF if v == 0 else NAN)


def _sqrt(v):
    return math.sqrt(v) if v >= 0 else NAN


def _cot(v):
    t = math.tan(v)
    return INF if t == 0 else 1.0 / t


def _haversin(v):
    return (1.0 - math.cos(v)) / 2.0


_MODES = {"UP": ROUND_UP, "DOWN": ROUND_DOWN, "CEILING": ROUND_CEILING, "FLOOR": ROUND_FLOOR,
          "HALF_UP": ROUND_HALF_UP, "HALF_DOWN": ROUND_HALF_DOWN, "HALF_EVEN": ROUND_HALF_EVEN}


def _round(v, precision=None, mode=None):
    if v is None:
        return None
    if not is_num(v):
        raise type_err("round", v)
    if isinstance(v, float) and not math.isfinite(v):
        return v
    if precision is None:
        return float(math.floor(v + 0.5))  # Java's Math.round: halves go up
    if isinstance(precision, float) and math.isfinite(precision):
        precision = int(precision)  # Neo4j takes an INTEGER or a FLOAT precision
    digits = int_arg("round", "precision", precision)
    if digits == 0 and mode is None:
        return float(math.floor(v + 0.5))  # round(x, 0) rounds ties up, as round(x) does
    rounding = ROUND_HALF_UP
    if mode is not None:
        if not isinstance(mode, str) or mode.upper() not in _MODES:
            raise E.Argument.InvalidArgumentValue(f"round() does not know the mode {mode!r}")
        rounding = _MODES[mode.upper()]
    d = Decimal(repr(float(v)) if isinstance(v, float) else v)
    return float(d.quantize(Decimal(1).scaleb(-digits), rounding=rounding))


def _atan2(y, x):
    if y is None or x is None:
        return None
    for v in (y, x):
        if not is_num(v):
            raise type_err("atan2", v)
    return math.atan2(float(y), float(x))


def _is_nan(v):
    if v is None:
        return None
    if not is_num(v):
        raise type_err("isNaN", v)
    return isinstance(v, float) and math.isnan(v)


NUMBERS: dict[str, tuple] = {
    "abs": (_numeric("abs", _abs), 1, 1),
    "sign": (_numeric("sign", _sign), 1, 1),
    "ceil": (_numeric("ceil", _real(math.ceil)), 1, 1),
    "floor": (_numeric("floor", _real(math.floor)), 1, 1),
    "round": (_round, 1, 3),
    "sqrt": (_numeric("sqrt", _real(_sqrt)), 1, 1),
    "exp": (_numeric("exp", _real(math.exp)), 1, 1),
    "log": (_numeric("log", _real(_log)), 1, 1),
    "log10": (_numeric("log10", _real(_log10)), 1, 1),
    "sin": (_numeric("sin", _real(math.sin)), 1, 1),
    "cos": (_numeric("cos", _real(math.cos)), 1, 1),
    "tan": (_numeric("tan", _real(math.tan)), 1, 1),
    "cot": (_numeric("cot", _real(_cot)), 1, 1),
    "asin": (_numeric("asin", _real(math.asin)), 1, 1),
    "acos": (_numeric("acos", _real(math.acos)), 1, 1),
    "atan": (_numeric("atan", _real(math.atan)), 1, 1),
    "atan2": (_atan2, 2, 2),
    "degrees": (_numeric("degrees", _real(math.degrees)), 1, 1),
    "radians": (_numeric("radians", _real(math.radians)), 1, 1),
    "haversin": (_numeric("haversin", _real(_haversin)), 1, 1),
    "isnan": (_is_nan, 1, 1),
    "pi": (lambda: math.pi, 0, 0),
    "e": (lambda: math.e, 0, 0),
    "rand": (random.random, 0, 0),
}
