"""Agent-harness detection: environment -> whether the CLI uses its agent defaults.

Agent mode changes output only (TOON as the default mode, a 100-row cap per statement); it never
changes what a statement may do.  It is on when stdout is not a terminal and a harness variable
is set, or when forced with RELATE_AGENT_MODE=1; RELATE_AGENT_MODE=0 or --no-agent-mode turn it
off.  A harness variable counts as set when its value is not empty.
"""
from __future__ import annotations

from typing import Mapping

# Variables agent harnesses put in the environment of the commands they run.
HARNESS_VARIABLES = (
    "CLAUDECODE",  # Claude Code
    "CURSOR_AGENT",  # Cursor's agent and cursor-agent CLI
    "CODEX_SANDBOX",  # OpenAI Codex CLI (sandboxed runs)
    "CODEX_SANDBOX_NETWORK_DISABLED",  # OpenAI Codex CLI
    "GEMINI_CLI",  # Gemini CLI
    "AUGMENT_AGENT",  # Augment
    "OPENCODE",  # OpenCode
    "GOOSE_TERMINAL",  # Goose
    "CLINE_ACTIVE",  # Cline
    "AMP_AGENT",  # Amp
    "AIDER_CHAT",  # Aider
    "AI_AGENT",  # the cross-harness convention: AI_AGENT=<name>
)

FORCE_VARIABLE = "RELATE_AGENT_MODE"
_ON = ("1", "true", "yes", "on")
_OFF = ("0", "false", "no", "off")


def detected_harness(env: Mapping[str, str]) -> str | None:
    """The first harness variable set in `env`, or None."""
    return next((name for name in HARNESS_VARIABLES if env.get(name)), None)


def agent_mode(env: Mapping[str, str], stdout_isatty: bool, disabled: bool = False) -> bool:
    if disabled:
        return False
    forced = (env.get(FORCE_VARIABLE) or "").strip().lower()
    if forced in _OFF:
        return False
    if forced in _ON:
        return True
    if stdout_isatty:
        return False
    return detected_harness(env) is not None
