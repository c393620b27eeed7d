"""The file layer the durable stores write through: store code -> `FileSystem` calls -> the OS.

Every byte a store reads or writes, every rename, unlink and folder sync goes through one
`FileSystem` object, so tests can swap in a layer that injects crashes, torn writes and lost
unsynced data (tests/storage/faultfs.py) and check recovery against it.  `OsFileSystem` is the real
one.  Only positional writes are used (`write_at`), so a store always knows where its bytes land.

The browser build's `:memory:` never touches a file, but its CLI can open a store in Pyodide's
in-memory file system, which has no hard links and whose flock always succeeds: `link` and `lock`
answer there as natively (tests/pyodide runs tests/unit inside Pyodide to keep it so).
"""
from __future__ import annotations

import os
import sys
import weakref
from typing import Any

from ..errors import E, StorageError


def reason(e: OSError) -> str:
    """What the OS said, as people read it: `No space left on device`, `File too large`."""
    return e.strerror or str(e)


def io_error(what: str, path: str, e: OSError) -> StorageError:
    return E.Storage.Io(f"cannot {what} {path}: {reason(e)}")


def write_failed(e: OSError) -> StorageError:
    """The error a commit the disk refused answers with (the log line names the file)."""
    return E.StorageWrite.WriteFailed(reason=reason(e))


class OsFile:
    """An open file: positional reads and writes, size, sync, truncate."""

    __slots__ = ("path", "fd", "_head", "__weakref__")

    def __init__(self, path: str, fd: int) -> None:
        self.path = path
        self.fd = fd
        # a shared mapping of the file's first bytes (`put_head`) once made; False: none can be
        self._head: Any = None

    def size(self) -> int:
        return os.fstat(self.fd).st_size

    def read_at(self, offset: int, n: int) -> bytes:
        chunks = []
        while n > 0:
            b = os.pread(self.fd, n, offset)
            if not b:
                break
            chunks.append(b)
            offset += len(b)
            n -= len(b)
        return b"".join(chunks)

    def write_at(self, offset: int, data: bytes) -> None:
        n = os.pwrite(self.fd, data, offset)
        if n == len(data):
            return  # the common case: all of it in one call
        view = memoryview(data)[n:]
        offset += n
        while view:
            n = os.pwrite(self.fd, view, offset)
            view = view[n:]
            offset += n

    def put_head(self, data: bytes) -> None:
        """Overwrite the file's first `len(data)` bytes, unsynced, as `write_at(0, data)` would.

        The second and later calls of one length store into a shared memory mapping of those bytes
        instead of making a system call: the kernel's page cache holds them either way, so they
        survive the process (SIGKILL included) and, like any unsynced write, may be lost or torn by
        a power cut.  Where no mapping can be made (Pyodide, a file system without it) it writes."""
        head = self._head
        if head and len(head) == len(data):
            head[:] = data
            return
        self.write_at(0, data)
        if head is None and sys.platform != "emscripten":
            try:
                import mmap  # native only, and only for a writer's commit record
                self._head = mmap.mmap(self.fd, len(data))
            except (ImportError, OSError, ValueError):
                self._head = False  # no mapping here: write each time

    def sync(self) -> None:
        # fdatasync also flushes the size change an append makes (as durable as fsync for an
        # append, without the timestamps); macOS lacks it
        getattr(os, "fdatasync", os.fsync)(self.fd)

    def truncate(self, size: int) -> None:
        os.ftruncate(self.fd, size)

    def identity(self) -> tuple[int, int]:
        st = os.fstat(self.fd)
        return (st.st_dev, st.st_ino)

    def close(self) -> None:
        head, self._head = self._head, None
        if head:
            head.close()  # the mapping holds a duplicate of the descriptor, and with it the flock
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __del__(self) -> None:
        # a store dropped without close() still gives its lease back when collected
        try:
            self.close()
        except Exception:  # at interpreter exit `os` may already be gone
            pass


