"""`./run` as a reader starts it, as real processes: the ports the README documents (site and
MCP chosen separately), a taken port refused with its number and a way out (exit 1, no banner
for servers that never started), and the README's host configuration block working as copied,
both as printed by `./run` (relate's absolute path) and as written (`relate` on PATH).

Each `./run` runs scripts/setup.sh and build/site.py first, as a reader's does, so these take a
while; the servers are stopped (SIGTERM to the process ./run became) before each test ends."""
from __future__ import annotations

import base64
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
SETUP_TIMEOUT = 900  # setup.sh + the site build on a loaded 2-core machine


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def documented(prefix: str) -> str:
    """The README's command line that starts with `prefix` (its comment cut off)."""
    for line in README.splitlines():
        if line.startswith(prefix):
            return line.split("#")[0].strip()
    raise AssertionError(f"README.md documents no `{prefix}...` command")


def run_env(assignments: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PORT", "MCP_PORT", "VIRTUAL_ENV")}
    return {**env, **assignments}


def command_env(line: str, ports: dict[str, int]) -> dict[str, str]:
    """`PORT=9000 MCP_PORT=9100 ./run` -> the environment it sets, with our free ports instead."""
    words = line.split()
    assert words[-1] == "./run", line
    assignments = dict(word.split("=", 1) for word in words[:-1])
    assert set(assignments) == set(ports), (line, ports)
    return run_env({k: str(v) for k, v in ports.items()})


class Running:
    """`./run` started in its own process group, its stdout and stderr collected by threads."""

    def __init__(self, env: dict[str, str], root: Path = ROOT) -> None:
        self.proc = subprocess.Popen([str(root / "run")], cwd=root, env=env, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     start_new_session=True)
        self.out: list[str] = []
        self.err: list[str] = []
        for stream, into in ((self.proc.stdout, self.out), (self.proc.stderr, self.err)):
            threading.Thread(target=lambda s=stream, i=into: [i.append(line) for line in s], daemon=True).start()

    @property
    def stdout(self) -> str:
        return "".join(self.out)

    @property
    def stderr(self) -> str:
        return "".join(self.err)

    def wait_serving(self) -> None:
        deadline = time.monotonic() + SETUP_TIMEOUT
        while "(Ctrl-C stops)" not in self.stdout:
            assert self.proc.poll() is None, f"./run exited {self.proc.returncode}:\n{self.stdout}\n{self.stderr}"
            assert time.monotonic() < deadline, f"./run did not start:\n{self.stdout}\n{self.stderr}"
            time.sleep(0.1)

    def finish(self) -> int | None:
        """The exit status, or None as soon as it announces servers instead of exiting."""
        deadline = time.monotonic() + SETUP_TIMEOUT
        while self.proc.poll() is None:
            if "Ctrl-C stops" in self.stdout or time.monotonic() > deadline:
                return None
            time.sleep(0.1)
        return self.proc.returncode

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=60)
        finally:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)  # anything of ours still there
            except ProcessLookupError:
                pass


def http(url: str, body: bytes | None = None, headers: dict | None = None) -> tuple[int, str]:
    request = urllib.request.Request(url, data=body, method="POST" if body is not None else "GET",
                                     headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def refused(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
    except OSError:
        return True
    return False


CALL = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                   "params": {"name": "read_cypher", "arguments": {"statement": "RETURN 1 AS one"}}})


def as_a_host(config: dict, path: str) -> list[dict]:
    """What an MCP host does with a configuration block: start `command args` with PATH=`path`,
    initialize, call a tool -> the two replies."""
    server = config["mcpServers"]["relate"]
    init = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                       "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                  "clientInfo": {"name": "test-host", "version": "1"}}})
    lines = "\n".join([init, json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}), CALL]) + "\n"
    env = {"PATH": path, "HOME": os.environ.get("HOME", "/tmp")}
    if not Path(server["command"]).is_absolute():
        assert shutil.which(server["command"], path=path), f"{server['command']} is not on {path}"
    proc = subprocess.run([server["command"], *server["args"]], input=lines, capture_output=True, text=True,
                          env=env, timeout=120, cwd="/")
    replies = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    assert len(replies) == 2, (proc.stdout, proc.stderr)
    return replies


