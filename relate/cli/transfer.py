"""`relate export STORE --format cypher|csv --out PATH` and `relate import STORE --nodes ... `:
arguments -> the files or the new store, and one line saying what was written.

The formats are `relate/transfer/`'s; this module opens the store, reports and maps failures to
exit codes: 0 written, 1 a value the format cannot carry, a bad file or row (`transfer error:
...` naming the entity and key, or the file and line), a store that could not be read or
written; 2 bad arguments.  Nothing is left behind by a failure: the script or folder, like the
new store, appears whole or not at all.
"""
from __future__ import annotations

import os
from typing import TextIO

from ..errors import E, RelateError
from .parsers import build_export_parser, build_import_parser


def _fail(stderr: TextIO, what: str, e: RelateError) -> int:
    where = "".join(f" ({note})" for note in getattr(e, "__notes__", ()))
    stderr.write(f"Error: {what} failed{where}: {e.message}\n")
    return e.exit_code


def export(argv: list[str], stdout: TextIO, stderr: TextIO) -> int:
    args = build_export_parser(stdout).parse_args(argv)
    out = args.out
    if out != "-" and os.path.exists(out) and not (os.path.isdir(out) and not os.listdir(out)):
        raise E.Usage.Usage(f"Error: relate export: --out {out} already exists; give a new path")
    if out == "-" and args.format == "csv":
        raise E.Usage.Usage("Error: relate export: --format csv writes a folder; --out - (stdout) is for the script")
    if args.batch_size < 1:
        raise E.Usage.Usage("Error: --batch-size takes a positive number")
    from .notices import open_for_reading
    store, refused = open_for_reading(args.store, stderr)
    if store is None:
        return refused
    graph = store.graph
    try:
        if args.format == "csv":
            from ..transfer.csv_export import write_csv
            w = write_csv(graph, out, delimiter=args.delimiter, quote=args.quote,
                          array_delimiter=args.array_delimiter)
            what = f"{len(w.files)} CSV files, schema.cypher and import.txt"
        else:
            _script(graph, out, stdout, args.batch_size)
            what = "a Cypher script"
    except RelateError as e:
        return _fail(stderr, "export", e)
    finally:
        store.close()
    (stderr if out == "-" else stdout).write(
        f"exported {args.store} to {out} ({what}): {len(graph.nodes)} nodes, {len(graph.rels)} relationships, "
        f"{len([d for d in graph.indexes.values() if d.owner is None])} indexes, "
        f"{len(graph.constraints)} constraints\n")
    return 0


def _script(graph, out: str, stdout: TextIO, batch: int) -> None:
    from ..transfer.script import write_script
    if out == "-":
        import io
        buf = io.StringIO()  # written whole, so a refused value leaves no half script on stdout
        write_script(graph, buf, batch)
        stdout.write(buf.getvalue())
        return
    tmp = os.path.join(os.path.dirname(os.path.abspath(out)), f".{os.path.basename(out)}.export-{os.getpid()}")
    try:
        with open(tmp, "w", encoding="utf-8", newline="\n") as f:
            write_script(graph, f, batch)
        if os.path.isdir(out):
            os.rmdir(out)
        os.rename(tmp, out)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def import_(argv: list[str], stdout: TextIO, stderr: TextIO) -> int:
    args = build_import_parser(stdout).parse_args(argv)
    from ..transfer.bulk import Options, import_store, parse_source
    nodes = [parse_source(s, True) for s in args.nodes]
    rels = [parse_source(s, False) for s in args.relationships]
    opts = Options(delimiter=args.delimiter, array_delimiter=args.array_delimiter, quote=args.quote,
                   id_type=args.id_type, schema=args.schema, skip_duplicate_nodes=args.skip_duplicate_nodes,
                   skip_bad_relationships=args.skip_bad_relationships)
    try:
        graph = import_store(args.store, nodes, rels, opts)
    except RelateError as e:
        return _fail(stderr, "import", e)
    stdout.write(f"imported into {args.store}: {len(graph.nodes)} nodes, {len(graph.rels)} relationships, "
                 f"{len([d for d in graph.indexes.values() if d.owner is None])} indexes, "
                 f"{len(graph.constraints)} constraints\n")
    return 0
