"""Every shell example that relate teaches, run in bash as an agent would paste it: the fenced
`sh` blocks of the shipped skill and the examples section of `relate agent-context`.

Each example runs with `bash -o pipefail -c`, in order, in one fresh folder (with the files the
skill's examples name), once plainly (jsonl in a pipe) and once under an agent harness
(`CLAUDECODE=1`: TOON).  Each must exit 0, print nothing on stderr, and print output that parses:
JSON lines, or TOON documents whose `rows` block the official decoder reads.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import toon_format

from relate.skill import text as skill_text

BIN = Path(sys.executable).parent
RELATE = str(BIN / "relate")
CHANGES = "CREATE (:Person {name: 'Lin', age: 29});\nMATCH (p:Person) RETURN count(p) AS people;\n"


def skill_examples() -> list[str]:
    blocks = re.findall(r"^```(?:sh|bash|shell)\n(.*?)^```$", skill_text(), re.S | re.M)
    return [line for block in blocks for line in block.splitlines() if line.strip()]


def agent_context_examples() -> list[str]:
    out = subprocess.run([RELATE, "agent-context"], capture_output=True, text=True, check=True).stdout
    section = out.split("\n## examples", 1)[1].split("\n## ", 1)[0]
    return [line[2:] for line in section.splitlines()[1:] if line.startswith("  ") and not line.startswith("  #")]


def parse_toon(stdout: str) -> list:
    """Each result set of a TOON run: its rows block decoded, its trailer sections checked."""
    results = []
    for doc in stdout.rstrip("\n").split("\n\n"):
        lines = doc.split("\n")
        end = 1
        while end < len(lines) and lines[end].startswith(" "):
            end += 1
        decoded = toon_format.loads("\n".join(lines[:end]))
        assert set(decoded) == {"rows"}, doc
        trailer = lines[end:]
        assert trailer and len(trailer) % 2 == 0, doc
        sections = dict(zip(trailer[0::2], trailer[1::2]))
        assert "timings:" in sections and "planCache:" in sections, doc
        json.loads(sections["timings:"])
        results.append(decoded["rows"])
    return results


def parse_json_lines(stdout: str) -> list:
    lines = stdout.splitlines()
    assert lines, "no output"
    return [json.loads(line) for line in lines]


def run_all(commands: list[str], folder: Path, harness: bool) -> None:
    env = {"PATH": f"{BIN}{os.pathsep}/usr/bin{os.pathsep}/bin", "HOME": str(folder), "LANG": "C.UTF-8"}
    if harness:
        env["CLAUDECODE"] = "1"
    (folder / "changes.cypher").write_text(CHANGES, encoding="utf-8")
    for command in commands:
        proc = subprocess.run(["bash", "-o", "pipefail", "-c", command], capture_output=True, text=True,
                              cwd=folder, env=env, stdin=subprocess.DEVNULL, timeout=60)
        assert (proc.returncode, proc.stderr) == (0, ""), (command, proc.stdout, proc.stderr)
        if harness and "--mode" not in command:
            parse_toon(proc.stdout)
        else:
            objects = parse_json_lines(proc.stdout)
            assert "timings" in objects[-1], (command, proc.stdout)


@pytest.mark.parametrize("harness", [False, True], ids=["pipe", "harness"])
def test_the_skill_examples_run_in_bash(tmp_path, harness):
    commands = skill_examples()
    assert len(commands) >= 5 and any("$" in c for c in commands)
    run_all(commands, tmp_path, harness)


@pytest.mark.parametrize("harness", [False, True], ids=["pipe", "harness"])
def test_the_agent_context_examples_run_in_bash(tmp_path, harness):
    commands = agent_context_examples()
    assert len(commands) >= 3 and any("$" in c for c in commands)
    run_all(commands, tmp_path, harness)


def test_agent_context_json_lists_the_same_examples():
    doc = json.loads(subprocess.run([RELATE, "agent-context", "--json"], capture_output=True, text=True,
                                    check=True).stdout)
    assert [e["command"] for e in doc["examples"]] == agent_context_examples()
    assert all(e["what"] for e in doc["examples"])


def test_the_skill_examples_write_what_they_say(tmp_path):
    run_all(skill_examples(), tmp_path, harness=False)
    proc = subprocess.run([RELATE, "--database", "graph.rl", "MATCH (p:Person) RETURN p.name AS name, p.age AS age "
                           "ORDER BY name"], capture_output=True, text=True, cwd=tmp_path, env={"PATH": "/usr/bin"})
    assert parse_json_lines(proc.stdout)[:-1] == [
        {"age": 36, "name": "Ada"}, {"age": None, "name": "Grace"}, {"age": 29, "name": "Lin"},
        {"age": None, "name": "Noor"}]
