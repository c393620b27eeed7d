"""Fuzzing `relate serve` as a hostile client would: thousands of generated Cypher statements,
JSON-RPC lines and raw HTTP requests (`fuzzgen.py`, seeded: `RELATE_FUZZ_SEED`, printed on a
failure) against real server processes on durable stores.

Checked for every input: exactly one answer per request with an id and none for a notification,
in order, each a valid JSON-RPC reply with the request's id (or `null` for one that could not be
read); over HTTP, each well-framed request gets exactly one response, and any other byte stream
at most one response per request and then a closed connection, never a hang; no answer is an
internal error; the server stays up (a control ping after every batch) and exits 0 when asked;
every acknowledged write is present at the end and again after a restart on the same store.

Counts: RELATE_FUZZ_STDIO lines per stdio store (two stores) and RELATE_FUZZ_HTTP requests; the
defaults run more than 10,000 inputs in all.  (Issue 14.)
"""
from __future__ import annotations

import json
import os
import queue
import random
import re
import signal
import socket
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import pytest

from relate.protocols import jsonrpc
from tests.attacks import fuzzgen
from tests.attacks.fuzzgen import HttpCase, Ids, RpcCase
from tests.net.server import RELATE, start

STDIO_LINES = int(os.environ.get("RELATE_FUZZ_STDIO", "5000"))
HTTP_CASES = int(os.environ.get("RELATE_FUZZ_HTTP", "2500"))
REPLY_TIMEOUT = 60.0  # seconds for one reply on this loaded machine; past it the server hangs
NONE = object()       # the oracle's "no reply" (a notification, a blank line)
CHECK = "MATCH (n:Ack) RETURN n.id AS id, n.s AS s"


def _oracle(text: str):
    """What the server must answer to one message: NONE, or the id its reply carries (None for
    a message that could not be read).  The framing rules are the stdio shell's and the
    JSON-RPC reader's, which the recorded runs pin."""
    msg = jsonrpc.decode(text)
    if isinstance(msg, str):
        return None
    return msg.id if msg.has_id else NONE


def stdio_oracle(line: bytes):
    text = line.decode("utf-8", "replace")
    if text.endswith("\r"):
        text = text[:-1]
    if not text.strip():
        return NONE
    return _oracle(text)


def http_oracle(body: bytes):
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return _oracle(text)


