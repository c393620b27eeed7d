"""The credential of the port listeners: `--auth` / `RELATE_AUTH` / the token file -> a `Credential`.

* `parse_auth(text, source)` turns `USER:PASSWORD` into a `Credential`, `none` into `None`, and
  anything else into an `AuthSpecError` whose message `relate serve` prints before exiting 1.
* `resolve(...)` picks the credential the way the reference page orders the sources: `--auth`,
  then `RELATE_AUTH`, then a generated token for the user `relate`.  The token of a file or
  directory store is kept beside it in `<store>.auth-token` (mode 0600, one line
  `relate:<token>`) and read back on the next start; `:memory:` gets a new one every time.  The
  `auth:` lines for stderr come back with it.
* `basic_ok(header, credential)` checks one `Authorization` header value (RFC 7617 Basic) in
  constant time.
"""
from __future__ import annotations

import base64
import binascii
import hmac
import os
import secrets
import stat
from dataclasses import dataclass

from ..storage.store import MEMORY

TOKEN_USER = "relate"
TOKEN_SUFFIX = ".auth-token"


@dataclass(frozen=True, slots=True)
class Credential:
    user: str
    password: str

    def line(self) -> str:
        return f"{self.user}:{self.password}"


@dataclass(frozen=True, slots=True)
class ResolvedAuth:
    """The credential to check (None: no check) and the `auth:` lines announcing it."""

    credential: Credential | None
    lines: tuple[str, ...]


class AuthSpecError(ValueError):
    """A malformed `--auth` / `RELATE_AUTH` value or token file; `relate serve` exits 1 with it."""


def parse_auth(text: str, source: str = "--auth") -> Credential | None:
    """`USER:PASSWORD` -> Credential, `none` -> None; other shapes raise `AuthSpecError`
    (`source` names the flag or variable the text came from)."""
    if text == "none":
        return None
    user, colon, password = text.partition(":")
    if not colon:
        raise AuthSpecError(f"Error: {source}: expected user:password or 'none'")
    if not user or not password:
        raise AuthSpecError(f"Error: {source}: expected user:password with both sides non-empty")
    return Credential(user, password)


def token_path(store: str) -> str | None:
    """Where the generated token of `store` lives; None for `:memory:`."""
    if store == MEMORY:
        return None
    trimmed = store.rstrip("/") or store  # a directory given as `data/` keeps its token beside it
    return trimmed + TOKEN_SUFFIX


def resolve(flag: str | None, env_value: str | None, store: str) -> ResolvedAuth:
    """Pick the credential: `--auth`, else `RELATE_AUTH`, else the store's (generated) token."""
    for value, source in ((flag, "--auth"), (env_value, "RELATE_AUTH")):
        if value is None:
            continue
        cred = parse_auth(value, source)
        if cred is None:
            return ResolvedAuth(None, (f"auth: none ({source} none): requests are not checked",))
        return ResolvedAuth(cred, (f"auth: basic (credential from {source})",))
    path = token_path(store)
    if path is not None and os.path.lexists(path):  # a dangling symlink is refused, not replaced
        return ResolvedAuth(_read_token(path), (f"auth: basic (token reused from {path})",))
    cred = Credential(TOKEN_USER, secrets.token_urlsafe(24))
    lines = [f"auth: generated token for user {TOKEN_USER}: {cred.password}"]
    if path is not None:
        _write_token(path, cred)
        lines.append(f"auth: persisted at {path} (reused on restart)")
    return ResolvedAuth(cred, tuple(lines))


def _read_token(path: str) -> Credential:
    """The credential in an existing token file, which must be the user's own secret: a regular
    file (not a symlink someone could point elsewhere), owned by this user, closed to group and
    others.  Anything else is refused with what to do about it, never trusted."""
    fix = "remove it to get a new token"
    # O_NOFOLLOW: the checks below are about the file opened, not one a symlink swapped in later
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError as e:
        if os.path.islink(path):
            raise AuthSpecError(f"Error: {path}: the token file is a symbolic link; {fix} "
                                "(relate writes a regular file)") from None
        raise AuthSpecError(f"Error: {path}: cannot read the token file: {e.strerror or e}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise AuthSpecError(f"Error: {path}: the token file is not a regular file; {fix}")
        uid = os.getuid() if hasattr(os, "getuid") else st.st_uid
        if st.st_uid != uid:
            raise AuthSpecError(f"Error: {path}: the token file belongs to uid {st.st_uid}, not to the user "
                                f"running relate (uid {uid}); {fix}, or chown it")
        if st.st_mode & 0o077:
            raise AuthSpecError(f"Error: {path}: the token file is open to group or others (mode "
                                f"{stat.S_IMODE(st.st_mode):04o}); run `chmod 600 {path}`, or {fix}")
        raw = os.read(fd, 4096)
    finally:
        os.close(fd)
    try:
        text = raw.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise AuthSpecError(f"Error: {path}: the token file is not UTF-8 text; {fix}") from None
    user, colon, password = text.partition(":")
    if not colon or not user or not password or "\n" in text:
        raise AuthSpecError(f"Error: {path}: expected one line user:password; remove the file to get a new token")
    return Credential(user, password)


def _write_token(path: str, cred: Credential) -> None:
    # O_EXCL with mode 0600: the file never exists, even briefly, with looser permissions
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, (cred.line() + "\n").encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)


def basic_ok(header: bytes | None, cred: Credential) -> bool:
    """Does one `Authorization` header value carry `cred` as HTTP Basic?"""
    if header is None:
        return False
    scheme, _, token = header.strip().partition(b" ")
    if scheme.lower() != b"basic":
        return False
    try:
        decoded = base64.b64decode(token.strip(), validate=True)
    except (binascii.Error, ValueError):
        return False
    want = cred.line().encode("utf-8")
    return hmac.compare_digest(decoded, want)
