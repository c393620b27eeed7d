"""dist/site/ on disk -> the same files over HTTP on 127.0.0.1, for reading the docs locally.

Pages with tryouts load ES modules, wasm and wheels with fetch(), which browsers refuse over
file://, so the built site always has to be served.  Usage: python server/serve.py [PORT] [DIR]
(port 8000 and dist/site/ by default; port 0 picks a free one).  Stdlib only, so it also runs
without the project's virtualenv.  The e2e tests import `make_server` from here, so the site is
tested behind exactly the MIME table readers get.
"""
from __future__ import annotations

import functools
import http.server
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


def main(argv: list[str]) -> int:
    port = int(argv[1]) if len(argv) > 1 else 8000
    directory = Path(argv[2]) if len(argv) > 2 else SITE
    if not (directory / "index.html").is_file():
        print(f"error: {directory}/index.html is missing; build the site first: python build/site.py",
              file=sys.stderr)
        return 1
    server = make_server(directory, port)
    print(f"serving {directory} on http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C stops)",
          flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
