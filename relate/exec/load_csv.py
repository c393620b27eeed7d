"""LOAD CSV: the operator, the URL -> file rule of the import folder, and the CSV reader.

`LOAD CSV [WITH HEADERS] FROM url AS row [FIELDTERMINATOR c]` reads a file of the connection's
import folder (`Policy.import_dir`, handed to the run as `ExecContext.import_dir`; the database
refuses the statement before it runs when there is none, or when the connection is read-only).

The URL rule (`resolve`): only `file:` URLs (`file:///x.csv`, `file:/x.csv`, `file://localhost/x.csv`),
percent-decoded; the path is relative to the import folder whatever its leading slashes
(`file:///data/x.csv` is DIR/data/x.csv, as in Neo4j); `.` and `..` are folded lexically and a
path that climbs above the folder is refused; the folded path's real location (symlinks resolved)
must still lie inside the folder's real location; it must be a regular file.  Every refusal is
`ExternalResourceFailed`, worded with the URL as given (never the host path of the folder).

The reader (`records`): UTF-8 with or without a byte-order mark; fields separated by the
terminator (default `,`); a field that starts with `"` is quoted: it may hold the terminator and
line breaks, `""` inside it is one `"`, and so is `\\"` (Neo4j's default legacy quote escaping).
An empty unquoted field is null, a quoted empty field `""` is the empty string; every other field
is a string.  Blank lines are skipped.  Without headers a row is the list of its fields; WITH
HEADERS the first record names the keys, each later record is a map (a short record gives null
for the keys it lacks, extra fields are dropped).  `linenumber()` is the number of the line the
record starts on (the header is line 1), `file()` the absolute path of the file.

Files are opened when the first row needs them and read one record at a time (a LIMIT stops the
reading); nothing here touches the file system at import time.  The operator adds two hidden
slots per clause (`linenumber()`/`file()` read the latest clause's, `csv_function`); they are
null where no LOAD CSV is in scope, e.g. after a WITH that does not carry them.
"""
from __future__ import annotations

import os
import re
import stat

from ..errors import E
from ..values import type_name
from .operators import Operator

LINE = " csv line@"
FILE = " csv file@"
FUNCTIONS = frozenset({"linenumber", "file"})
_FILE_URL = re.compile(r"file:(.*)", re.IGNORECASE | re.DOTALL)
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")


def hidden_names(pos: int) -> tuple[str, str]:
    """The scope names of one LOAD CSV clause's line number and file."""
    return f"{LINE}{pos}", f"{FILE}{pos}"


def csv_function(name: str, scope):
    """`linenumber()` / `file()` compiled against `scope`: the latest LOAD CSV clause's slot, or null."""
    prefix = LINE if name == "linenumber" else FILE
    slots = [s for n, s in scope.slots.items() if n.startswith(prefix)]
    if not slots:
        return lambda row, ctx: None
    slot = max(slots)
    return lambda row, ctx: row[slot]


# ------------------------------------------------------------------ the URL rule

def _refuse(url: str, why: str):
    return E.Runtime.ExternalResourceFailed(f"Couldn't load the external resource at: {url} ({why})")


def resolve(url: str, import_dir: str) -> str:
    """The real path of the regular file `url` names inside `import_dir`, or ExternalResourceFailed."""
    shown = url.replace("\x00", "\\0")
    if "\x00" in url:
        raise _refuse(shown, "the URL holds a NUL character")
    m = _FILE_URL.fullmatch(url)
    if m is None:
        scheme = _SCHEME.match(url)
        what = f"{scheme.group(1)}: URLs are not read" if scheme else "it is not a URL"
        raise _refuse(shown, f"{what}; LOAD CSV reads file:/// URLs of the import folder")
    rest = m.group(1)
    if rest.startswith("//"):
        authority, slash, path = rest[2:].partition("/")
        if authority.lower() not in ("", "localhost"):
            raise _refuse(shown, f"a file URL with the host {authority!r}; write file:///name")
        path = "/" + path
    else:
        path = rest
    if not path.startswith("/"):
        raise _refuse(shown, "a file URL needs an absolute path, e.g. file:///name.csv")
    path = path.split("?", 1)[0].split("#", 1)[0]
    from urllib.parse import unquote
    try:
        path = unquote(path, errors="strict")
    except UnicodeDecodeError:
        raise _refuse(shown, "its percent-escapes are not UTF-8") from None
    if "\x00" in path:
        raise _refuse(shown, "the path holds a NUL character")
    parts: list[str] = []
    for seg in path.split("/"):
        if seg in ("", "."):
            continue
        if seg == "..":
            if not parts:
                raise _refuse(shown, "the path leaves the import folder")
            parts.pop()
            continue
        if os.sep != "/" and ("\\" in seg or ":" in seg):
            raise _refuse(shown, "the path holds a drive or a backslash")
        parts.append(seg)
    if not parts:
        raise _refuse(shown, "the URL names no file")
    base = os.path.realpath(import_dir)
    real = os.path.realpath(os.path.join(base, *parts))
    if real != base and os.path.commonpath([base, real]) != base:
        raise _refuse(shown, "the path leaves the import folder")
    try:
        st = os.stat(real)
    except FileNotFoundError:
        raise _refuse(shown, "no such file in the import folder") from None
    except OSError as e:
        raise _refuse(shown, e.strerror or "the file cannot be read") from None
    if not stat.S_ISREG(st.st_mode):
        raise _refuse(shown, "not a regular file")
    return real


