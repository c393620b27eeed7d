"""Connection slots, as an attacker takes them: connections that never authenticate, reopened as
soon as the server closes them, must not lock the clients out of `relate serve --mcp PORT`; a
connection that has authenticated keeps its slot; one that sends nothing is closed after the
first-byte deadline, and one that drips its header is still bound by the header deadline.
(Issue 14.)"""
from __future__ import annotations

import multiprocessing
import select
import socket
import time

import pytest

from tests.net.server import basic, closed_without_reply, connect, post, read_reply, request_bytes, rpc, start

CAP = 8
AUTH = {"Content-Type": "application/json", "Authorization": basic("u", "p")}
DRIP = b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: "


class _Flood:
    """`n` connections to `port` that never authenticate, each reopened as soon as the server
    closes it.  Silent ones send nothing; dripping ones send one header byte per socket every
    0.1 s, a header block that never ends.  `lifetimes` records how long each closed one lived.
    Runs in its own process (`Flood`), as an attacker would: in the test's process it would
    starve the client of the interpreter lock."""

    def __init__(self, port: int, n: int, drip: bool) -> None:
        self.port = port
        self.drip = drip
        self.reopen = True
        self.socks: dict[socket.socket, list] = {}  # socket -> [opened at, bytes sent]
        self.lifetimes: list[float] = []
        self.opened = 0
        for _ in range(n):
            self._open()

    def _open(self) -> None:
        try:
            s = socket.create_connection(("127.0.0.1", self.port), timeout=5)
        except OSError:
            return
        s.setblocking(False)
        self.socks[s] = [time.monotonic(), 0]
        self.opened += 1

    def _closed(self, s: socket.socket) -> None:
        opened, _ = self.socks.pop(s)
        self.lifetimes.append(time.monotonic() - opened)
        s.close()
        if self.reopen:
            self._open()

    def run(self, control) -> None:
        control.send("ready")
        last_drip = 0.0
        settle_until = None
        while True:
            if control.poll():
                command, arg = control.recv()
                if command == "stop":
                    break
                self.reopen = False  # "settle": stop reopening, report once all have ended
                settle_until = time.monotonic() + arg
            if settle_until is not None and (not self.socks or time.monotonic() > settle_until):
                control.send((not self.socks, self.lifetimes, self.opened))
                settle_until = None
            socks = list(self.socks)
            if not socks:
                time.sleep(0.02)
                continue
            readable, _, _ = select.select(socks, [], [], 0.02)
            for s in readable:
                try:
                    data = s.recv(65536)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if not data:
                    self._closed(s)
            if self.drip and time.monotonic() - last_drip >= 0.1:
                last_drip = time.monotonic()
                for s, state in list(self.socks.items()):
                    sent = state[1]
                    try:
                        s.send(DRIP[sent:sent + 1] or b"a")
                        state[1] += 1
                    except BlockingIOError:
                        pass
                    except OSError:
                        self._closed(s)
        for s in self.socks:
            s.close()
        control.send((True, self.lifetimes, self.opened))


def _flood_main(port: int, n: int, drip: bool, control) -> None:
    _Flood(port, n, drip).run(control)


class Flood:
    """An attacking process running `_Flood`; `opened` and `lifetimes` are its figures once
    `settle` or `stop` has returned."""

    def __init__(self, port: int, n: int, drip: bool = False) -> None:
        ctx = multiprocessing.get_context("spawn")
        self._control, child = ctx.Pipe()
        self._proc = ctx.Process(target=_flood_main, args=(port, n, drip, child), daemon=True)
        self._proc.start()
        assert self._control.poll(60) and self._control.recv() == "ready"
        self.opened = 0
        self.lifetimes: list[float] = []

    def _report(self, timeout: float) -> bool:
        assert self._control.poll(timeout), "the flood process did not answer"
        all_closed, self.lifetimes, self.opened = self._control.recv()
        return all_closed

    def wait_all_closed(self, timeout: float) -> bool:
        """Stop reopening; do all the flood's connections end within `timeout` seconds?"""
        self._control.send(("settle", timeout))
        return self._report(timeout + 30)

    def stop(self) -> None:
        if self._proc.is_alive():
            try:
                self._control.send(("stop", None))
                self._report(30)
            except (OSError, EOFError, AssertionError):
                pass
        self._proc.join(10)
        if self._proc.is_alive():
            self._proc.kill()
            self._proc.join(10)