class OsFileSystem:
    """The real disk."""

    def exists(self, path: str) -> bool:
        return os.path.exists(path)

    def isdir(self, path: str) -> bool:
        return os.path.isdir(path)

    def listdir(self, path: str) -> list[str]:
        return os.listdir(path)

    def read(self, path: str) -> bytes:
        with open(path, "rb") as f:
            return f.read()

    def open(self, path: str, *, create: bool = False, exclusive: bool = False,
             writable: bool = True) -> OsFile:
        flags = os.O_RDWR if writable else os.O_RDONLY
        if create:
            flags |= os.O_CREAT
        if exclusive:
            flags |= os.O_EXCL
        return OsFile(path, os.open(path, flags | getattr(os, "O_CLOEXEC", 0), 0o644))

    def identity(self, path: str) -> tuple[int, int] | None:
        try:
            st = os.stat(path)
        except FileNotFoundError:
            return None
        return (st.st_dev, st.st_ino)

    def mkdir(self, path: str) -> None:
        os.mkdir(path)

    def rename(self, src: str, dst: str) -> None:
        os.replace(src, dst)

    def link(self, src: str, dst: str) -> None:
        """Give `src` a second name `dst`; fails if `dst` exists (creation that never replaces)."""
        if hasattr(os, "link"):
            os.link(src, dst)
            return
        # Pyodide: no hard links; an exclusive create of a copy never replaces either (callers
        # unlink `src` next)
        fd = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            os.write(fd, self.read(src))
        finally:
            os.close(fd)

    def unlink(self, path: str) -> None:
        os.unlink(path)

    def rmdir(self, path: str) -> None:
        os.rmdir(path)

    def sync_dir(self, path: str) -> None:
        try:
            fd = os.open(path or ".", os.O_RDONLY)
        except OSError:
            return  # some platforms cannot open folders; their renames are durable on their own
        try:
            os.fsync(fd)
        except OSError:
            pass
        finally:
            os.close(fd)

    def lock(self, file: OsFile) -> bool:
        """Try to take an exclusive lease on an open file; False when another process holds it.

        The kernel drops the lease when its holder dies, so a crashed writer never blocks the next."""
        try:
            import fcntl  # native only; the browser build never opens a file store
        except ImportError:
            return True  # a single-process platform: nobody to share the store with
        if sys.platform == "emscripten":
            # Pyodide's flock always succeeds; one process there, so its leases are all here,
            # by file (a compacted copy renamed into place keeps its own)
            key = os.fstat(file.fd)[1:3]
            holder = _PYODIDE_LEASES.get(key)
            if holder is not None and holder.fd >= 0:
                return False
            _PYODIDE_LEASES[key] = file
            return True
        try:
            fcntl.flock(file.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        except OSError as e:
            if e.errno in (11, 35):  # EAGAIN / EWOULDBLOCK on platforms that spell it so
                return False
            raise
        return True


# (inode, device) -> the file holding its lease, until it is closed or collected (as a flock)
_PYODIDE_LEASES: "weakref.WeakValueDictionary[tuple, OsFile]" = weakref.WeakValueDictionary()
OS = OsFileSystem()


def temp_name(path: str) -> str:
    """Where a whole new file for `path` is written before it takes its name (beside it, hidden,
    per process): `.<name>.tmp-<pid>`."""
    return os.path.join(os.path.dirname(path), f".{os.path.basename(path)}.tmp-{os.getpid()}")


def write_whole(f, data: bytes) -> None:
    """Make the open file `f` hold exactly `data`, synced."""
    f.truncate(0)
    f.write_at(0, data)
    f.sync()


def write_new(fs, path: str, data: bytes) -> None:
    """Write a complete file at `path` (temp file, sync, rename, sync the folder).

    A crash leaves the old file (or none) or the new one, never a part; a stray temp file may
    remain and is cleaned by the next writer."""
    folder = os.path.dirname(path)
    tmp = temp_name(path)
    try:
        f = fs.open(tmp, create=True)
        try:
            write_whole(f, data)
        finally:
            f.close()
        fs.rename(tmp, path)
    except OSError as e:
        try:
            fs.unlink(tmp)
        except OSError:
            pass
        raise io_error("write", path, e) from None
    fs.sync_dir(folder)