def open_text(real: str, url: str):
    """A text stream over the file `resolve` answered, opened without following a last-moment
    symlink and refused unless it is still a regular file."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(real, flags)
    except OSError as e:
        raise _refuse(url, e.strerror or "the file cannot be opened") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise _refuse(url, "not a regular file")
        return os.fdopen(fd, "r", encoding="utf-8-sig", newline="")
    except BaseException:
        os.close(fd)
        raise


# ------------------------------------------------------------------ the reader

def records(lines, delim: str, url: str = ""):
    """(line number the record starts on, its fields) for each record of `lines` (an iterator of
    lines with their line ends, as a file opened with newline='' gives them)."""
    it = iter(lines)
    lineno = 0
    for line in it:
        lineno += 1
        if '"' not in line:
            body = line.rstrip("\r\n")
            if body:
                yield lineno, [f if f else None for f in body.split(delim)]
            continue
        start = lineno
        fields: list[str | None] = []
        buf: list[str] = []
        quoted = in_quotes = False
        text, i = line, 0
        while True:
            n = len(text)
            while i < n:
                ch = text[i]
                if in_quotes:
                    if ch == '"':
                        if i + 1 < n and text[i + 1] == '"':
                            buf.append('"')
                            i += 2
                            continue
                        in_quotes = False
                    elif ch == "\\" and i + 1 < n and text[i + 1] == '"':
                        buf.append('"')
                        i += 2
                        continue
                    else:
                        buf.append(ch)
                    i += 1
                elif ch == delim:
                    fields.append("".join(buf) if buf or quoted else None)
                    buf, quoted = [], False
                    i += 1
                elif ch == '"' and not buf and not quoted:
                    in_quotes = quoted = True
                    i += 1
                elif ch == "\r" or ch == "\n":
                    break
                else:
                    buf.append(ch)
                    i += 1
            if not in_quotes:
                break
            text = next(it, None)
            if text is None:
                raise _refuse(url, f"the quoted field that starts on line {start} never ends")
            lineno += 1
            i = 0
        fields.append("".join(buf) if buf or quoted else None)
        yield start, fields


class LoadCsv(Operator):
    """Each input row, extended by each record of the file its URL names: (row value, line, file)."""

    name = "LoadCSV"

    def __init__(self, child, source, alias: str, headers: bool, delim: str) -> None:
        super().__init__(child)
        self.source = source
        self.headers = headers
        self.delim = delim
        self.details = ("WITH HEADERS " if headers else "") + f"AS {alias}"
        if delim != ",":
            self.details += f" FIELDTERMINATOR {delim!r}"
        self.identifiers = (alias,)

    def rows(self, ctx):
        for row in self.child.rows(ctx):
            url = self.source(row, ctx)
            if not isinstance(url, str):
                raise E.Type.InvalidArgumentType(f"LOAD CSV expects a string URL, got {type_name(url)}")
            if ctx.import_dir is None:
                raise E.Runtime.LoadCsvDisabled(DISABLED)
            yield from self._file(row, url, ctx)

    def _file(self, row, url: str, ctx):
        real = resolve(url, ctx.import_dir)
        timed = ctx.deadline is not None
        headers = self.headers
        keys = None
        with open_text(real, url) as stream:
            try:
                for line, fields in records(stream, self.delim, url):
                    if timed:
                        ctx.check_deadline()
                    if not headers:
                        yield row + (fields, line, real)
                    elif keys is None:
                        keys = ["" if k is None else k for k in fields]
                    else:
                        if len(fields) < len(keys):
                            fields = fields + [None] * (len(keys) - len(fields))
                        yield row + (dict(zip(keys, fields)), line, real)
            except UnicodeDecodeError:
                raise _refuse(url, "the file is not UTF-8 text") from None
            except OSError as e:
                raise _refuse(url, e.strerror or "the file cannot be read") from None


DISABLED = ("LOAD CSV needs an import folder, and this connection has none: open the database with "
            "relate.connect(..., import_dir=DIR), or run `relate --import-dir DIR` / `relate serve --import-dir DIR` "
            "(off by default, so MCP clients cannot read files)")
