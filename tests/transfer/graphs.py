"""Helpers of the transfer tests: a store's graph -> a comparable signature, and the two round trips.

`signature(graph, id_prop)` lists nodes (id, sorted labels, properties in order), relationships
(id, type, start, end, properties) and the schema statements.  Values are compared by `repr` with
their type, so NaN equals NaN, -0.0 differs from 0.0, a zone or an offset that differs shows.
With `id_prop` (a graph the Cypher script rebuilt) ids are read from that property, which is then
left out.
"""
from __future__ import annotations

import io
import os

import relate
from relate.cli.main import run
from relate.transfer.schema_file import schema_lines


def _v(v):
    return (type(v).__name__, repr(v))


def signature(graph, id_prop: str | None = None):
    def nid(n):
        return n.props[id_prop] if id_prop else n.id

    def props(e):
        return [(k, _v(v)) for k, v in e.props.items() if k != id_prop]

    nodes = sorted((nid(n), sorted(n.labels), props(n)) for n in graph.nodes.values())
    rels = sorted((nid(r), r.type, nid(r.start), nid(r.end), props(r)) for r in graph.rels.values())
    return nodes, rels, sorted(schema_lines(graph))


def store_signature(path: str, id_prop: str | None = None):
    db = relate.connect(path, read_only=True)
    try:
        return signature(db.graph, id_prop)
    finally:
        db.close()


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def via_script(src: str, tmp) -> str:
    """Export `src` as a script, replay it with `relate -f` into a new store; returns its path."""
    script = os.path.join(tmp, "out.cypher")
    code, out, err = cli("export", src, "--format", "cypher", "--out", script)
    assert code == 0, err
    dst = os.path.join(tmp, "replayed")
    code, out, err = cli("--database", dst, "--mode", "jsonl", "-f", script)
    assert code == 0, err + out[-2000:]
    return dst


def via_csv(src: str, tmp) -> str:
    """Export `src` as CSV files, `relate import` them into a new store; returns its path."""
    folder = os.path.join(tmp, "csv")
    code, out, err = cli("export", src, "--format", "csv", "--out", folder)
    assert code == 0, err
    command = open(os.path.join(folder, "import.txt"), encoding="utf-8").read().splitlines()[-1]
    assert command.startswith("relate import STORE ")
    import shlex
    flags = [a.replace("=", "=" + folder + os.sep, 1) if a.startswith(("--nodes=", "--relationships=", "--schema="))
             else a for a in shlex.split(command)[3:]]
    dst = os.path.join(tmp, "imported.rl")
    code, out, err = cli("import", dst, *flags)
    assert code == 0, err
    return dst
