"""The native side of the parity tests: `relate` run as a real process, no terminal attached.

`cli(args, env)` runs `relate ARGS` once -> {stdout, stderr, exitCode}.  `McpProcess` keeps one
`relate serve --mcp stdio ...` process and feeds it requests one at a time; after each request it
sends a `ping` with a unique id and collects every line printed before that ping's reply, so a
request that (wrongly) gets no reply, or gets two, shows up as such instead of shifting every
later comparison.
"""
from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import threading
from pathlib import Path

TIMEOUT = 60  # seconds for one native answer; generous for a 2-core CI machine


def relate_bin() -> str:
    """The `relate` of the interpreter running the tests (the project's .venv), else PATH's."""
    beside = Path(sys.executable).parent / "relate"
    if beside.exists():
        return str(beside)
    found = shutil.which("relate")
    if not found:
        raise RuntimeError("no `relate` executable: install the project (pip install -e .)")
    return found


def clean_env(extra: dict | None = None, home: str | None = None) -> dict:
    """A plain shell's environment: no agent-harness variables and no RELATE_* settings leak in
    from whoever runs the tests (the browser side gets exactly `extra`)."""
    env = {"PATH": os.pathsep.join([str(Path(sys.executable).parent), "/usr/local/bin", "/usr/bin", "/bin"]),
           "HOME": home or os.environ.get("HOME", "/tmp"), "LANG": "C.UTF-8"}
    env.update(extra or {})
    return env


def cli(args: list[str], env: dict | None = None, cwd: str | None = None) -> dict:
    proc = subprocess.run([relate_bin(), *args], env=clean_env(env), cwd=cwd, capture_output=True,
                          stdin=subprocess.DEVNULL, timeout=TIMEOUT)
    return {"stdout": proc.stdout.decode("utf-8"), "stderr": proc.stderr.decode("utf-8"),
            "exitCode": proc.returncode}


class McpProcess:
    """`relate serve --mcp stdio --database DATABASE [--read-only] [--tools TOOLS]`, fed line by line."""

    def __init__(self, database: str = ":memory:", read_only: bool = False, cwd: str | None = None,
                 tools: str | None = None, extra: tuple[str, ...] = ()):
        args = [relate_bin(), "serve", "--mcp", "stdio", "--database", database]
        if read_only:
            args.append("--read-only")
        if tools is not None:
            args += ["--tools", tools]
        args += list(extra)  # further `relate serve` flags
        self.args = args
        self.proc = subprocess.Popen(args, cwd=cwd, env=clean_env(), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines: queue.Queue = queue.Queue()
        self._sentinels = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for raw in self.proc.stdout:
            self.lines.put(raw.decode("utf-8").rstrip("\n"))
        self.lines.put(None)  # end of output

    def send(self, line: str) -> list[str]:
        """Every stdout line the server printed in answer to `line` (none for a notification)."""
        self._sentinels += 1
        sentinel = f"parity-sentinel-{self._sentinels}"
        ping = json.dumps({"jsonrpc": "2.0", "id": sentinel, "method": "ping"})
        self.proc.stdin.write((line + "\n" + ping + "\n").encode("utf-8"))
        self.proc.stdin.flush()
        out = []
        while True:
            try:
                got = self.lines.get(timeout=TIMEOUT)
            except queue.Empty:
                raise AssertionError(f"{self.args}: no answer to {line!r} within {TIMEOUT} s") from None
            if got is None:
                err = self.proc.stderr.read().decode("utf-8", "replace")
                raise AssertionError(f"{self.args} exited ({self.proc.wait()}) on {line!r}: {err[-2000:]}")
            try:
                if json.loads(got).get("id") == sentinel:
                    return out
            except (ValueError, AttributeError):
                pass
            out.append(got)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc.stdout.close()
        self.proc.stderr.close()

    def __enter__(self) -> "McpProcess":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
