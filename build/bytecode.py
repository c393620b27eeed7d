"""The site's wheels -> the same wheels with the page's bytecode inside.

The page's Python starts on a fresh file system at every load, so without bytecode it compiles
every module it imports from source, every time: most of starting the engine.  Here the wheels are
installed once into the vendored Pyodide running under Node (`precompile.mjs`), each of their
modules compiled there by the page's own Python (so the bytecode is the page's version), as
unchecked-hash .pyc files (the unpacked files' times are not the build's), and the .pyc files are
added to the wheels with their RECORD lines.  These wheels are the page's only: a native install
builds its own wheel.
"""
from __future__ import annotations

import base64
import hashlib
import json
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


class BytecodeError(Exception):
    pass


def add_bytecode(wheels: list[Path], pyodide_dir: Path) -> int:
    """Write the page's bytecode into each of `wheels`; return how many modules were compiled."""
    sources = {w: [n for n in zipfile.ZipFile(w).namelist() if n.endswith(".py")] for w in wheels}
    node = shutil.which("node")
    if node is None:
        raise BytecodeError("node is needed to compile the page's bytecode (Pyodide runs under it)")
    with tempfile.TemporaryDirectory() as tmp:
        request, answer = Path(tmp) / "request.json", Path(tmp) / "answer.json"
        request.write_text(json.dumps({"wheels": [str(w) for w in wheels],
                                       "sources": sorted({s for names in sources.values() for s in names})}))
        proc = subprocess.run([node, str(HERE / "precompile.mjs"), str(pyodide_dir) + "/", str(request), str(answer)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise BytecodeError(f"precompile.mjs failed:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
        compiled = {name: base64.b64decode(data) for name, data in json.loads(answer.read_text()).items()}
    for wheel, names in sources.items():
        pycs = {name: data for name, data in compiled.items() if _source_of(name) in names}
        _add_files(wheel, pycs)
    return len(compiled)


def _source_of(pyc: str) -> str:
    """`pkg/__pycache__/mod.cpython-314.pyc` -> `pkg/mod.py`."""
    folder, _, file = pyc.rpartition("/__pycache__/")
    return f"{folder}/{file.split('.')[0]}.py" if folder else f"{file.split('.')[0]}.py"


def _add_files(wheel: Path, files: dict[str, bytes]) -> None:
    if not files:
        return
    tmp = wheel.with_suffix(".tmp")
    with zipfile.ZipFile(wheel) as old, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as new:
        record_name = next(n for n in old.namelist() if n.endswith(".dist-info/RECORD"))
        for info in old.infolist():
            if info.filename != record_name:
                new.writestr(info, old.read(info))
        lines = [line for line in old.read(record_name).decode("utf-8").splitlines()
                 if not line.startswith(record_name + ",")]
        for name, data in sorted(files.items()):
            new.writestr(name, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
            lines.append(f"{name},sha256={digest},{len(data)}")
        lines.append(f"{record_name},,")
        new.writestr(record_name, "\n".join(lines) + "\n")
    tmp.replace(wheel)
