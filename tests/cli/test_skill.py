"""`relate skill install|check|show` against a temporary HOME."""
from __future__ import annotations

import io
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from relate.cli.main import run
from relate.skill import text as skill_text

ROOT = Path(__file__).resolve().parents[2]


def cli(*argv, home):
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), env={"HOME": str(home)}, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue(), code


def test_the_shipped_skill_is_a_skill_file():
    text = skill_text()
    head = text.split("---\n")[1]
    assert text.startswith("---\nname: relate\ndescription: ")
    assert "description: " in head and "relate agent-context" in text


def test_install_writes_into_each_detected_agent_folder(tmp_path):
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".codex").mkdir()
    out, err, code = cli("skill", "install", home=tmp_path)
    claude = tmp_path / ".claude" / "skills" / "relate" / "SKILL.md"
    codex = tmp_path / ".codex" / "skills" / "relate" / "SKILL.md"
    assert (out, err, code) == (f"installed: claude {claude}\ninstalled: codex {codex}\n", "", 0)
    assert claude.read_text(encoding="utf-8") == skill_text() == codex.read_text(encoding="utf-8")
    assert not (tmp_path / ".cursor").exists()
    out, _, code = cli("skill", "install", home=tmp_path)
    assert (out, code) == (f"up to date: claude {claude}\nup to date: codex {codex}\n", 0)


def test_install_without_any_agent_fails_unless_named(tmp_path):
    out, err, code = cli("skill", "install", home=tmp_path)
    assert (out, code) == ("", 1) and err.startswith("Error: no agent folder found under HOME")
    out, _, code = cli("skill", "install", "--agent", "cursor", home=tmp_path)
    assert code == 0 and (tmp_path / ".cursor" / "skills" / "relate" / "SKILL.md").exists()
    _, err, code = cli("skill", "install", "--agent", "vim", home=tmp_path)
    assert code == 2 and err.startswith("Error: unknown agent 'vim'")


def test_check_passes_then_fails_after_an_installed_copy_is_edited(tmp_path):
    (tmp_path / ".claude").mkdir()
    cli("skill", "install", home=tmp_path)
    path = tmp_path / ".claude" / "skills" / "relate" / "SKILL.md"
    assert cli("skill", "check", home=tmp_path) == (f"ok: claude {path}\n", "", 0)
    path.write_text(path.read_text(encoding="utf-8") + "\nmy own note\n", encoding="utf-8")
    out, err, code = cli("skill", "check", home=tmp_path)
    assert (out, code) == (f"differs: claude {path}\n", 1)
    assert err == "Error: 1 installed copy differs from the skill this binary ships; run relate skill install\n"
    out, _, code = cli("skill", "install", home=tmp_path)
    assert (out, code) == (f"updated: claude {path}\n", 0)
    assert cli("skill", "check", home=tmp_path)[2] == 0


def test_check_fails_when_nothing_is_installed(tmp_path):
    (tmp_path / ".claude").mkdir()
    out, err, code = cli("skill", "check", home=tmp_path)
    path = tmp_path / ".claude" / "skills" / "relate" / "SKILL.md"
    assert (out, code) == (f"missing: claude {path}\n", 1)
    assert err == "Error: the skill is not installed for any agent; run relate skill install\n"


def test_show_prints_the_shipped_text(tmp_path):
    assert cli("skill", "show", home=tmp_path) == (skill_text(), "", 0)


@pytest.mark.skipif(sys.platform == "emscripten", reason="needs pip")
def test_the_wheel_ships_the_skill(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(tmp_path), str(ROOT)], check=True, capture_output=True, timeout=300)
    (wheel,) = tmp_path.glob("relate-*.whl")
    with zipfile.ZipFile(wheel) as z:
        assert z.read("relate/skill/SKILL.md").decode("utf-8") == skill_text()