class Findings:
    """What went wrong, with the inputs that did it; the test fails on the first few."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.items: list[str] = []

    def add(self, problem: str, sent: bytes | str, got=None) -> None:
        shown = sent if isinstance(sent, str) else repr(sent[:600])
        tail = f"\n    got:  {str(got)[:600]}" if got is not None else ""
        self.items.append(f"{problem}\n    sent: {shown}{tail}")

    def check(self, log: str = "") -> None:
        if self.items:
            head = "\n".join(self.items[:8])
            pytest.fail(f"{self.what}: {len(self.items)} findings (RELATE_FUZZ_SEED={fuzzgen.seed()}):\n{head}"
                        + (f"\nserver stderr (tail):\n{log[-3000:]}" if log else ""))


def check_reply(reply: dict, expected_id, sent: bytes, findings: Findings) -> None:
    """One JSON-RPC reply: the right id, exactly one of result/error, no internal error."""
    keys = set(reply)
    if reply.get("jsonrpc") != "2.0" or len(keys) != 3 or not (keys == {"jsonrpc", "id", "result"}
                                                                or keys == {"jsonrpc", "id", "error"}):
        findings.add("not a JSON-RPC reply", sent, reply)
        return
    if reply["id"] != expected_id or type(reply["id"]) is not type(expected_id):
        if not (isinstance(expected_id, (int, float)) and isinstance(reply["id"], (int, float))
                and reply["id"] == expected_id):
            findings.add(f"reply id {reply['id']!r}, expected {expected_id!r}", sent, reply)
    if "error" in reply and reply["error"].get("code") == jsonrpc.INTERNAL_ERROR:
        findings.add("internal error", sent, reply)
    result = reply.get("result")
    if isinstance(result, dict) and result.get("isError"):
        text = result["content"][0]["text"]
        if "internal error" in text:
            findings.add("internal error in a tool", sent, reply)


def _acked_ok(reply: dict) -> bool:
    result = reply.get("result")
    return isinstance(result, dict) and result.get("isError") is False


def _rows(reply: dict) -> list[dict]:
    return json.loads(reply["result"]["content"][0]["text"])["rows"]


def check_acks(rows: list[dict], acked: dict[int, str], sent: str, findings: Findings) -> None:
    stored = {}
    for row in rows:
        stored.setdefault(row["id"], []).append(row["s"])
    if -1 in stored:
        findings.add("a notification's write ran", sent)
    for n, payload in acked.items():
        # two lone surrogates side by side (a high, then a low) are stored as two code points, but
        # their JSON escapes read back as the one character they pair into, as JSON wants
        payload = json.loads(json.dumps(payload))
        if n not in stored:
            findings.add(f"acknowledged write {n} lost", sent)
        elif stored[n] != [payload]:
            findings.add(f"acknowledged write {n} reads back as {stored[n]!r}, wrote {payload!r}", sent)


# ---------------------------------------------------------------- stdio

class StdioServer:
    """`relate serve --mcp stdio` with a writer thread on stdin and a reader thread on stdout."""

    def __init__(self, store: str, cwd) -> None:
        self.log_path = cwd / f"stdio-{time.monotonic_ns()}.log"
        self._log = open(self.log_path, "w+")
        self.proc = subprocess.Popen([RELATE, "serve", "--mcp", "stdio", "--database", store], cwd=cwd,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log)
        self.replies: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in iter(self.proc.stdout.readline, b""):
            self.replies.put(line)
        self.replies.put(None)

    def send_all(self, lines: list[bytes]) -> None:
        def write():
            try:
                for line in lines:
                    self.proc.stdin.write(line + b"\n")
                self.proc.stdin.flush()
            except BrokenPipeError:
                pass
        threading.Thread(target=write, daemon=True).start()

    def next_reply(self, timeout: float = REPLY_TIMEOUT) -> bytes | None:
        try:
            return self.replies.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError from None

    def close(self) -> int:
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        try:
            return self.proc.wait(60)
        finally:
            self._log.close()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    @property
    def stderr(self) -> str:
        return self.log_path.read_text(errors="replace")


def run_stdio(store: str, cwd, cases: list[RpcCase], findings: Findings, acked: dict[int, str],
              tally=None) -> None:
    """Send every case and a final check query; read and check each reply in order.  `tally`
    (bench/attacks.py) is told each case and its reply (None: none was due)."""
    server = StdioServer(store, cwd)
    check_line = fuzzgen.tool("check", "read_cypher", {"statement": CHECK}).encode()
    lines = [c.line for c in cases] + [check_line]
    try:
        server.send_all(lines)
        for case in [*cases, RpcCase("check", check_line)]:
            expected = stdio_oracle(case.line)
            if expected is NONE:
                if tally:
                    tally(case, None)
                continue
            try:
                raw = server.next_reply()
            except TimeoutError:
                findings.add(f"no reply within {REPLY_TIMEOUT:.0f} s (the server hangs)", case.line)
                return
            if raw is None:
                findings.add(f"the server exited ({server.proc.wait(10)}) before answering", case.line)
                return
            try:
                reply = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, ValueError) as e:
                findings.add(f"a reply that is not JSON ({e})", case.line, raw[:300])
                continue
            check_reply(reply, expected, case.line, findings)
            if tally:
                tally(case, reply)
            if case.ack is not None:
                if _acked_ok(reply):
                    acked[case.ack] = case.payload
                else:
                    findings.add("an acknowledged-write candidate was refused", case.line, reply)
            if case.family == "check":
                check_acks(_rows(reply), acked, "the check at the end", findings)
        try:
            extra = server.replies.get(timeout=0.2)
        except queue.Empty:
            extra = None
        if extra is not None:
            findings.add("a reply nobody asked for", b"", extra)
        code = server.close()
        if code != 0:
            findings.add(f"exit code {code} after stdin closed", b"")
        if "Traceback" in server.stderr:
            findings.add("a traceback on stderr (an internal error)", b"")
    finally:
        server.kill()
        findings.check(server.stderr)


@pytest.mark.parametrize("kind", ["fuzz.rl", "fuzzdir"])
def test_stdio_answers_every_line_once_and_keeps_every_write(tmp_path, kind):
    rng = random.Random(f"{fuzzgen.seed()}-stdio-{kind}")
    ids, handed = Ids(), []
    cases = [fuzzgen.rpc_case(rng, ids, handed) for _ in range(STDIO_LINES)]
    store = str(tmp_path / kind)
    acked: dict[int, str] = {}
    findings = Findings(f"stdio fuzz on {kind}")
    run_stdio(store, tmp_path, cases, findings, acked)
    assert len(acked) > STDIO_LINES // 50, "acknowledged writes should be a fair share of the inputs"
    # a restart on the same store finds every acknowledged write
    run_stdio(store, tmp_path, [], findings, acked)


# ---------------------------------------------------------------- HTTP

STATUS_LINE = re.compile(rb"HTTP/1\.1 (\d{3}) [^\r\n]*")


@dataclass
class Response:
    status: int
    headers: dict[bytes, bytes]
    body: bytes


def parse_responses(data: bytes) -> list[Response]:
    """Every response in a byte stream, strictly; raises ValueError on anything else."""
    out = []
    while data:
        head, sep, rest = data.partition(b"\r\n\r\n")
        if not sep:
            raise ValueError(f"a truncated response head: {data[:200]!r}")
        lines = head.split(b"\r\n")
        m = STATUS_LINE.fullmatch(lines[0])
        if not m:
            raise ValueError(f"not a status line: {lines[0][:200]!r}")
        headers = {}
        for line in lines[1:]:
            k, colon, v = line.partition(b":")
            if not colon:
                raise ValueError(f"not a header: {line[:200]!r}")
            headers[k.strip().lower()] = v.strip()
        status = int(m.group(1))
        n = 0 if status == 100 else int(headers[b"content-length"])
        if len(rest) < n:
            raise ValueError("a truncated response body")
        out.append(Response(status, headers, rest[:n]))
        data = rest[n:]
    return out


def exchange(port: int, data: bytes, timeout: float = 30.0, responses: int | None = None) -> tuple[bytes, bool]:
    """Send `data` and read until the server closes: (bytes read, ended in time).  With
    `responses`, the connection stays open until that many final responses arrived (a
    half-close reads as a client gone, which cancels its statement); else the client
    half-closes after sending."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        try:
            s.sendall(data)
            if responses is None:
                s.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # the server refused early and closed: read what it said
        got = bytearray()
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return bytes(got), False
            s.settimeout(left)
            try:
                chunk = s.recv(1 << 20)
            except (ConnectionResetError, BrokenPipeError):
                return bytes(got), True
            except TimeoutError:
                return bytes(got), False
            if not chunk:
                return bytes(got), True
            got += chunk
            if responses is not None and _complete(bytes(got), responses):
                return bytes(got), True


