"""The `relate.output.render` entry point shared by all modes."""
import dataclasses

import pytest

from relate.output import MODES, Rendered, render
from relate.result import Result

WARNING = ("warning: result truncated to 2 rows (the statement returned 3); "
           "pass --max-rows 0 for all rows\n")


def names():
    return Result(statement="s", columns=("name",), rows=[("Ada",), ("Grace",), ("Noor",)])


def test_modes():
    assert MODES == ("table", "envelope", "jsonl", "toon")


@pytest.mark.parametrize("mode", MODES)
def test_every_mode_returns_newline_terminated_text(mode):
    out = render(names(), mode)
    assert isinstance(out, Rendered)
    assert out.stdout.endswith("\n") and not out.stdout.endswith("\n\n")
    assert out.stderr == ""


@pytest.mark.parametrize("mode", MODES)
def test_cap_warning_is_identical_in_every_mode(mode):
    assert render(names(), mode, max_rows=2).stderr == WARNING


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("cap", [None, 0, 3, 4])
def test_no_cap_no_warning(mode, cap):
    assert render(names(), mode, max_rows=cap) == render(names(), mode)


@pytest.mark.parametrize("mode", MODES)
def test_result_is_not_mutated_by_the_cap(mode):
    r = names()
    render(r, mode, max_rows=1)
    assert len(r.rows) == 3


def test_rendered_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Rendered("a", "b").stdout = "c"  # type: ignore[misc]


def test_unknown_mode_and_bad_cap():
    with pytest.raises(ValueError):
        render(names(), "csv")
    with pytest.raises(ValueError):
        render(names(), "jsonl", max_rows=-1)
