"""`relate serve`: argv -> an open store served over MCP on stdio or on a port (streamable HTTP).

Flag checks that the reference pages fix happen before the store is opened: one `--mcp`, no
`--auth` on a stdio-only run, numeric limits in range (exit 2), and a well-formed `--auth` /
`RELATE_AUTH` for a port (exit 1).  Transports live in `relate.net` and are imported only here,
so the browser build never loads sockets, threads or signals.
"""
from __future__ import annotations

import logging
import os
from typing import Mapping

from ..errors import E, EXIT_OTHER, StorageError, UsageError
from ..policy import Policy
from ..semantic.traversal_depth import MAX_LIMIT, MIN_LIMIT
from .parsers import build_serve_parser

MAX_DEADLINE = 86400
_UNITS = {"": 1, "b": 1, "k": 1024, "kb": 1024, "kib": 1024, "m": 1024 ** 2, "mb": 1024 ** 2, "mib": 1024 ** 2,
          "g": 1024 ** 3, "gb": 1024 ** 3, "gib": 1024 ** 3}


def _int_flag(flag: str, text: str, lo: int, hi: int | None) -> int:
    try:
        n = int(text, 10)
    except ValueError:
        n = None
    if n is None or n < lo or (hi is not None and n > hi):
        bound = f"{lo} to {hi}" if hi is not None else f"at least {lo}"
        raise E.Usage.Usage(f"Error: {flag} takes a whole number, {bound}; got {text!r}")
    return n


def parse_size(text: str) -> int | None:
    """`268435456`, `256MiB`, `1g` -> bytes; None when it is not a size."""
    t = text.strip().lower()
    digits = len(t) - len(t.lstrip("0123456789"))
    number, unit = t[:digits], t[digits:].strip()
    if not number or unit not in _UNITS:
        return None
    return int(number) * _UNITS[unit]


