"""dist/site/ on disk -> the same files over HTTP on 127.0.0.1, for reading the docs locally,
with the native MCP server running beside it.

Pages with tryouts load ES modules, wasm and wheels with fetch(), which browsers refuse over
file://, so the built site always has to be served.

Usage: python server/serve.py [PORT] [DIR] [--mcp-port N] [--database PATH]
    PORT         the site's port (8000 by default; 0 picks a free one); DIR is dist/site/
    --mcp-port   also start `relate serve --mcp N --database PATH` (the native MCP server over
                 HTTP, next to the page's in-browser one), PORT + 1 by default, 0 for none;
                 relate prints its URL and credential on stderr
    --database   the store that server serves (`:memory:` by default)

Both ports are bound before anything is announced: a port that is taken ends the run with exit
status 1 and a message naming it and how to pick another; the banner (site URL, MCP URL, the
host configuration with relate's absolute path) is printed only once both servers listen.

Stdlib only, so it also runs without the project's virtualenv (the MCP server then needs
`relate` on PATH).  The e2e tests import `make_server` from here, so the site is tested behind
exactly the MIME table readers get.
"""
from __future__ import annotations

import argparse
import functools
import http.server
import json
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "dist" / "site"

# Module scripts must come as JavaScript and wasm as application/wasm (streaming compilation
# refuses anything else); the OS MIME database may lack both, so don't rely on it.
MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".css": "text/css",
    ".html": "text/html",
    ".svg": "image/svg+xml",
}


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    quiet = False

    def end_headers(self) -> None:
        # A rebuilt site must never be mixed with stale cached runtime files.
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args) -> None:
        if not self.quiet:
            super().log_message(format, *args)


class QuietSiteHandler(SiteHandler):
    quiet = True


def make_server(directory: Path = SITE, port: int = 8000, *, quiet: bool = False):
    """A ThreadingHTTPServer for `directory` bound to 127.0.0.1 (never another interface)."""
    handler = QuietSiteHandler if quiet else SiteHandler
    return http.server.ThreadingHTTPServer(
        ("127.0.0.1", port), functools.partial(handler, directory=str(directory)))


def relate_command() -> str | None:
    """The `relate` this server starts: the one beside this Python (the project's .venv), else
    the one on PATH."""
    beside = Path(sys.executable).parent / "relate"
    return str(beside) if beside.exists() else shutil.which("relate")


def free_port_near(port: int) -> int:
    """A port that is free right now, to suggest in a refusal (the next tens above `port`)."""
    for candidate in range(port + 10, port + 200, 10):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", candidate))
            except OSError:
                continue
            return candidate
    return port + 10


class McpChild:
    """`relate serve --mcp PORT` as a child process whose stderr is passed on line by line; it
    counts as started once it printed its `listening on` line."""

    def __init__(self, relate: str, port: int, database: str) -> None:
        self.proc = subprocess.Popen([relate, "serve", "--mcp", str(port), "--database", database],
                                     stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines: list[str] = []
        self._listening = threading.Event()
        self._ended = threading.Event()
        threading.Thread(target=self._pass_on, daemon=True).start()

    def _pass_on(self) -> None:
        for line in self.proc.stderr:
            self.lines.append(line.rstrip("\n"))
            sys.stderr.write(line)
            sys.stderr.flush()
            if "listening on" in line:
                self._listening.set()
        self._ended.set()

    def wait_started(self, timeout: float = 60.0) -> bool:
        """True once listening; False when it ended (or said nothing for `timeout` seconds) first."""
        deadline = time.monotonic() + timeout
        while not self._listening.is_set():
            if self._ended.is_set() or time.monotonic() > deadline:
                return self._listening.is_set()
            self._listening.wait(0.05)
        return True

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def banner(site: str, mcp_url: str | None, relate: str | None) -> str:
    command = relate or "relate"
    stdio = ["serve", "--mcp", "stdio", "--database", ":memory:"]
    host = json.dumps({"mcpServers": {"relate": {"command": command, "args": stdio}}})
    lines = ["", f"  Site:        {site}",
             f"  MCP (HTTP):  {mcp_url} (user relate, with the token printed above)" if mcp_url
             else "  MCP (HTTP):  not started (MCP_PORT=N ./run starts it on port N)",
             f"  MCP (stdio): {command} {' '.join(stdio)}",
             f"  Host config: {host}", ""]
    return "\n".join(lines)


def _stop(signum, frame) -> None:
    raise KeyboardInterrupt


def refuse(what: str, port: int, reason: str, env: str, flag: str, extra: str = "") -> int:
    other = free_port_near(port)
    print(f"error: {what} cannot listen on port {port}: {reason}.\n"
          f"  Pick another port: {env}={other} ./run   (or: python server/serve.py {flag}{other}){extra}",
          file=sys.stderr)
    return 1


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="server/serve.py", description="Serve the built site locally.")
    parser.add_argument("port", nargs="?", type=int, default=8000)
    parser.add_argument("directory", nargs="?", type=Path, default=SITE)
    parser.add_argument("--mcp-port", type=int, default=None)
    parser.add_argument("--database", default=":memory:")
    args = parser.parse_args(argv[1:])
    if not (args.directory / "index.html").is_file():
        print(f"error: {args.directory}/index.html is missing; build the site first: python build/site.py",
              file=sys.stderr)
        return 1
    try:
        server = make_server(args.directory, args.port)
    except OSError as e:
        return refuse("the site", args.port, e.strerror or str(e), "PORT", "")
    site = f"http://127.0.0.1:{server.server_address[1]}/"
    mcp_port = args.mcp_port if args.mcp_port is not None else (args.port + 1 if args.port else 0)
    relate = relate_command()
    mcp = None
    signal.signal(signal.SIGTERM, _stop)  # a plain `kill` stops the MCP child too
    try:
        if mcp_port and relate is None:
            print("note: `relate` is not installed here, so only the site is served", file=sys.stderr)
        elif mcp_port:
            mcp = McpChild(relate, mcp_port, args.database)
            if not mcp.wait_started():
                # relate's own line (passed on above) ends with the reason: "...: Address already in use"
                said = next((line for line in reversed(mcp.lines) if line.startswith("Error")), None)
                reason = said.rsplit(": ", 1)[-1].rstrip(".") if said else "it stopped before listening"
                return refuse("the MCP server", mcp_port, reason, "MCP_PORT", "--mcp-port ",
                              "\n  MCP_PORT=0 ./run serves the site without it.")
        mcp_url = f"http://127.0.0.1:{mcp_port}/mcp" if mcp is not None else None
        print(banner(site, mcp_url, relate), flush=True)
        print(f"serving {args.directory} on {site} (Ctrl-C stops)", flush=True)
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        if mcp is not None:
            mcp.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