def _complete(data: bytes, n: int) -> bool:
    try:
        return len([r for r in parse_responses(data) if r.status != 100]) >= n
    except (ValueError, KeyError):
        return False  # a response still arriving


def check_http_case(case: HttpCase, port: int, findings: Findings, acked: dict[int, str], lock,
                    tally=None) -> None:
    got, closed = exchange(port, case.data, responses=len(case.rpcs) if case.rpcs else None)
    if not closed:
        findings.add(f"{case.family}: the connection neither answered nor closed in 30 s", case.data, got[:300])
        return
    try:
        responses = [r for r in parse_responses(got) if r.status != 100]
    except (ValueError, KeyError) as e:
        findings.add(f"{case.family}: a malformed response stream ({e})", case.data, got[:300])
        return
    if len(responses) > case.requests:
        findings.add(f"{case.family}: {len(responses)} responses to {case.requests} requests", case.data,
                     [r.status for r in responses])
    for r in responses:
        if r.status >= 500:
            findings.add(f"{case.family}: HTTP {r.status}", case.data, r.body)
        try:
            json.loads(r.body) if r.body else None
        except ValueError:
            findings.add(f"{case.family}: a body that is not JSON", case.data, r.body)
            return
    statuses = [r.status for r in responses]
    if tally:
        tally(case, statuses, closed)
    if case.expect is not None and statuses != case.expect:
        findings.add(f"{case.family}: statuses {statuses}, expected {case.expect}", case.data)
        return
    if not case.rpcs:
        return
    if len(responses) != len(case.rpcs):
        findings.add(f"{case.family}: {len(responses)} responses to {len(case.rpcs)} well-framed requests",
                     case.data, statuses)
        return
    for rpc, r in zip(case.rpcs, responses):
        expected = http_oracle(rpc.line)
        if expected is NONE:
            if r.status != 202 or r.body:
                findings.add(f"notification answered {r.status}", rpc.line, r.body)
            continue
        try:
            reply = json.loads(r.body)
        except ValueError:
            findings.add(f"status {r.status} with a body that is not JSON", rpc.line, r.body)
            continue
        # an error that cannot carry the request's id is a 400, so a waiting client sees it at once
        want = 400 if isinstance(reply, dict) and "error" in reply and reply.get("id") is None else 200
        if r.status != want:
            findings.add(f"status {r.status} for a JSON-RPC reply, expected {want}", rpc.line, r.body)
            continue
        check_reply(reply, expected, rpc.line, findings)
        if rpc.ack is not None:
            if _acked_ok(reply):
                with lock:
                    acked[rpc.ack] = rpc.payload
            else:
                findings.add("an acknowledged-write candidate was refused", rpc.line, reply)


