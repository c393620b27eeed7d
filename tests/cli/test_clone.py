"""`relate clone SRC DST` refuses `:memory:` as DST, as its help says (DST is a path), with a typed
usage error and exit code 2 before it reads SRC; run as the installed binary."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

RELATE = str(Path(sys.executable).with_name("relate"))


def relate(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([RELATE, *args], capture_output=True, text=True, cwd=cwd, timeout=60,
                          env={"PATH": "/usr/bin:/bin"})


def test_clone_into_memory_is_a_usage_error(tmp_path):
    made = relate("--database", "g.rl", "CREATE (:Person {name: 'Ada'})", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    before = sorted(p.name for p in tmp_path.iterdir())
    proc = relate("clone", "g.rl", ":memory:", cwd=tmp_path)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == ("Error: relate clone: DST cannot be :memory: (the copy would be gone when the command "
                           "ends); give a .rl path or a directory path\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    # :memory: as SRC is an empty store to copy, and stays allowed
    proc = relate("clone", ":memory:", "empty.rl", cwd=tmp_path)
    assert (proc.returncode, proc.stdout) == (0, "cloned :memory: to empty.rl: 0 nodes, 0 relationships, 0 indexes\n")
    # the help says DST is a path
    assert "DST         the new store: a .rl path or a directory path" in relate("clone", "--help", cwd=tmp_path).stdout

