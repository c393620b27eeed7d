"""A simulated disk for crash tests: the stores' file layer, with power cuts.

Each file has live bytes (what a running process sees) and durable bytes (what an `fsync` put on
the platter); each folder has live and durable entries (`sync_dir` makes its entries durable).
`crash_at=n` makes the n-th changing call fail: a write lands partly, then every call raises
`Crashed`, as if the machine lost power.  `crashed()` then builds the disk a reboot would find:
synced data stays; each unsynced change is lost, kept, or torn (a prefix of it, possibly followed
by zeros or garbage), and each unsynced folder entry independently keeps its old or new state.

Errors the OS can answer while the machine stays up: `fail(n, errno)` makes the n-th changing call
raise OSError (a write lands partly first); with `full` set, every call that needs space (a write
that grows a file, creating a file or folder, a link) fails with ENOSPC after what fits (a random
prefix) landed, until `full` is cleared.  Truncating, unlinking and syncing still work on a full
disk.  Folder syncs never fail: the real layer ignores their errors.
"""
from __future__ import annotations

import errno
import os
import random


class Crashed(Exception):
    """The simulated machine lost power."""


class _Inode:
    __slots__ = ("live", "durable")

    def __init__(self, data: bytes = b"") -> None:
        self.live = bytearray(data)
        self.durable = bytes(data)


_DIR = "<dir>"


class FaultFile:
    def __init__(self, fs: "FaultFs", path: str, inode: _Inode, writable: bool) -> None:
        self.fs = fs
        self.path = path
        self.inode = inode
        self.writable = writable
        self.fd = 0

    def size(self) -> int:
        self.fs._alive()
        return len(self.inode.live)

    def read_at(self, offset: int, n: int) -> bytes:
        self.fs._alive()
        return bytes(self.inode.live[offset:offset + n])

    def write_at(self, offset: int, data: bytes) -> None:
        assert self.writable
        live = self.inode.live
        cut_short = self.fs._tick()
        error = self.fs._error(grows=offset + len(data) > len(live))
        if cut_short:
            data = data[:self.fs.rng.randint(0, len(data))]  # the write that was cut short
        elif error:
            data = data[:self.fs.rng.randint(0, max(0, len(data) - 1))]  # what fits; never all of it
        if len(live) < offset:
            live.extend(b"\0" * (offset - len(live)))
        live[offset:offset + len(data)] = data
        if self.fs.dead:
            raise Crashed()
        if error:
            raise OSError(error, os.strerror(error))

    def sync(self) -> None:
        self.fs._step()
        self.inode.durable = bytes(self.inode.live)

    def truncate(self, size: int) -> None:
        self.fs._step()
        if len(self.inode.live) < size:
            self.inode.live.extend(b"\0" * (size - len(self.inode.live)))
        del self.inode.live[size:]

    def identity(self) -> tuple[int, int]:
        return (0, id(self.inode))

    def close(self) -> None:
        pass


