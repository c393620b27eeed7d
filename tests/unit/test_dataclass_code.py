"""Dataclasses made while `dataclass_code.reusing` is active take their methods' code from a cache
an earlier process wrote, and behave exactly as dataclasses made without it."""
from __future__ import annotations

import dataclasses
import subprocess
import sys
import textwrap
import types

import pytest

from relate import dataclass_code as D

pytestmark = pytest.mark.needs_processes  # every test here starts a second Python process

CLASSES = textwrap.dedent("""
    from __future__ import annotations
    from dataclasses import dataclass, field

    @dataclass(frozen=True, slots=True)
    class Point:
        x: int
        y: int = 0
        tags: tuple = field(default=())

    @dataclass(slots=True)
    class Box:
        items: list = field(default_factory=list)
""")


def _make(name: str) -> dict:
    module = types.ModuleType(f"dataclass_code_test_{name}")
    sys.modules[module.__name__] = module  # dataclasses reads the class's module
    try:
        exec(compile(CLASSES, module.__name__, "exec"), module.__dict__)
    finally:
        del sys.modules[module.__name__]
    return module.__dict__


def _behaviour(ns: dict) -> list:
    Point, Box = ns["Point"], ns["Box"]
    p = Point(1, tags=("a",))
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 2
    b = Box()
    b.items.append(1)
    return [repr(p), p == Point(1, 0, ("a",)), hash(p) == hash(Point(1, 0, ("a",))), Point.__doc__,
            [f.name for f in dataclasses.fields(Point)], Point.__match_args__, repr(b), Box().items,
            Point.__init__.__annotations__, repr(dataclasses.replace(p, y=5))]


def test_the_second_process_compiles_nothing_and_gets_the_same_classes(tmp_path, monkeypatch):
    path = tmp_path / "codes.bin"
    plain = _behaviour(_make("plain"))
    with D.reusing(path):
        first = _behaviour(_make("first"))
    assert path.exists() and path.stat().st_mode & 0o777 == 0o600
    compiled = []
    real_compile = compile
    monkeypatch.setattr(D, "compile", lambda *a, **k: compiled.append(a) or real_compile(*a, **k), raising=False)
    with D.reusing(path):
        second = _behaviour(_make("second"))
    assert compiled == []
    assert first == plain and second == plain
    # the block leaves dataclasses as it found it
    assert "exec" not in vars(dataclasses)


def test_a_cache_file_others_could_have_written_is_not_loaded(tmp_path, monkeypatch):
    path = tmp_path / "codes.bin"
    with D.reusing(path):
        _make("first")
    path.chmod(0o666)
    compiled = []
    real_compile = compile
    monkeypatch.setattr(D, "compile", lambda *a, **k: compiled.append(a) or real_compile(*a, **k), raising=False)
    with D.reusing(path):
        assert _behaviour(_make("second")) == _behaviour(_make("plain"))
    assert compiled != []
    assert path.stat().st_mode & 0o777 == 0o600  # replaced by this user's own


def test_a_damaged_cache_file_is_written_afresh(tmp_path):
    path = tmp_path / "codes.bin"
    path.write_bytes(b"\x00not marshal")
    path.chmod(0o600)
    with D.reusing(path):
        assert _behaviour(_make("first")) == _behaviour(_make("plain"))
    with D.reusing(path):
        pass
    assert len(path.read_bytes()) > 100


def test_the_engine_starts_from_the_cache_a_first_process_wrote(tmp_path):
    # two fresh interpreters with an empty temporary directory: the first writes the cache while
    # importing relate, the second answers the same from it
    env = {"TMPDIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    code = "import relate; print(relate.connect(':memory:').execute('RETURN 1 + 2 AS n').rows)"
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
            for _ in range(2)]
    assert [r.stdout for r in runs] == ["[(3,)]\n"] * 2
    assert list(tmp_path.glob(".relate-dataclasses-*"))
