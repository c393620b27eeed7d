"""The getting-started page's install, done for real: a fresh virtualenv, `pip install` of this
checkout, then `relate serve --mcp PORT` from that virtualenv answering over HTTP.  The native
HTTP transport's dependencies (h11, websockets) must come with the plain install; the browser
build leaves them out (tests/e2e/test_site_build.py checks that side)."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LISTENING = re.compile(r"listening on http://127\.0\.0\.1:(\d+) ")
TOKEN = re.compile(r"generated token for user relate: (\S+)")


def post(url: str, body: bytes, headers: dict) -> tuple[int, str]:
    request = urllib.request.Request(url, data=body, method="POST",
                                     headers={"Content-Type": "application/json", **headers})
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_pip_install_dot_serves_mcp_over_http(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    install = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q",
                              "-c", str(ROOT / "constraints.txt"), str(ROOT)],
                             capture_output=True, text=True, env=env, timeout=600)
    assert install.returncode == 0, install.stdout[-2000:] + install.stderr[-2000:]

    log = tmp_path / "serve.log"
    with open(log, "w") as err:
        proc = subprocess.Popen([str(venv / "bin" / "relate"), "serve", "--mcp", "0", "--database", ":memory:"],
                                cwd=tmp_path, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                                env=env)
    try:
        deadline = time.monotonic() + 60
        while not LISTENING.search(log.read_text()):
            assert proc.poll() is None, f"relate serve exited {proc.returncode}: {log.read_text()}"
            assert time.monotonic() < deadline, f"relate serve did not start: {log.read_text()}"
            time.sleep(0.05)
        text = log.read_text()
        url = f"http://127.0.0.1:{LISTENING.search(text).group(1)}/mcp"
        call = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                           "params": {"name": "read_cypher", "arguments": {"statement": "RETURN 1 AS one"}}}).encode()
        status, _ = post(url, call, {})
        assert status == 401  # no credential: refused, but by a running server
        import base64
        credential = base64.b64encode(f"relate:{TOKEN.search(text).group(1)}".encode()).decode()
        status, body = post(url, call, {"Authorization": f"Basic {credential}"})
        assert status == 200 and '\\"rows\\":[{\\"one\\":1}]' in body, body
    finally:
        proc.terminate()
        proc.wait(timeout=30)
