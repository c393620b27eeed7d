"""`relate serve`: argv -> an open store served over MCP on stdio (or, later, a port).

Flag checks that the reference pages fix (one `--mcp`, no `--auth` on a stdio-only run) happen
before the store is opened.  Transports live in `relate.net` and are imported only here.
"""
from __future__ import annotations

from ..errors import EXIT_OTHER, StorageError, UsageError
from .main import MEMORY, _Parser


def build_serve_parser(out: TextIO | None = None) -> _Parser:
    p = _Parser(prog="relate serve", out=out, description="Serve one store over MCP.")
    p.add_argument("--database", default=MEMORY, metavar="PATH")
    p.add_argument("--mcp", action="append", metavar="stdio|PORT")
    p.add_argument("--read-only", nargs="?", const="snapshot", default=None, metavar="FRESHNESS")
    p.add_argument("--safe", action="store_true")
    p.add_argument("--auth", metavar="USER:PASSWORD")
    p.add_argument("--host", default="127.0.0.1")
    return p


def serve(argv, stdin, stdout, stderr) -> int:
    """`relate serve ...`: open the store, then hand the protocol core to a transport."""
    args = build_serve_parser(stderr).parse_args(argv)
    if not args.mcp:
        raise UsageError("Error: serve needs --mcp stdio or --mcp PORT")
    if len(args.mcp) > 1:
        raise UsageError("Error: serve --mcp may be given only once")
    target = args.mcp[0]
    if target == "stdio" and args.auth is not None:
        raise UsageError("Error: serve --mcp stdio skips auth: the host that starts the process is its only "
                         "peer; drop --auth")
    if target != "stdio" and not target.isdigit():
        raise UsageError(f"Error: serve --mcp takes stdio or a port number, got {target!r}")
    if args.read_only not in (None, "snapshot", "live"):
        raise UsageError(f"Error: --read-only takes no value or =live, got {args.read_only!r}")
    from ..database import Database
    try:
        if args.read_only == "live":
            raise StorageError("LiveReadOnly", "--read-only=live needs a directory store written by another "
                                               "process; it is not available yet")
        db = Database(args.database, read_only=args.read_only is not None)
    except StorageError as e:
        stderr.write(f"Error: Failed to open Relate: {e.message}\n")
        return e.exit_code
    from ..protocols.mcp import McpServer
    server = McpServer(db, read_only=args.read_only is not None, safe=args.safe)
    if target != "stdio":
        stderr.write("Error: serve --mcp PORT (streamable HTTP) is not available in this build yet\n")
        return EXIT_OTHER
    from ..net.stdio import serve_stdio
    return serve_stdio(server, stdin, stdout, stderr)