class FaultFs:
    def __init__(self, seed: int = 0, crash_at: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.crash_at = crash_at
        self.ops = 0
        self.dead = False
        self.live: dict[str, object] = {"/": _DIR}
        self.durable: dict[str, object] = {"/": _DIR}
        self.errors: dict[int, int] = {}  # changing call number -> the errno it fails with
        self.full = False

    # ------------------------------------------------------------------ crash machinery
    def _alive(self) -> None:
        if self.dead:
            raise Crashed()

    def _tick(self) -> bool:
        """Count one changing call -> True when it is the one the power cut interrupts."""
        self._alive()
        self.ops += 1
        if self.crash_at is not None and self.ops >= self.crash_at:
            self.dead = True
            return True
        return False

    def _step(self, grows: bool = False, fails: bool = True) -> None:
        if self._tick():
            raise Crashed()
        error = self._error(grows) if fails else None
        if error:
            raise OSError(error, os.strerror(error))

    def _error(self, grows: bool) -> int | None:
        """The errno the changing call just counted fails with, if any."""
        error = self.errors.pop(self.ops, None)
        if error is None and self.full and grows:
            error = errno.ENOSPC
        return error

    def fail(self, n: int, error: int = errno.ENOSPC) -> None:
        """Make the n-th changing call from now fail with `error` (once)."""
        self.errors[self.ops + n] = error

    def crashed(self, seed: int) -> "FaultFs":
        """The disk after a reboot (see the module docstring)."""
        rng = random.Random(seed)
        out = FaultFs(seed)
        chosen: dict[str, object] = {}
        for path in sorted(set(self.live) | set(self.durable)):
            a, b = self.durable.get(path), self.live.get(path)
            entry = a if a is b else rng.choice((a, b))
            if entry is not None:
                chosen[path] = entry
        result: dict[str, object] = {"/": _DIR}
        for path in sorted(chosen, key=lambda p: p.count("/")):
            parent = os.path.dirname(path)
            if path == "/" or result.get(parent) is not _DIR:
                continue
            entry = chosen[path]
            if entry is _DIR:
                result[path] = _DIR
                continue
            result[path] = _Inode(self._after_crash(entry, rng))
        out.live = result
        out.durable = dict(result)
        return out

    @staticmethod
    def _after_crash(inode: _Inode, rng: random.Random) -> bytes:
        live, durable = bytes(inode.live), inode.durable
        if live == durable:
            return durable
        fate = rng.random()
        if fate < 0.25:
            return durable
        if fate < 0.5:
            return live
        common = 0
        for x, y in zip(live, durable):
            if x != y:
                break
            common += 1
        cut = rng.randint(common, len(live))
        tail = b""
        if rng.random() < 0.5:
            n = rng.randint(1, 64)
            tail = b"\0" * n if rng.random() < 0.5 else bytes(rng.getrandbits(8) for _ in range(n))
        return live[:cut] + tail

    # ------------------------------------------------------------------ the file layer
    def _children(self, path: str) -> list[str]:
        prefix = path.rstrip("/") + "/"
        return [p for p in self.live if p.startswith(prefix) and "/" not in p[len(prefix):] and p != path]

    def exists(self, path: str) -> bool:
        self._alive()
        return os.path.normpath(path) in self.live

    def isdir(self, path: str) -> bool:
        self._alive()
        return self.live.get(os.path.normpath(path)) is _DIR

    def listdir(self, path: str) -> list[str]:
        self._alive()
        path = os.path.normpath(path)
        if self.live.get(path) is not _DIR:
            raise FileNotFoundError(2, "No such file or directory")
        return [os.path.basename(p) for p in self._children(path)]

    def read(self, path: str) -> bytes:
        self._alive()
        entry = self.live.get(os.path.normpath(path))
        if entry is None:
            raise FileNotFoundError(2, "No such file or directory")
        if entry is _DIR:
            raise IsADirectoryError(21, "Is a directory")
        return bytes(entry.live)

    def open(self, path: str, *, create: bool = False, exclusive: bool = False, writable: bool = True):
        path = os.path.normpath(path)
        entry = self.live.get(path)
        if entry is None:
            if not create:
                self._alive()
                raise FileNotFoundError(2, "No such file or directory")
            if self.live.get(os.path.dirname(path)) is not _DIR:
                self._alive()
                raise FileNotFoundError(2, "No such file or directory")
            self._step(grows=True)
            entry = self.live[path] = _Inode()
        elif entry is _DIR:
            raise IsADirectoryError(21, "Is a directory")
        elif exclusive:
            raise FileExistsError(17, "File exists")
        return FaultFile(self, path, entry, writable)

    def identity(self, path: str):
        entry = self.live.get(os.path.normpath(path))
        return None if entry is None else (0, id(entry))

    def mkdir(self, path: str) -> None:
        path = os.path.normpath(path)
        if path in self.live:
            raise FileExistsError(17, "File exists")
        self._step(grows=True)
        self.live[path] = _DIR

    def rename(self, src: str, dst: str) -> None:
        src, dst = os.path.normpath(src), os.path.normpath(dst)
        self._step()
        entry = self.live.pop(src)
        if entry is _DIR:
            for p in [p for p in self.live if p.startswith(src + "/")]:
                self.live[dst + p[len(src):]] = self.live.pop(p)
        self.live[dst] = entry

    def link(self, src: str, dst: str) -> None:
        src, dst = os.path.normpath(src), os.path.normpath(dst)
        if dst in self.live:
            raise FileExistsError(17, "File exists")
        self._step(grows=True)
        self.live[dst] = self.live[src]

    def unlink(self, path: str) -> None:
        path = os.path.normpath(path)
        if path not in self.live:
            raise FileNotFoundError(2, "No such file or directory")
        self._step()
        del self.live[path]

    def rmdir(self, path: str) -> None:
        self.unlink(path)

    def sync_dir(self, path: str) -> None:
        path = os.path.normpath(path)
        self._step(fails=False)
        prefix = path.rstrip("/") + "/"
        for p in [p for p in self.durable if p.startswith(prefix) and "/" not in p[len(prefix):]]:
            if p not in self.live:
                del self.durable[p]
        for p in self._children(path):
            self.durable[p] = self.live[p]

    def lock(self, file) -> bool:
        return True

    def make_durable_dir(self, path: str) -> None:
        """A folder that exists before the test starts (created and synced)."""
        self.live[os.path.normpath(path)] = self.durable[os.path.normpath(path)] = _DIR
