"""Agent-harness detection: environment -> whether the CLI uses its agent defaults.

Agent mode changes output only (TOON in a pipe, a 100-row cap); it never changes what a
statement may do.  It is on when stdout is not a terminal and a harness variable is set, or when
forced with RELATE_AGENT_MODE=1; RELATE_AGENT_MODE=0 or --no-agent-mode turn it off.
"""
from __future__ import annotations

from typing import Mapping

# Variables agent harnesses set in the shells they run commands in.
HARNESS_VARIABLES = ("CLAUDECODE", "CURSOR_AGENT", "CODEX_SANDBOX", "GEMINI_CLI", "AIDER_CHAT",
                     "CLINE_ACTIVE", "GOOSE_TERMINAL", "OPENCODE", "AMP_AGENT")


def agent_mode(env: Mapping[str, str], stdout_isatty: bool, disabled: bool = False) -> bool:
    if disabled:
        return False
    forced = env.get("RELATE_AGENT_MODE")
    if forced == "0":
        return False
    if forced == "1":
        return True
    if stdout_isatty:
        return False
    return any(env.get(name) for name in HARNESS_VARIABLES)
