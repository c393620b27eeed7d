"""A lark lexer's built scanner -> plain data kept in the parser's image, and back on first use.

lark's contextual lexer holds one basic lexer per set of terminals a parser state accepts (some
330 for `cypher.lark`), and each builds its scanner the first time it scans: it works out which
keywords a name-like terminal would also match, then compiles one large regular expression, about
1.5 ms per lexer, most of the first parse of a statement in a new process.  The image
(`tables.py`) is written with every scanner built; each lexer keeps its own as a small pickle of
plain data (terminal names, pattern texts) that it turns back into a scanner when it first scans,
so a process pays only for the lexers its statements meet.

The regular expressions are compiled on first use too.  Where the Python loading the image runs
the regular expression engine that wrote it (same version, `_sre.MAGIC` and code size), the image
also holds each pattern's compiled engine code, which `_sre.compile` takes as it is (the step
after `re`'s pure-Python compiler, and a pattern equal to the one `re.compile` makes); elsewhere
(the browser's Python) the pattern text is compiled.
"""
from __future__ import annotations

import _sre  # type: ignore[import-not-found]  # CPython's regular expression engine
import pickle
import sys
from array import array
from typing import Any

from lark.lexer import BasicLexer, Scanner, UnlessCallback

__all__ = ["ENGINE", "scanner_data", "loaded_lexer"]

# the regular expression engine whose compiled code an image may carry
ENGINE = (sys.version_info[:2], _sre.MAGIC, _sre.CODESIZE)


def _engine_code(pattern: Any) -> tuple | None:
    """`_sre.compile`'s arguments after the text for `pattern`, as `re._compiler.compile` makes
    them (the code as bytes), or None where this Python's `re` is laid out otherwise."""
    try:
        from re import _compiler, _parser  # type: ignore[attr-defined]
        p = _parser.parse(pattern.pattern, pattern.flags)
        code = _compiler._code(p, pattern.flags)
        indexgroup: list[str | None] = [None] * p.state.groups
        for k, i in p.state.groupdict.items():
            indexgroup[i] = k
        args = (pattern.flags | p.state.flags, array("I", code).tobytes(), p.state.groups - 1,
                dict(p.state.groupdict), tuple(indexgroup))
    except Exception:  # pragma: no cover - another `re`: the text is compiled on load
        return None
    # kept only when it makes the very pattern `re` made
    return args if _compile(ENGINE, (pattern.pattern, pattern.flags, args)) == pattern else None


def _compile(engine: tuple, spec: tuple) -> Any:
    text, flags, args = spec
    if args is not None and engine == ENGINE:
        flags_, code, groups, groupindex, indexgroup = args
        return _sre.compile(text, flags_, array("I", code).tolist(), groups, groupindex, indexgroup)
    import re
    return re.compile(text, flags)


def _scanner_data(scanner: Scanner) -> tuple:
    return (tuple(t.name for t in scanner.terminals), scanner.g_regex_flags, scanner.use_bytes,
            tuple((m.pattern, m.flags, _engine_code(m)) for m in scanner._mres))


def scanner_data(lexer: BasicLexer) -> bytes | None:
    """The built scanner of `lexer` and its keyword callbacks as plain data, or None when it has
    none built or holds a callback this module does not rebuild."""
    scanner = lexer.__dict__.get("_scanner")
    if scanner is None or lexer.user_callbacks:
        return None
    unless = []
    for name, callback in lexer.callback.items():
        if type(callback) is not UnlessCallback:  # pragma: no cover - no such callback in cypher.lark
            return None
        unless.append((name, _scanner_data(callback.scanner)))
    return pickle.dumps((ENGINE, _scanner_data(scanner), tuple(unless)), protocol=pickle.HIGHEST_PROTOCOL)


class _CompiledOnFirstUse:
    """A loaded scanner's `_mres`: compiled when first read, then kept on the scanner itself (this
    descriptor has no `__set__`, so the instance's own attribute wins from then on)."""

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        engine, specs = obj.__dict__.pop("_specs")
        mres = obj.__dict__["_mres"] = [_compile(engine, spec) for spec in specs]
        return mres


class LoadedScanner(Scanner):
    """lark's `Scanner` as an image brings it back: its patterns compiled on first use."""

    _mres = _CompiledOnFirstUse()


class LoadedLexer(BasicLexer):
    """lark's `BasicLexer` as an image brings it back: its scanner rebuilt from plain data."""

    def _build_scanner(self) -> Scanner:
        data = self.__dict__.pop("_scanner_data", None)
        if data is None:  # pragma: no cover - lark builds a scanner once
            return super()._build_scanner()
        engine, main, unless = pickle.loads(data)
        self.callback = {name: UnlessCallback(self._rebuilt(engine, d)) for name, d in unless}
        return self._rebuilt(engine, main)

    def _rebuilt(self, engine: tuple, data: tuple) -> Scanner:
        names, flags, use_bytes, specs = data
        scanner = LoadedScanner.__new__(LoadedScanner)
        scanner.__dict__.update(terminals=[self.terminals_by_name[n] for n in names], g_regex_flags=flags,
                                re_=self.re, use_bytes=use_bytes, allowed_types=set(names),
                                _specs=(engine, specs))
        return scanner


def loaded_lexer(state: dict, data: bytes) -> BasicLexer:
    """The lexer pickled as `state` (its scanner not built) that builds it from `data`."""
    lexer = LoadedLexer.__new__(LoadedLexer)
    lexer.__dict__.update(state)
    lexer.__dict__["_scanner_data"] = data
    return lexer
