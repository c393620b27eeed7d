"""Command: the verdicts inside Pyodide against native, case by case, in one go.

    python tests/pyodide/check.py [--suite tck|neo4j5|golden|unit]... [--sample N] [--unit PATH]...

Runs tests/pyodide/verdicts.py natively and inside Pyodide (Node, dist/site's wheels) side by side,
prints every difference side by side and last `N passed, D differing`.  Exit status 1 on any
difference (or when a side could not run).  tests/pyodide/test_verdicts.py does the same in pytest.
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.pyodide import targets  # noqa: E402
from tests.pyodide.compare import report  # noqa: E402


def main(argv=None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        targets.check_ready()
        with tempfile.TemporaryDirectory() as tmp:
            a, b = Path(tmp) / "native.json", Path(tmp) / "pyodide.json"
            pyodide = targets.start_pyodide(b, args)
            native = targets.start_native(a, args)
            native_doc, pyodide_doc = targets.finish(native, a), targets.finish(pyodide, b)
    except targets.TargetError as exc:
        print(f"tests/pyodide/check.py: {exc}", file=sys.stderr)
        return 1
    same, text = report(native_doc, pyodide_doc)
    print(text)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
