"""Damage to the logs and snapshots of stores the CLI wrote: bit flips and cuts at random offsets in
the last record, a middle record, the snapshot and a WAL segment's header, plus interrupted appends
of commits never acknowledged, on `.rl` and directory stores (tests/storage/damage_cases.py).

After each damage a read-only and a writable open, through the Python API and the CLI (in process
for every case, as a separate `relate` process for a sample), must keep every acknowledged commit
present or report it (a refusal, a `StoreRecoveryWarning` / a `warning:` line on stderr naming the
file its bytes were kept in), never lose it silently; damage to an acknowledged commit is refused;
an interrupted append is dropped, reported and kept; a read-only open writes nothing.

(Issue 14.  Before: a cut or a bit flip in the last committed record was taken for an interrupted
append; a writable open truncated it away and the commit was gone without a word.)
"""
from __future__ import annotations

import collections
import os
import signal

import pytest

from tests.storage.damage_cases import run_all

SEED = int(os.environ.get("RELATE_DAMAGE_SEED", "14"))
PER_KIND = int(os.environ.get("RELATE_DAMAGE_PER_KIND", "4"))

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL") or os.name != "posix", reason="needs POSIX signals")


def test_damage_at_random_offsets_never_loses_an_acknowledged_commit_silently(tmp_path):
    bases, cases = run_all(tmp_path, SEED, PER_KIND, process_every=12)
    tried = [c for c in cases if c.outcomes]
    problems = [p for c in cases for p in c.problems]
    assert not problems, "\n".join(problems[:20])
    assert len(tried) >= 200, f"only {len(tried)} cases"
    by = collections.Counter((c.store, c.kind) for c in tried if c.kind != "none")
    assert len(by) == 15 and min(by.values()) >= 3, by
    # the checks ran: refusals of damaged acknowledged commits, interrupted appends set aside
    outcomes = collections.Counter(o for c in tried for o in c.outcomes.values())
    assert outcomes["refused"] and outcomes["reported"], outcomes
    assert all(c.outcomes["api-rw"] == "reported" for c in tried if c.kind == "append-torn")
    assert sum("process-rw" in c.outcomes for c in tried) >= 10
