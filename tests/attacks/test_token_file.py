"""A planted `<store>.auth-token` is never trusted: a symlink, a file of another user, one that
group or others can read, or one that is not UTF-8 text makes `relate serve --mcp PORT` refuse to
start (exit 1) with a line saying how to fix it; a proper file (mode 0600, the user's own) is
reused as before.  (Issue 14.)"""
from __future__ import annotations

import os

import pytest

from tests.net.server import run_serve, start

ARGV = ["--mcp", "0", "--database", "./g.rl"]


@pytest.fixture
def token(tmp_path):
    path = tmp_path / "g.rl.auth-token"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.write(fd, b"relate:secret\n")
    os.close(fd)
    return path


def refused(tmp_path) -> str:
    proc = run_serve(ARGV, tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert "traceback" not in proc.stderr.lower()
    return proc.stderr.strip().splitlines()[-1]


def test_a_proper_token_file_is_reused(tmp_path, token):
    s = start(ARGV, tmp_path)
    try:
        assert "auth: basic (token reused from ./g.rl.auth-token)" in s.stderr
    finally:
        assert s.stop() == 0


def test_a_symlink_is_refused(tmp_path, token):
    target = tmp_path / "elsewhere"
    token.rename(target)
    token.symlink_to(target)
    assert refused(tmp_path) == ("Error: ./g.rl.auth-token: the token file is a symbolic link; remove it to "
                                 "get a new token (relate writes a regular file)")


def test_a_dangling_symlink_is_refused_not_followed(tmp_path):
    (tmp_path / "g.rl.auth-token").symlink_to(tmp_path / "nowhere")
    assert "is a symbolic link" in refused(tmp_path)
    assert not (tmp_path / "nowhere").exists()


@pytest.mark.parametrize("mode", [0o640, 0o604, 0o660])
def test_a_file_open_to_group_or_others_is_refused(tmp_path, token, mode):
    os.chmod(token, mode)
    assert refused(tmp_path) == (f"Error: ./g.rl.auth-token: the token file is open to group or others (mode "
                                 f"{mode:04o}); run `chmod 600 ./g.rl.auth-token`, or remove it to get a new token")


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
def test_a_file_of_another_user_is_refused(tmp_path, token):
    os.chown(token, 12345, -1)
    assert refused(tmp_path).startswith("Error: ./g.rl.auth-token: the token file belongs to uid 12345, not to "
                                        "the user running relate")


def test_a_file_that_is_not_utf8_is_refused(tmp_path, token):
    token.write_bytes(b"relate:\xff\xfe\n")
    assert refused(tmp_path) == ("Error: ./g.rl.auth-token: the token file is not UTF-8 text; "
                                 "remove it to get a new token")
