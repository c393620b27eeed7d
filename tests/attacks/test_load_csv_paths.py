"""LOAD CSV reads only regular files inside the import folder (issue 15): every way out of it is an
`ExternalResourceFailed` naming the URL as given, never the host path, and never a read of the
file outside.  `../` (plain and percent-encoded), absolute paths (they are relative to the
folder), symlinks to files or folders outside, other URL schemes, hosts, NUL bytes, FIFOs and
folders."""
from __future__ import annotations

import os

import pytest

import relate
from relate.errors import RelateError

SECRET = "top,secret\n"


@pytest.fixture
def layout(tmp_path):
    inside = tmp_path / "import"
    inside.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.csv").write_text(SECRET)
    (inside / "ok.csv").write_text("fine\n")
    return inside, outside


@pytest.fixture
def conn(layout):
    return relate.connect(":memory:", import_dir=str(layout[0]))


def refused(conn, url: str, params=None) -> RelateError:
    with pytest.raises(RelateError) as e:
        conn.execute("LOAD CSV FROM $u AS r RETURN r", {"u": url, **(params or {})})
    err = e.value
    assert err.kind == "ExternalResourceFailed", (url, err.kind, err.message)
    assert "secret" not in err.message.replace(url, "") and "top" not in err.message
    return err


@pytest.mark.parametrize("url", [
    "file:///../outside/secret.csv",
    "file:///../../etc/passwd",
    "file:///a/../../outside/secret.csv",
    "file:///%2e%2e/outside/secret.csv",
    "file:///..%2Foutside%2Fsecret.csv",
    "file:/../outside/secret.csv",
    "file://localhost/../outside/secret.csv",
])
def test_climbing_out_is_refused(conn, url):
    err = refused(conn, url)
    assert "leaves the import folder" in err.message


def test_absolute_paths_are_relative_to_the_folder(conn, layout):
    _, outside = layout
    refused(conn, "file://" + str(outside / "secret.csv"))   # DIR/<tmp>/outside/secret.csv: absent
    refused(conn, "file:///etc/passwd")


def test_symlinks_leaving_the_folder_are_refused(conn, layout):
    inside, outside = layout
    os.symlink(outside / "secret.csv", inside / "link.csv")
    os.symlink(outside, inside / "linkdir")
    for url in ("file:///link.csv", "file:///linkdir/secret.csv"):
        assert "leaves the import folder" in refused(conn, url).message


def test_a_symlink_inside_the_folder_is_followed(conn, layout):
    inside, _ = layout
    (inside / "sub").mkdir()
    os.symlink(inside / "ok.csv", inside / "sub" / "alias.csv")
    assert conn.execute("LOAD CSV FROM 'file:///sub/alias.csv' AS r RETURN r").rows == [(["fine"],)]


def test_an_import_folder_reached_through_a_symlink_still_works(layout, tmp_path):
    inside, _ = layout
    os.symlink(inside, tmp_path / "via")
    conn = relate.connect(":memory:", import_dir=str(tmp_path / "via"))
    assert conn.execute("LOAD CSV FROM 'file:///ok.csv' AS r RETURN r").rows == [(["fine"],)]


@pytest.mark.parametrize("url", [
    "http://127.0.0.1:9/x.csv", "https://example.com/x.csv", "ftp://example.com/x.csv",
    "jar:file:///x.jar!/a.csv", "s3://bucket/x.csv", "data:text/csv,a,b", "ok.csv", "/ok.csv",
    "../outside/secret.csv", "file:ok.csv", "FILE://remote-host/ok.csv", "file://evil.example/ok.csv", "",
])
def test_other_schemes_hosts_and_bare_paths_are_refused(conn, url):
    refused(conn, url)


@pytest.mark.parametrize("url", ["file:///ok.csv\x00.txt", "file:///ok.csv%00", "file:///%00/../ok.csv"])
def test_nul_bytes_are_refused(conn, url):
    err = refused(conn, url)
    assert "\x00" not in err.message


def test_folders_fifos_and_missing_files(conn, layout):
    inside, _ = layout
    (inside / "dir.csv").mkdir()
    refused(conn, "file:///dir.csv")
    refused(conn, "file:///")
    refused(conn, "file:///absent.csv")
    if hasattr(os, "mkfifo"):
        os.mkfifo(inside / "pipe.csv")
        assert "not a regular file" in refused(conn, "file:///pipe.csv").message  # and it does not block


def test_messages_do_not_show_the_host_path(conn, layout):
    inside, _ = layout
    err = refused(conn, "file:///absent.csv")
    assert str(inside) not in err.message


def test_the_import_folder_must_exist(tmp_path):
    with pytest.raises(RelateError) as e:
        relate.connect(":memory:", import_dir=str(tmp_path / "nope"))
    assert e.value.kind == "Usage"
    (tmp_path / "file").write_text("x")
    with pytest.raises(RelateError):
        relate.connect(":memory:", import_dir=str(tmp_path / "file"))
