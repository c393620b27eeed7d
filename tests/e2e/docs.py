"""The site's pages as the tests see them: the list of pages (build/site.py PAGES), their
Markdown, their `bash verify` cases (build/verify.py), and a native runner for those cases.

`run_verify(case, folder)` runs one case's commands with bash in `folder`, in a plain shell's
environment whose PATH starts with the project's `relate`, stdout and stderr going to one pipe
as in a terminal -> (output with timings normalised to `<ms>`, exit status).
"""
from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
from pathlib import Path

from native import TIMEOUT, clean_env
from parity import normalise

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "build"))

from verify import VerifyCase, verify_cases  # noqa: E402


def _build_site_module():
    """build/site.py under another name (the interpreter's own `site` module is taken)."""
    spec = importlib.util.spec_from_file_location("relate_build_site", ROOT / "build" / "site.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PAGES = _build_site_module().PAGES
PAGE_NAMES = [name for name, _ in PAGES]


def markdown(name: str) -> str:
    return (ROOT / "web" / f"{name}.md").read_text(encoding="utf-8")


def cases(name: str) -> list[VerifyCase]:
    return verify_cases(markdown(name))


def run_verify(case: VerifyCase, folder: Path, home: Path) -> tuple[str, int]:
    # its own process group: a block that starts a server in the background and then fails or
    # hangs must not leave that server behind
    # NODE_PATH: the project's node_modules (npm ci) stands in for the reader's `npm install` of
    # the JavaScript driver that serve-neo4j.md's Node.js example requires
    env = clean_env({"NODE_PATH": str(ROOT / "node_modules")}, home=str(home))
    proc = subprocess.Popen(["bash", "-c", case.command], cwd=folder, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        out = b"<timed out>"
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
    return normalise(out.decode("utf-8")), proc.returncode
