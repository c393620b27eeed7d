"""A short run of the load test (bench/mcp_load.py): concurrent clients with mixed reads and writes
over loopback HTTP get only correct answers, and every acknowledged write survives a restart.
The figures of the full 32-client, 30-second run live in bench/results/mcp_load.md."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "mcp_load.py"


def test_concurrent_clients_get_correct_answers_and_keep_their_writes():
    proc = subprocess.run([sys.executable, str(BENCH), "--clients", "8", "--seconds", "3"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "- failures: 0" in proc.stdout
    assert "all present after the restart: yes" in proc.stdout
