"""Every public TCK scenario (outside `expressions/temporal`, which has its own issue) as a test.

A scenario passes here when it passes strictly, or when it fails and the manifest
`expected_failures.txt` lists it with a reason.  A listed scenario that passes fails the test, so
the manifest only shrinks; an unlisted failing scenario fails the test.
"""
from __future__ import annotations

import pytest

from .runner import DEFAULT_FEATURES, discover, read_manifest, run_scenario
from pathlib import Path

MANIFEST = Path(__file__).with_name("expected_failures.txt")
EXCLUDED_AREAS = ("expressions/temporal",)

SCENARIOS = discover(DEFAULT_FEATURES, exclude_areas=EXCLUDED_AREAS) if DEFAULT_FEATURES.is_dir() else []
EXPECTED = read_manifest(MANIFEST)


@pytest.mark.skipif(not SCENARIOS, reason="../shared/tck/features is not beside this checkout")
@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_scenario(scenario):
    verdict = run_scenario(scenario)
    reason = EXPECTED.get(scenario.id)
    if verdict.passed:
        assert reason is None, (f"{scenario.id} passes now: remove it from {MANIFEST.name} "
                                f"(listed as: {reason})")
        return
    if reason is None:
        pytest.fail(f"{scenario.id} {scenario.name}\n{verdict.status}: {verdict.message}", pytrace=False)
    pytest.xfail(reason)


@pytest.mark.skipif(not SCENARIOS, reason="../shared/tck/features is not beside this checkout")
def test_manifest_names_only_existing_scenarios():
    known = {s.id for s in SCENARIOS}
    stale = sorted(set(EXPECTED) - known)
    assert not stale, f"{MANIFEST.name} lists scenarios that do not exist: {stale[:10]}"
    assert all(EXPECTED.values()), "every manifest entry needs a reason"