def assert_host_session(replies: list[dict]) -> None:
    assert replies[0]["id"] == 1 and replies[0]["result"]["serverInfo"]["name"], replies[0]
    assert replies[1]["id"] == 2 and '"rows":[{"one":1}]' in replies[1]["result"]["content"][0]["text"], replies[1]


def test_documented_ports_serve_the_site_and_mcp_and_the_printed_host_config_works(tmp_path):
    site_port, mcp_port = free_port(), free_port()
    while mcp_port in (site_port, site_port + 1):  # the MCP port must really be the one we chose
        mcp_port = free_port()
    run = Running(command_env(documented("PORT=9000 MCP_PORT="), {"PORT": site_port, "MCP_PORT": mcp_port}))
    try:
        run.wait_serving()
        out = run.stdout
        assert f"http://127.0.0.1:{site_port}/" in out and f"http://127.0.0.1:{mcp_port}/mcp" in out, out
        status, page = http(f"http://127.0.0.1:{site_port}/index.html")
        assert status == 200 and "<title>" in page
        status, _ = http(f"http://127.0.0.1:{mcp_port}/mcp", CALL.encode(), {"Content-Type": "application/json"})
        assert status == 401  # a running server, which wants the credential it printed
        token = re.search(r"generated token for user relate: (\S+)", run.stderr).group(1)
        auth = "Basic " + base64.b64encode(f"relate:{token}".encode()).decode()
        status, body = http(f"http://127.0.0.1:{mcp_port}/mcp", CALL.encode(),
                            {"Content-Type": "application/json", "Authorization": auth})
        assert status == 200 and '\\"rows\\":[{\\"one\\":1}]' in body, body

        # the host configuration exactly as ./run printed it, for a host whose PATH has no relate
        printed = re.search(r"^  Host config: (.*)$", out, re.M).group(1)
        config = json.loads(printed)
        assert Path(config["mcpServers"]["relate"]["command"]).is_absolute()
        assert shutil.which("relate", path="/usr/bin:/bin") is None
        assert_host_session(as_a_host(config, "/usr/bin:/bin"))
    finally:
        assert run.stop() == 0, run.stderr
    assert refused(site_port) and refused(mcp_port)  # ./run's servers went with it


def test_readme_host_config_works_as_written_with_relate_on_path():
    block = re.search(r"```json\n(\{.*?\})\n```", README, re.S).group(1)
    config = json.loads(block)
    assert config["mcpServers"]["relate"]["command"] == "relate"
    assert_host_session(as_a_host(config, f"{ROOT / '.venv' / 'bin'}:/usr/bin:/bin"))


@pytest.mark.parametrize("taken", ["PORT", "MCP_PORT"])
def test_a_taken_port_is_refused_by_name(taken):
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        busy = holder.getsockname()[1]
        other = free_port()
        ports = {"PORT": busy, "MCP_PORT": other} if taken == "PORT" else {"PORT": other, "MCP_PORT": busy}
        run = Running(run_env({k: str(v) for k, v in ports.items()}))
        try:
            code = run.finish()
        finally:
            run.stop()
        assert code == 1, (code, run.stdout, run.stderr)
        error = run.stderr.splitlines()
        said = next(line for line in error if line.startswith("error:"))
        assert f"port {busy}" in said and "in use" in said, run.stderr
        assert re.search(rf"Pick another port: {taken}=\d+ \./run", run.stderr), run.stderr
        # no banner for servers that are not running, and nothing left listening
        assert "Site:" not in run.stdout and "Ctrl-C" not in run.stdout, run.stdout
        assert refused(other)
