"""`relate skill install|check|show`: the skill shipped in the package <-> agents' skills folders.

An agent counts as present when its configuration folder exists under HOME (`~/.claude`,
`~/.codex`, ...); the skill goes to `<that folder>/<skills folder>/relate/SKILL.md`.  HOME comes
from the environment `run` was given, so tests point it at a temporary folder.

- `install`: write the shipped text into every present agent's folder (or the `--agent` ones,
  creating folders as needed).  One line per agent on stdout: `installed`, `updated` or
  `up to date`, the agent and the file.  No agent found -> exit 1.
- `check`: compare each installed copy with the shipped text byte for byte: `ok`, `differs` or
  `missing` per agent.  Exit 1 when a copy differs or none is installed.
- `show`: print the shipped text.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Mapping, TextIO

from ..errors import E, EXIT_OTHER
from .parsers import (build_skill_check_parser, build_skill_install_parser, build_skill_show_parser,
                      group_help)


@dataclass(frozen=True, slots=True)
class Agent:
    name: str  # what --agent takes
    title: str
    home: str  # the agent's folder, relative to HOME
    skills: str  # its skills folder, relative to `home`


AGENTS: tuple[Agent, ...] = (
    Agent("claude", "Claude Code", ".claude", "skills"),
    Agent("codex", "Codex", ".codex", "skills"),
    Agent("cursor", "Cursor", ".cursor", "skills"),
    Agent("copilot", "GitHub Copilot", ".copilot", "skills"),
    Agent("gemini", "Gemini CLI", ".gemini", "skills"),
    Agent("opencode", "OpenCode", os.path.join(".config", "opencode"), "skill"),
)
_BY_NAME = {a.name: a for a in AGENTS}


def _home(env: Mapping[str, str]) -> str:
    home = env.get("HOME")
    if not home:
        raise E.Usage.Usage("Error: HOME is not set, so there are no agent folders to look in")
    return home


def skill_file(agent: Agent, home: str) -> str:
    from ..skill import FILE, NAME
    return os.path.join(home, agent.home, agent.skills, NAME, FILE)


def _chosen(names: list[str], home: str) -> list[Agent]:
    """The `--agent` agents, or every agent whose folder exists."""
    if names:
        unknown = [n for n in names if n not in _BY_NAME]
        if unknown:
            raise E.Usage.Usage(f"Error: unknown agent {unknown[0]!r} (choose from {', '.join(_BY_NAME)})")
        return [_BY_NAME[n] for n in dict.fromkeys(names)]
    return [a for a in AGENTS if os.path.isdir(os.path.join(home, a.home))]


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", newline="") as f:
            return f.read()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError):
        return ""  # unreadable counts as different from the shipped text


def install(argv: list[str], env: Mapping[str, str], stdout: TextIO, stderr: TextIO) -> int:
    from ..skill import text
    args = build_skill_install_parser(stdout).parse_args(argv)
    home = _home(env)
    agents = _chosen(args.agent, home)
    if not agents:
        stderr.write("Error: no agent folder found under HOME (looked for "
                     + ", ".join("~/" + a.home for a in AGENTS) + "); pass --agent NAME to install anyway\n")
        return EXIT_OTHER
    shipped = text()
    for agent in agents:
        path = skill_file(agent, home)
        before = _read(path)
        if before == shipped:
            status = "up to date"
        else:
            try:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                tmp = path + ".tmp"
                with open(tmp, "w", encoding="utf-8", newline="") as f:
                    f.write(shipped)
                os.replace(tmp, path)
            except OSError as e:
                stderr.write(f"Error: cannot write {path}: {e.strerror or e}\n")
                return EXIT_OTHER
            status = "installed" if before is None else "updated"
        stdout.write(f"{status}: {agent.name} {path}\n")
    return 0


def check(argv: list[str], env: Mapping[str, str], stdout: TextIO, stderr: TextIO) -> int:
    from ..skill import text
    args = build_skill_check_parser(stdout).parse_args(argv)
    home = _home(env)
    shipped = text()
    installed = differs = 0
    for agent in _chosen(args.agent, home):
        path = skill_file(agent, home)
        copy = _read(path)
        if copy is None:
            status = "missing"
        else:
            installed += 1
            status = "ok" if copy == shipped else "differs"
            differs += status == "differs"
        stdout.write(f"{status}: {agent.name} {path}\n")
    if differs:
        stderr.write(f"Error: {differs} installed cop{'y differs' if differs == 1 else 'ies differ'} "
                     "from the skill this binary ships; run relate skill install\n")
        return EXIT_OTHER
    if not installed:
        stderr.write("Error: the skill is not installed for any agent; run relate skill install\n")
        return EXIT_OTHER
    return 0


def show(argv: list[str], stdout: TextIO) -> int:
    from ..skill import text
    build_skill_show_parser(stdout).parse_args(argv)
    stdout.write(text())
    return 0


def skill(argv: list[str], env: Mapping[str, str], stdout: TextIO, stderr: TextIO) -> int:
    sub = argv[0] if argv else ""
    if sub == "install":
        return install(argv[1:], env, stdout, stderr)
    if sub == "check":
        return check(argv[1:], env, stdout, stderr)
    if sub == "show":
        return show(argv[1:], stdout)
    if sub in ("-h", "--help"):
        stdout.write(group_help(("relate", "skill")))
        return 0
    raise E.Usage.Usage("Error: relate skill takes one of install, check, show"
                        + (f"; got {sub!r}" if sub else ""))
