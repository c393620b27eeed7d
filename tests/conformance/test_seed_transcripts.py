"""The reference pages' recorded runs, replayed against the installed `relate`."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT.parent / "shared" / "conformance" / "seed_transcripts.py"
RELATE = Path(sys.executable).with_name("relate")


@pytest.mark.skipif(not SCRIPT.exists(), reason="../shared/conformance is not beside this checkout")
def test_every_recorded_run_passes():
    env = dict(os.environ, RELATE_BIN=str(RELATE))
    proc = subprocess.run([sys.executable, str(SCRIPT), "-v"], capture_output=True, text=True, env=env,
                          timeout=600)
    last = proc.stdout.strip().splitlines()[-1]
    assert proc.returncode == 0, proc.stdout[-4000:]
    assert last.endswith(" passed, 0 failed")
    assert int(last.split()[0]) >= 27
