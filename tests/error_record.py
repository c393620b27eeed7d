"""Every RelateError made while the test session runs -> the kinds the catalog does not declare.

`install()` wraps `RelateError.__init__` in the test process only (relate itself does no extra
work); tests/conftest.py installs it when the session starts and fails the session at its end
when an error of an undeclared kind, or of a kind declared with another class or phase, was made.
Errors made in subprocesses (the CLI transcripts, the browser) are not seen here; the static scan
in tests/unit/test_error_catalog.py covers their source.
"""
from __future__ import annotations

import functools

from relate import errors
from relate.errors import E

_seen: dict[tuple[str, str, str], str] = {}  # (class, kind, phase) -> the first test that made it
_current = ["(outside a test)"]


def install() -> None:
    original = errors.RelateError.__init__
    if getattr(original, "_records_kinds", False):
        return

    @functools.wraps(original)
    def recording(self, *args, **kwargs):
        original(self, *args, **kwargs)
        _seen.setdefault((type(self).__name__, self.kind, self.phase), _current[0])

    recording._records_kinds = True  # type: ignore[attr-defined]
    errors.RelateError.__init__ = recording  # type: ignore[method-assign]


def at(test: str) -> None:
    _current[0] = test


def undeclared() -> list[str]:
    """One line per error made with a kind the catalog does not declare (for its class and phase)."""
    out = []
    for (cls, kind, phase), test in sorted(_seen.items()):
        declared = E.declared(vars(errors)[cls], kind) if cls in vars(errors) else None
        if declared is None:
            out.append(f"{cls}({kind!r}) is not declared in relate/errors/catalog.py (first made in {test})")
        elif declared.phase != phase:
            out.append(f"{cls}({kind!r}) was made in the {phase} phase; the catalog declares {declared.phase} "
                       f"(first made in {test})")
    return out


def forget(*keys: tuple[str, str, str]) -> None:
    """Drop (class, kind, phase) records a test made on purpose."""
    for key in keys:
        _seen.pop(key, None)
