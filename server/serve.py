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

Stdlib only, so it also runs without the project's virtualenv (the MCP server then needs
`relate` on PATH).  The e2e tests import `make_server` from here, so the site is tested behind
exactly the MIME table readers get.
"""
from __future__ import annotations

import argparse
import functools
import http.server
import shutil
import signal
import subprocess
import sys
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


def start_mcp(port: int, database: str):
    """`relate serve --mcp PORT` as a child process, or None (with a note) when relate is missing."""
    beside = Path(sys.executable).parent / "relate"
    relate = str(beside) if beside.exists() else shutil.which("relate")
    if relate is None:
        print("note: `relate` is not installed here, so only the site is served", file=sys.stderr)
        return None
    return subprocess.Popen([relate, "serve", "--mcp", str(port), "--database", database],
                            stdin=subprocess.DEVNULL)


def _stop(signum, frame) -> None:
    raise KeyboardInterrupt


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
    server = make_server(args.directory, args.port)
    mcp_port = args.mcp_port if args.mcp_port is not None else (args.port + 1 if args.port else 0)
    mcp = start_mcp(mcp_port, args.database) if mcp_port else None
    print(f"serving {args.directory} on http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C stops)",
          flush=True)
    signal.signal(signal.SIGTERM, _stop)  # a plain `kill` stops the MCP child too
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        if mcp is not None:
            mcp.terminate()
            try:
                mcp.wait(timeout=10)
            except subprocess.TimeoutExpired:
                mcp.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