def serve(argv, stdin, stdout, stderr, env: Mapping[str, str] | None = None) -> int:
    """`relate serve ...`: open the store, then hand the protocol core to a transport."""
    env = os.environ if env is None else env
    args = build_serve_parser(stderr).parse_args(argv)
    bolt, http = args.bolt, args.http
    for flag, value in (("--bolt", bolt), ("--http", http)):
        if value is not None and not (value.isascii() and value.isdigit() and int(value) <= 65535):
            raise E.Usage.Usage(f"Error: serve {flag} takes a port number, got {value!r}")
    if not args.mcp and bolt is None and http is None:
        raise E.Usage.Usage("Error: serve needs --mcp stdio or --mcp PORT")
    if args.mcp and len(args.mcp) > 1:
        raise E.Usage.Usage("Error: serve --mcp may be given only once")
    target = args.mcp[0] if args.mcp else None
    if target == "stdio" and (bolt is not None or http is not None):
        raise E.Usage.Usage("Error: serve --mcp stdio cannot be combined with --bolt or --http: serve MCP on a "
                            "port (--mcp PORT) beside them")
    if args.origin and http is None and bolt is None:
        raise E.Usage.Usage("Error: serve --origin applies to the Query API and Bolt: add --http PORT or --bolt PORT")
    from ..net.origins import normal_origin
    origins = []
    for text in args.origin:
        origin = normal_origin(text)
        if origin is None:
            raise E.Usage.Usage(f"Error: serve --origin takes an origin such as https://example.com:8443, got "
                                f"{text!r}")
        origins.append(origin)
    tx_timeout = _int_flag("--tx-timeout-secs", args.tx_timeout_secs, 1, MAX_DEADLINE)
    if target == "stdio" and args.auth is not None:
        raise E.Usage.Usage("Error: serve --mcp stdio skips auth: the host that starts the process is its only "
                            "peer; drop --auth")
    if target not in (None, "stdio") and not (target.isascii() and target.isdigit() and int(target) <= 65535):
        raise E.Usage.Usage(f"Error: serve --mcp takes stdio or a port number, got {target!r}")
    from ..protocols.tool_groups import ToolsSpecError, parse_tools
    try:
        tools = parse_tools(args.tools)
    except ToolsSpecError as e:
        raise E.Usage.Usage(str(e)) from None
    if args.read_only not in (None, "snapshot", "live"):
        raise E.Usage.Usage(f"Error: --read-only takes no value or =live, got {args.read_only!r}")
    header_deadline = _int_flag("--header-deadline-secs", args.header_deadline_secs, 0, MAX_DEADLINE)
    body_deadline = _int_flag("--body-deadline-secs", args.body_deadline_secs, 0, MAX_DEADLINE)
    max_connections = _int_flag("--max-connections", args.max_connections, 1, None)
    call_timeout = _int_flag("--call-timeout-secs", args.call_timeout_secs, 0, MAX_DEADLINE)
    max_depth = _int_flag("--max-traversal-depth", args.max_traversal_depth, MIN_LIMIT, MAX_LIMIT)
    history_limit = _int_flag("--temporal-read-limit", args.temporal_read_limit, 1, None)
    memory_limit = parse_size(args.expression_memory_limit)
    if memory_limit is None or memory_limit < 1:
        raise E.Usage.Usage("Error: --expression-memory-limit takes a size in bytes, optionally with KiB, MiB or "
                            f"GiB (e.g. 256MiB); got {args.expression_memory_limit!r}")
    imports = None
    if args.import_dir is not None:
        if args.read_only is not None:
            raise E.Usage.Usage("Error: --import-dir cannot be combined with --read-only: LOAD CSV is refused on a "
                                "read-only server")
        from ..database import import_folder
        try:
            imports = import_folder(args.import_dir)
        except UsageError as e:
            raise E.Usage.Usage(f"Error: --import-dir: {e.message}") from None
    auth_flag = args.auth
    auth_env = env.get("RELATE_AUTH")
    if target != "stdio":
        from ..net.auth import AuthSpecError, parse_auth
        try:  # malformed credentials fail before the store is opened
            for value, source in ((auth_flag, "--auth"), (auth_env if auth_flag is None else None, "RELATE_AUTH")):
                if value is not None:
                    parse_auth(value, source)
        except AuthSpecError as e:
            stderr.write(f"{e}\n")
            return EXIT_OTHER

    from ..database import Database
    policy = Policy(read_only=args.read_only is not None, safe=args.safe, max_traversal_depth=max_depth,
                    expression_memory_limit=memory_limit, time_limit=call_timeout or None, import_dir=imports,
                    temporal_read_limit=history_limit)
    from .notices import store_notices
    try:
        with store_notices(stderr, "serve: warning: "):
            db = Database(args.database, live=args.read_only == "live", policy=policy)
    except StorageError as e:
        stderr.write(f"Error: Failed to open Relate: {e.message}\n")
        return e.exit_code
    # the core logs internal errors (with their traceback) to `relate`; they go to this run's stderr
    handler = logging.StreamHandler(stderr)
    handler.setFormatter(logging.Formatter("serve: %(message)s"))
    logger = logging.getLogger("relate")
    logger.addHandler(handler)
    try:
        if target == "stdio":
            from ..protocols.mcp import McpServer
            from ..net.stdio import serve_stdio
            return serve_stdio(McpServer(db, db.policy, tools=tools), stdin, stdout, stderr)
        try:
            from ..net.http import HttpLimits
        except ImportError:  # h11 is a native-only dependency (the `native` extra)
            stderr.write("Error: serve --mcp PORT needs the h11 package: pip install 'relate[native]'\n")
            return EXIT_OTHER
        from ..net.front import Front
        limits = HttpLimits(header_deadline=header_deadline or None, body_deadline=body_deadline or None)
        front = Front(db, args.host, limits, tx_timeout=tx_timeout, origins=frozenset(origins), tools=tools)
        if target is not None:
            front.mcp(int(target), target)
        if bolt is not None:
            front.bolt(int(bolt), bolt)
        if http is not None:
            front.http(int(http), http)
        from ..net.auth import resolve
        preamble = (f"serve: store {args.database} is open read-only",) if args.read_only is not None else ()
        return front.run(resolve_auth=lambda: resolve(auth_flag, auth_env, args.database),
                         max_connections=max_connections, stderr=stderr, preamble=preamble)
    finally:
        logger.removeHandler(handler)
        db.close()
