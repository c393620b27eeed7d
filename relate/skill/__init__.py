"""relate's skill for agents: the cheat sheet `relate skill install` copies into agents' skills
folders, shipped inside the package as `SKILL.md` (package data, no code).

`text()` -> the skill's exact text, the bytes `relate skill check` compares installed copies with.
"""
from __future__ import annotations

from importlib.resources import files

NAME = "relate"
FILE = "SKILL.md"


def text() -> str:
    return files(__name__).joinpath(FILE).read_text(encoding="utf-8")
