"""The source `dataclasses` writes for each class's methods -> code compiled once per machine.

For every dataclass, `dataclasses` writes `__init__`, `__repr__`, `__eq__`, `__hash__` (and, frozen,
`__setattr__`/`__delattr__`) as text and compiles each when the class is made: with the engine's
125 or so frozen dataclasses, compiling that text was about a sixth of a bare `relate "RETURN 1"`.
While `reusing()` is active (around the package's imports, `relate/__init__.py`), the text is
looked up in a cache of code an earlier process compiled from the very same text (marshalled, in
the temporary directory), so each method is the function `exec` would have made from it: the
text is the key, compiled the way `dataclasses` compiles it (no inherited `__future__` flags).

The cache file belongs to this user and this Python's bytecode version; one another user could
have written is never loaded.  Nothing is cached inside Pyodide, whose file system lasts one page.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import CodeType
from typing import Any

__all__ = ["reusing", "cache_path", "trusted"]

# past this many entries the file is started afresh (texts of edited classes linger otherwise)
_MAX_ENTRIES = 4000


def cache_path() -> Path:
    import importlib.util
    import tempfile
    uid = getattr(os, "getuid", lambda: 0)()
    return Path(tempfile.gettempdir()) / f".relate-dataclasses-{uid}-{importlib.util.MAGIC_NUMBER.hex()}.bin"


def trusted(path: Path) -> bool:
    """Whether only this user could have written the cache file `path` (the temporary directory
    is shared); the parser image cache (`syntax/tables.py`) asks the same."""
    try:
        st = path.stat()
    except OSError:
        return False
    getuid = getattr(os, "getuid", None)
    return (getuid is None or st.st_uid == getuid()) and not st.st_mode & 0o022


def _read(path: Path) -> dict[str, CodeType]:
    import marshal
    if not trusted(path):
        return {}
    try:
        codes = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if not isinstance(codes, dict):
        return {}
    return {k: v for k, v in codes.items() if isinstance(k, str) and isinstance(v, CodeType)}


def _write(path: Path, codes: dict[str, CodeType]) -> None:
    import marshal
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(marshal.dumps(codes))
        os.replace(tmp, path)
    except OSError:
        try:
            tmp.unlink()
        except OSError:
            pass


@contextmanager
def reusing(path: Path | None = None) -> Iterator[None]:
    """Dataclasses made inside this block take their methods' code from the cache at `path` (by
    default `cache_path()`), which learns what it lacked when the block ends."""
    import dataclasses
    if sys.platform == "emscripten" or "exec" in vars(dataclasses):  # nothing to keep, or nested
        yield
        return
    try:
        path = cache_path() if path is None else path
    except OSError:  # no usable temporary directory: nothing to keep
        yield
        return
    codes = _read(path)
    known = len(codes)

    def cached_exec(source: Any, globals: Any = None, locals: Any = None) -> None:
        if isinstance(source, str):
            code = codes.get(source)
            if code is None:
                code = codes[source] = compile(source, "<string>", "exec", dont_inherit=True)
            source = code
        exec(source, globals, locals)

    # `dataclasses` calls `exec` by its global name: a module global of that name shadows the
    # builtin for as long as the block lasts
    setattr(dataclasses, "exec", cached_exec)
    try:
        yield
    finally:
        delattr(dataclasses, "exec")
        if len(codes) != known:
            _write(path, codes if len(codes) <= _MAX_ENTRIES else {})
