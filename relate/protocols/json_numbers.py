"""serde_json's number reading (without ``float_roundtrip``): the digits after an optional `-`
-> an int or a float, with serde_json's checks in its order and its errors.

One deliberate difference (issue 14): an integer literal (no fraction, no exponent) outside
u64/i64, which serde_json turns into a float, stays an exact int here, so that the layers above
can refuse it as an integer outside 64 bits instead of taking a rounded float for it.  Every
error stays serde's: a literal too large even for a float (about 310 digits) is still `number out
of range`, and where serde *names* a number in an error text (`invalid type: floating point ...`)
it keeps serde's float form, so no error reply changes.
"""
from __future__ import annotations

import math
import re

from .json_cursor import DOT, LOWER_E, MINUS, NINE, PLUS, UPPER_E, ZERO, Cursor
from .json_errors import EOF_VALUE, INVALID_NUMBER, NUMBER_OUT_OF_RANGE

_U64_MAX = (1 << 64) - 1
_I32_MAX = (1 << 31) - 1
_I32_MIN = -(1 << 31)
_POW10 = tuple(float(f"1e{i}") for i in range(309))  # serde_json's POW10 table

_DIGITS = re.compile(rb"[0-9]*")


class NumberReader(Cursor):
    """The number steps of the reader."""

    __slots__ = ()

    def parse_integer(self, positive: bool, exact: bool = True) -> int | float:
        """After an optional `-`: an integer literal is an int (exact even past u64/i64 unless
        `exact` is False, which gives serde's float for those); any other number is a float."""
        start = self.index
        byte = self.next()
        if byte is None:
            raise self.error(EOF_VALUE)
        if byte == ZERO:
            if ZERO <= self.peek_or_null() <= NINE:
                raise self.peek_error(INVALID_NUMBER)
            return self._parse_number(positive, 0)
        if not ZERO < byte <= NINE:
            raise self.error(INVALID_NUMBER)
        significand, _, overflow = self._absorb_digits(byte - ZERO)
        if overflow:
            return self._parse_long_integer(positive, significand, start if exact else -1)
        return self._parse_number(positive, significand, exact)

    def _absorb_digits(self, significand: int) -> tuple[int, int, bool]:
        """serde's digit loop: take digits while significand*10+digit fits a u64.

        Returns the significand, how many digits were taken, and whether a
        digit was left behind because it would overflow.
        """
        end = _DIGITS.match(self.data, self.index).end()
        run = self.data[self.index:end]
        zeros = 0
        if significand == 0:  # zeros never overflow a zero significand
            zeros = len(run) - len(run.lstrip(b"0"))
            run = run[zeros:]
        # Taking digits is monotonic, so the longest prefix that fits is what
        # the byte-at-a-time loop would have taken; a nonzero u64 takes < 20 more.
        for taken in range(min(len(run), 20), -1, -1):
            value = significand * 10 ** taken + (int(run[:taken]) if taken else 0)
            if value <= _U64_MAX:
                self.index += zeros + taken
                return value, zeros + taken, taken < len(run)
        raise AssertionError("unreachable: taking no digit always fits")

    def _parse_number(self, positive: bool, significand: int, exact: bool = False) -> int | float:
        byte = self.peek_or_null()
        if byte == DOT:
            return self._parse_decimal(positive, significand, 0)
        if byte in (LOWER_E, UPPER_E):
            return self._parse_exponent(positive, significand, 0)
        if positive:
            return significand
        # `-0` is a float, as in serde_json; so are negatives below i64::MIN unless `exact`.
        if significand == 0 or (significand > 1 << 63 and not exact):
            return -float(significand)
        return -significand

    def _parse_decimal(self, positive: bool, significand: int, exponent: int) -> float:
        self.index += 1  # '.'
        significand, taken, overflow = self._absorb_digits(significand)
        exponent -= taken
        if overflow:
            return self._parse_decimal_overflow(positive, significand, exponent)
        # Counting digits after the point (not `exponent == 0`) is the recent
        # serde_json fix that rejects `18446744073709551616.`.
        if taken == 0:
            if self.peek() is not None:
                raise self.peek_error(INVALID_NUMBER)
            raise self.peek_error(EOF_VALUE)
        if self.peek_or_null() in (LOWER_E, UPPER_E):
            return self._parse_exponent(positive, significand, exponent)
        return self._f64_from_parts(positive, significand, exponent)

    def _parse_decimal_overflow(self, positive: bool, significand: int, exponent: int) -> float:
        self.index = _DIGITS.match(self.data, self.index).end()  # further digits are ignored
        if self.peek_or_null() in (LOWER_E, UPPER_E):
            return self._parse_exponent(positive, significand, exponent)
        return self._f64_from_parts(positive, significand, exponent)

    def _parse_exponent(self, positive: bool, significand: int, starting_exp: int) -> float:
        self.index += 1  # 'e' or 'E'
        positive_exp = True
        sign = self.peek_or_null()
        if sign == PLUS:
            self.index += 1
        elif sign == MINUS:
            self.index += 1
            positive_exp = False
        byte = self.next()
        if byte is None:
            raise self.error(EOF_VALUE)
        if not ZERO <= byte <= NINE:
            raise self.error(INVALID_NUMBER)
        exp = byte - ZERO
        while ZERO <= (byte := self.peek_or_null()) <= NINE:
            self.index += 1
            digit = byte - ZERO
            if _overflows(exp, digit, _I32_MAX):
                return self._parse_exponent_overflow(positive, significand == 0, positive_exp)
            exp = exp * 10 + digit
        final = starting_exp + exp if positive_exp else starting_exp - exp
        return self._f64_from_parts(positive, significand, max(_I32_MIN, min(_I32_MAX, final)))

    def _parse_exponent_overflow(self, positive: bool, zero: bool, positive_exp: bool) -> float:
        if not zero and positive_exp:
            raise self.error(NUMBER_OUT_OF_RANGE)
        self.index = _DIGITS.match(self.data, self.index).end()
        return 0.0 if positive else -0.0

    def _parse_long_integer(self, positive: bool, significand: int, start: int) -> int | float:
        """Past u64: `start` is where the digits began, or -1 for serde's float."""
        end = _DIGITS.match(self.data, self.index).end()
        exponent = end - self.index  # the digits past u64 only scale the value
        self.index = end
        byte = self.peek_or_null()
        if byte == DOT:
            return self._parse_decimal(positive, significand, exponent)
        if byte in (LOWER_E, UPPER_E):
            return self._parse_exponent(positive, significand, exponent)
        value = self._f64_from_parts(positive, significand, exponent)  # serde's refusal past f64
        if start >= 0:  # under 310 digits then, so int() is cheap
            exact = int(self.data[start:end])
            return exact if positive else -exact
        return value

    def _f64_from_parts(self, positive: bool, significand: int, exponent: int) -> float:
        value = f64_from_parts(significand, exponent)
        if value is None:
            raise self.error(NUMBER_OUT_OF_RANGE)
        return value if positive else -value


def _overflows(value: int, digit: int, limit: int) -> bool:
    return value >= limit // 10 and (value > limit // 10 or digit > limit % 10)


def f64_from_parts(significand: int, exponent: int) -> float | None:
    """serde_json's significand * 10^exponent (no float_roundtrip); None when out of range.

    Not correctly rounded for long mantissas or large exponents; neither is serde_json's default.
    """
    value = float(significand)  # u64 -> f64 rounds to nearest even, as Rust's `as` does
    while True:
        if abs(exponent) <= 308:
            if exponent >= 0:
                value *= _POW10[exponent]
                return None if math.isinf(value) else value
            return value / _POW10[-exponent]
        if value == 0.0:
            return value
        if exponent >= 0:
            return None
        value /= 1e308
        exponent += 308
