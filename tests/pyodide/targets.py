"""Where the verdict function runs: natively (this interpreter, a child process) or inside Pyodide
(Node with node_modules/pyodide and the site's wheels: run.mjs).  Both write the same JSON.

    start_native(out, args) / start_pyodide(out, args) -> a running process; finish(proc, out) -> doc

Both are child processes, so they run side by side and each starts from a fresh interpreter.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "dist" / "site"
TESTS = ROOT / "tests"
TCK = ROOT.parent / "shared" / "tck"
RUNNER = Path(__file__).with_name("run.mjs")
# test-only pure-Python modules the verdict function imports (gherkin reads the feature files),
# copied into Pyodide from this interpreter's own install: the same pinned versions, no download
TEST_MODULES = ("gherkin", "typing_extensions")
# and for the unit suite, pytest and what it and the unit tests import
UNIT_MODULES = ("pytest", "_pytest", "py", "pluggy", "iniconfig", "packaging", "pygments", "hypothesis",
                "_hypothesis_globals", "sortedcontainers")


class TargetError(Exception):
    pass


def module_paths(unit: bool = False) -> list[str]:
    out = []
    for name in TEST_MODULES + (UNIT_MODULES if unit else ()):
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            raise TargetError(f"{name} is not installed (scripts/setup.sh installs the test extras)")
        origin = Path(spec.origin)
        out.append(str(origin.parent if origin.name == "__init__.py" else origin))
    return out


def stale_files(site: Path = SITE) -> list[str]:
    """relate's source files whose copy in the site's wheel differs from the working tree (a site
    built before the last change would compare yesterday's engine)."""
    manifest = json.loads((site / "wheels" / "manifest.json").read_text())
    wheel = next(site / "wheels" / w for w in manifest["wheels"] if w.startswith("relate-"))
    with zipfile.ZipFile(wheel) as archive:
        packed = {n: hashlib.sha256(archive.read(n)).hexdigest() for n in archive.namelist()
                  if n.startswith("relate/") and n.endswith((".py", ".lark"))}
    here = {p.relative_to(ROOT).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in (ROOT / "relate").rglob("*") if p.suffix in (".py", ".lark") and "__pycache__" not in p.parts}
    return sorted(n for n in set(packed) | set(here) if packed.get(n) != here.get(n))


def check_ready(site: Path = SITE) -> None:
    if not (site / "wheels" / "manifest.json").is_file():
        raise TargetError("dist/site is not built: run `python build/site.py` (./run-tests does it first)")
    if not (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").is_file():
        raise TargetError("node_modules/pyodide is missing: run `npm ci` (scripts/setup.sh does it)")
    if shutil.which("node") is None:
        raise TargetError("node is missing (scripts/setup.sh installs nodejs)")
    stale = stale_files(site)
    if stale:
        raise TargetError(f"dist/site's relate wheel is older than the working tree ({', '.join(stale[:5])}"
                          f"{', ...' if len(stale) > 5 else ''}): run `python build/site.py`")


def start_native(out: Path, args: list[str]) -> subprocess.Popen:
    cmd = [sys.executable, str(Path(__file__).with_name("verdicts.py")), str(out), *args]
    return subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def start_pyodide(out: Path, args: list[str], site: Path = SITE) -> subprocess.Popen:
    unit = "--suite" not in args or "unit" in args
    cmd = ["node", str(RUNNER), "--site", str(site), "--tests", str(TESTS), "--shared", str(TCK),
           "--out", str(out)]
    for path in module_paths(unit):
        cmd += ["--module", path]
    return subprocess.Popen([*cmd, "--", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def finish(proc: subprocess.Popen, out: Path, timeout: float = 1200) -> dict:
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        stdout, stderr = proc.communicate()
        raise TargetError(f"`{' '.join(proc.args)}` took longer than {timeout} s:\n{stderr[-3000:]}")
    if proc.returncode != 0:
        raise TargetError(f"`{' '.join(proc.args)}` exited {proc.returncode}:\n{stdout[-2000:]}{stderr[-4000:]}")
    return json.loads(out.read_text(encoding="utf-8"))


def fs_image() -> dict[str, bytes]:
    """What run.mjs mounts and copies into Pyodide's file system, as files (Pyodide path -> bytes),
    for a target with no access to this machine's disk (the page's worker in Chromium)."""
    def tree(src: Path, dest: str, keep) -> dict[str, bytes]:
        if src.is_file():
            return {dest: src.read_bytes()}
        return {f"{dest}/{p.relative_to(src).as_posix()}": p.read_bytes() for p in sorted(src.rglob("*"))
                if p.is_file() and "__pycache__" not in p.parts and keep(p)}

    image: dict[str, bytes] = {}
    for part in ("__init__.py", "team.py", "tck", "neo4j5", "golden", "pyodide"):
        image.update(tree(TESTS / part, f"/src/tests/{part}", lambda p: p.suffix != ".pyc"))
    for part in ("features", "graphs"):
        image.update(tree(TCK / part, f"/shared/tck/{part}", lambda p: True))
    for path in module_paths():
        image.update(tree(Path(path), f"/extra/{Path(path).name}", lambda p: p.suffix != ".pyc"))
    return image