def _ping(port: int, id_: int):
    return post(port, rpc(id_, "ping"), AUTH)


def _ping_on(sock: socket.socket, id_: int):
    sock.sendall(request_bytes(body=rpc(id_, "ping"), headers=AUTH))
    return read_reply(sock)


def _serve(tmp_path, *extra: str):
    return start(["--mcp", "0", "--auth", "u:p", "--max-connections", str(CAP), *extra], tmp_path)


@pytest.mark.parametrize("attackers, deadline", [(CAP, "10"), (2 * CAP, "0")],
                         ids=["as-many-as-slots", "twice-as-many-no-deadlines"])
def test_idle_unauthenticated_connections_reopened_do_not_lock_clients_out(tmp_path, attackers, deadline):
    s = _serve(tmp_path, "--header-deadline-secs", deadline)
    flood = None
    try:
        flood = Flood(s.port, attackers)
        time.sleep(0.5)  # the server has taken them all
        for i in range(6):
            r = _ping(s.port, i)  # a fresh connection each time, as a client without a pool opens one
            assert r.status == 200 and r.json() == {"jsonrpc": "2.0", "id": i, "result": {}}
            time.sleep(0.1)
        flood.stop()
        assert flood.opened > attackers  # the attackers were evicted and came back
    finally:
        if flood is not None:
            flood.stop()
        assert s.stop() == 0


def test_an_authenticated_connection_keeps_its_slot(tmp_path):
    s = _serve(tmp_path, "--header-deadline-secs", "60")
    flood = None
    held: list[socket.socket] = []
    try:
        first = connect(s.port)
        held.append(first)
        assert _ping_on(first, 1).status == 200  # the oldest and most idle connection, but authenticated
        flood = Flood(s.port, 2 * CAP)  # more than the slots left: they evict one another all the time
        time.sleep(1.0)
        for i in range(3):
            assert _ping(s.port, 10 + i).status == 200  # a fresh client still gets a slot
            assert _ping_on(first, 20 + i).json()["id"] == 20 + i  # the authenticated one was not evicted
        flood.stop()
        while len(held) < CAP:  # authenticated clients take every slot
            c = connect(s.port)
            r = _ping_on(c, 30 + len(held))
            assert r is not None and r.status == 200
            held.append(c)
        flood = Flood(s.port, 2 * CAP)  # nothing is evictable now: each is accepted, then closed
        time.sleep(1.0)
        with connect(s.port) as extra:
            assert closed_without_reply(extra, 5)
        for i, c in enumerate(held):
            assert _ping_on(c, 40 + i).json()["id"] == 40 + i
    finally:
        if flood is not None:
            flood.stop()
        for c in held:
            c.close()
        assert s.stop() == 0


def test_a_connection_that_sends_nothing_is_closed_after_the_first_byte_deadline(tmp_path):
    s = _serve(tmp_path, "--header-deadline-secs", "60")
    try:
        with connect(s.port) as c:  # the first-byte deadline (3 s), not the header deadline (60 s)
            assert closed_without_reply(c, 15)
        with connect(s.port) as c:  # once a request has been answered, only the header deadline counts
            assert _ping_on(c, 1).status == 200
            time.sleep(4)
            assert _ping_on(c, 2).json()["id"] == 2
    finally:
        assert s.stop() == 0


def test_the_first_byte_deadline_is_off_when_the_header_deadline_is(tmp_path):
    # not an attack: pins the documented choice that `--header-deadline-secs 0` turns both off
    s = _serve(tmp_path, "--header-deadline-secs", "0")
    try:
        with connect(s.port) as c:
            assert not closed_without_reply(c, 4)
            assert _ping_on(c, 1).status == 200
    finally:
        assert s.stop() == 0


def test_a_slowloris_dripping_its_header_is_bound_by_the_header_deadline(tmp_path):
    s = _serve(tmp_path, "--header-deadline-secs", "2")
    flood = None
    try:
        flood = Flood(s.port, CAP, drip=True)
        time.sleep(0.5)
        for i in range(4):
            assert _ping(s.port, i).status == 200  # the drippers hold every slot, yet a client gets in
            time.sleep(0.2)
        assert flood.wait_all_closed(15)  # every dripping connection ends, however steadily it drips
        assert flood.lifetimes and max(flood.lifetimes) < 10  # header deadline 2 s, with a wide margin
    finally:
        if flood is not None:
            flood.stop()
        assert s.stop() == 0
