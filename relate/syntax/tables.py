"""`cypher.lark` -> a ready lark parser, loaded from a pickled image of one whenever it can be.

lark's own cache (`Lark.save`/`Lark.load`) stores the tables as plain data and rebuilds every rule,
action and contextual lexer from them on load: about two thirds of a bare `relate "RETURN 1"`.
Here the whole built parser is pickled instead, so loading is one C-speed `pickle.load`.  Two
kinds of object cannot travel by value: modules (lark keeps the `re` module in its lexer
configuration) and lark's `Shift`/`Reduce` actions, which its parser compares by identity; both
are written as references and resolved on load.

The lexers' scanners are built before the image is written and travel as plain data, each
rebuilt when its lexer first scans (`scanners.py`).

Where an image comes from, in order: the one shipped beside the grammar (`cypher.lark.bin`, written
by the site build: the browser has no cache between page loads), then this user's cache file in
the temporary directory, else the parser is built and that cache file written.  An image names the
grammar, the options, the lark version and this format in its first line (a sha256), so an edited
grammar or another lark is never loaded from a stale image; a cache file someone else could have
written (another owner, writable by group or others) is never unpickled.
"""
from __future__ import annotations

import importlib
import os
import pickle
import types
from pathlib import Path
from typing import Any, BinaryIO

from lark import Lark
from lark.lexer import BasicLexer
from lark.parsers import lalr_analysis

from ..dataclass_code import trusted
from ..gc_pause import paused
from .scanners import loaded_lexer, scanner_data

__all__ = ["digest", "load", "save", "build", "cache_path"]

# bumped whenever what an image holds changes shape
_FORMAT = "relate-lark-image/2"
_ACTIONS = {id(lalr_analysis.Shift): "Shift", id(lalr_analysis.Reduce): "Reduce"}


def digest(grammar: str, options: dict[str, Any]) -> bytes:
    import hashlib
    import lark
    text = _FORMAT + grammar + repr(sorted(options.items())) + lark.__version__
    return hashlib.sha256(text.encode("utf-8")).hexdigest().encode("ascii")


class _Pickler(pickle.Pickler):
    def persistent_id(self, obj: object) -> tuple[str, str] | None:
        if isinstance(obj, types.ModuleType):
            return ("module", obj.__name__)
        action = _ACTIONS.get(id(obj))
        return None if action is None else ("action", action)

    def reducer_override(self, obj: object) -> Any:
        # a built lexer travels with its scanner as plain data, rebuilt on first use (`scanners.py`)
        if type(obj) is BasicLexer:
            data = scanner_data(obj)
            if data is not None:
                state = {k: v for k, v in vars(obj).items() if k != "callback"}
                state["_scanner"] = None
                return (loaded_lexer, (state, data))
        return NotImplemented


class _Unpickler(pickle.Unpickler):
    def persistent_load(self, pid: Any) -> object:
        kind, name = pid
        if kind == "module":
            return importlib.import_module(name)
        if kind == "action" and name in ("Shift", "Reduce"):
            return getattr(lalr_analysis, name)
        raise pickle.UnpicklingError(f"unknown reference {pid!r}")


def build(grammar: str, options: dict[str, Any]) -> Lark:
    return Lark(grammar, **options)


def save(parser: Lark, f: BinaryIO, grammar: str, options: dict[str, Any]) -> None:
    """Write an image of `parser` (built from `grammar` with `options`), its lexers' scanners
    built."""
    _share_actions(parser)
    _build_scanners(parser)
    f.write(digest(grammar, options) + b"\n")
    # the grammar's own parse tree is only needed to build a parser, not to run one
    state = {k: v for k, v in vars(parser).items() if k != "grammar"}
    _Pickler(f, protocol=pickle.HIGHEST_PROTOCOL).dump(state)


def _share_actions(parser: Lark) -> None:
    """Make equal `(action, argument)` pairs of the LALR table one tuple: about 45,000 entries hold
    some 2,400 distinct pairs, and pickle writes a shared object once, so the image loads about six
    times faster."""
    table = getattr(getattr(getattr(parser.parser, "parser", None), "parser", None), "parse_table", None)
    if table is None:  # pragma: no cover - another lark layout: the image is only larger
        return
    pairs: dict[tuple[int, object], tuple[object, object]] = {}
    for actions in table.states.values():
        for token, (action, arg) in actions.items():
            # a shift's argument is a state number (equal numbers need not be one object), a
            # reduce's is a `Rule` (one object per rule already)
            key = (id(action), arg if isinstance(arg, int) else id(arg))
            actions[token] = pairs.setdefault(key, (action, arg))


def _build_scanners(parser: Lark) -> None:
    lexer = getattr(parser.parser, "lexer", None)
    lexers = list(getattr(lexer, "lexers", {}).values()) + [getattr(lexer, "root_lexer", lexer)]
    for one in lexers:
        getattr(one, "scanner", None)  # lark's BasicLexer builds its scanner when first asked


def load(path: Path, grammar: str, options: dict[str, Any]) -> Lark | None:
    """The parser imaged in `path` when the image was written for this grammar, these options and
    this lark version, else None."""
    try:
        with path.open("rb") as f:
            if f.readline().rstrip(b"\n") != digest(grammar, options):
                return None
            with paused():  # some 100,000 objects, all kept
                state = _Unpickler(f).load()
    except Exception:  # unreadable or damaged: built afresh instead
        return None
    parser = Lark.__new__(Lark)
    parser.__dict__.update(state)
    return parser


def cache_path(grammar: str, options: dict[str, Any]) -> Path:
    import tempfile
    uid = getattr(os, "getuid", lambda: 0)()
    return Path(tempfile.gettempdir()) / f".relate-parser-{uid}-{digest(grammar, options)[:24].decode()}.bin"


def cached(grammar: str, options: dict[str, Any], path: Path | None = None) -> Lark:
    """The parser from this user's cache file (`path`, by default `cache_path`), or built and then
    cached (best effort: a cache that cannot be written only costs the next process the build)."""
    try:
        path = cache_path(grammar, options) if path is None else path
    except OSError:  # no usable temporary directory: built, not kept
        return build(grammar, options)
    if trusted(path):
        parser = load(path, grammar, options)
        if parser is not None:
            return parser
    parser = build(grammar, options)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            save(parser, f, grammar, options)
        os.replace(tmp, path)
    except OSError:
        try:
            tmp.unlink()
        except OSError:
            pass
    return parser