def control_ping(port: int, auth: str) -> dict | None:
    got, closed = exchange(port, fuzzgen.http_request(fuzzgen.request("ctl", "ping").encode(), auth=auth), 20, 1)
    try:
        (r,) = parse_responses(got)
        return json.loads(r.body) if r.status == 200 else None
    except (ValueError, KeyError):
        return None


def http_check_acks(port: int, auth: str, acked: dict[int, str], findings: Findings, when: str) -> None:
    body = fuzzgen.tool("check", "read_cypher", {"statement": CHECK}).encode()
    got, _ = exchange(port, fuzzgen.http_request(body, auth=auth), 60, 1)
    (r,) = parse_responses(got)
    check_acks(_rows(json.loads(r.body)), acked, when, findings)


AUTH = ("fuzz", "s3cret")


def run_http(tmp_path, cases: list[HttpCase], findings: Findings, acked: dict[int, str], tally=None) -> int:
    """Every case against one server, 100 at a time on 6 connections, a control ping after each
    batch; then the acknowledged writes, a SIGTERM, a restart on the same store and the writes
    again.  Returns how many times the server was found gone (0)."""
    auth = fuzzgen.basic(*AUTH)
    argv = ["--mcp", "0", "--database", str(tmp_path / "httpdir"), "--auth", ":".join(AUTH),
            "--header-deadline-secs", "5", "--body-deadline-secs", "5"]
    lock = threading.Lock()
    server = start(argv, tmp_path)
    try:
        with ThreadPoolExecutor(6) as pool:
            for start_at in range(0, len(cases), 100):
                batch = cases[start_at:start_at + 100]
                list(pool.map(lambda c: check_http_case(c, server.port, findings, acked, lock, tally), batch))
                if control_ping(server.port, auth) != {"jsonrpc": "2.0", "id": "ctl", "result": {}}:
                    findings.add(f"the control ping after batch {start_at // 100} failed", b"")
                if server.proc.poll() is not None or len(findings.items) > 20:
                    break
        if server.proc.poll() is not None:
            findings.add(f"the server exited ({server.proc.returncode})", b"")
            return 1
        if "Traceback" in server.stderr:
            findings.add("a traceback on stderr (an internal error)", b"")
        findings.check(server.stderr)
        http_check_acks(server.port, auth, acked, findings, "the check at the end")
        code = server.stop(signal.SIGTERM)
        if code != 0:
            findings.add(f"exit code {code} after SIGTERM", b"")
        server = start(argv, tmp_path)
        http_check_acks(server.port, auth, acked, findings, "the check after a restart")
        findings.check(server.stderr)
        return 0
    finally:
        server.kill()


def http_cases(rng: random.Random, n: int) -> list[HttpCase]:
    ids, handed = Ids(), []
    auth = fuzzgen.basic(*AUTH)
    return [fuzzgen.http_case(rng, ids, handed, auth) for _ in range(n)]


def test_http_answers_every_request_once_and_keeps_every_write(tmp_path):
    cases = http_cases(random.Random(f"{fuzzgen.seed()}-http"), HTTP_CASES)
    findings = Findings("HTTP fuzz")
    acked: dict[int, str] = {}
    assert run_http(tmp_path, cases, findings, acked) == 0
    findings.check()
    assert len(acked) > HTTP_CASES // 100
