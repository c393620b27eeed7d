"""A graph -> a folder of CSV files that `neo4j-admin database import full` and `relate import` read.

Files: `nodes-N.csv` (one per label set and property layout, the header first:
`_relate_id:ID,:LABEL,key:type,...`), `relationships-N.csv` (one per type and layout:
`:START_ID,:END_ID,:TYPE,_relate_id:long,key:type,...`), `schema.cypher` (the indexes and
constraints, Neo4j 5 DDL) and `import.txt` (the two command lines that load the folder).
Grouping by layout gives every row a value in every column, so an unquoted empty field never
stands for a value and the properties come back in their order.

The array delimiter (`;` unless told) must not occur in any label or list element; when it does
and none was chosen, the first of `;|^~` and `\\x1f` that occurs nowhere is used (the command lines
in `import.txt` name it).  Values no column can hold are refused, naming the entity and the key
(`cells.column_type`).  The folder appears whole or not at all: it is written under a temporary
name beside the target, then renamed.
"""
from __future__ import annotations

import os
import shutil
from dataclasses import dataclass

from ..errors import E
from . import csv_text
from .cells import Unrepresentable, cell, column_type
from .headers import RELATE_ID, parse_field
from .schema_file import schema_lines

_CANDIDATES = (";", "|", "^", "~", "\x1f")


@dataclass(frozen=True, slots=True)
class Written:
    nodes: int
    relationships: int
    files: tuple[str, ...]
    array_delimiter: str


def _layout(kind: str, entity) -> tuple:
    if RELATE_ID in entity.props:
        raise E.Transfer.UnsupportedValue(f"{kind} {entity.id}: the key `{RELATE_ID}` is the property the "
                                          "export keeps ids in; rename it before exporting")
    out = []
    for k, v in entity.props.items():
        try:
            t = column_type(v)
        except Unrepresentable as e:
            raise E.Transfer.UnsupportedValue(
                f"CSV cannot carry the {kind} {entity.id}'s property `{k}`: {e}") from None
        field = f"{k}:{t}"
        back = parse_field(field)
        if back.name != k or back.type != t:
            raise E.Transfer.UnsupportedValue(f"CSV cannot carry the {kind} {entity.id}'s property `{k}`: the "
                                              "key does not read back from a header")
        out.append((k, t))
    return tuple(out)


def _texts(graph):
    """Every text the array delimiter must not occur in: labels and string list elements."""
    for lb in graph.by_label:
        yield lb
    for coll in (graph.nodes.values(), graph.rels.values()):
        for e in coll:
            for v in e.props.values():
                if type(v) is list and v and type(v[0]) is str:
                    yield from v


def _delimiter(graph, chosen: str | None, delimiter: str, quote: str) -> str:
    bad = {delimiter, quote, "\n", "\r"}
    if chosen is not None:
        for t in _texts(graph):
            if chosen in t:
                raise E.Transfer.UnsupportedValue(f"the array delimiter {chosen!r} occurs in {t!r}: choose "
                                                  "another with --array-delimiter")
        return chosen
    seen = set()
    for t in _texts(graph):
        seen.update(c for c in _CANDIDATES if c in t)
        if len(seen) == len(_CANDIDATES):
            break
    for c in _CANDIDATES:
        if c not in seen and c not in bad:
            return c
    raise E.Transfer.UnsupportedValue("every array delimiter relate tries occurs in a label or a list "
                                      "element: choose one with --array-delimiter")


def write_csv(graph, folder: str, *, delimiter: str = ",", quote: str = '"',
              array_delimiter: str | None = None) -> Written:
    ad = _delimiter(graph, array_delimiter, delimiter, quote)
    node_groups: dict[tuple, list] = {}
    for n in graph.nodes.values():
        node_groups.setdefault((tuple(sorted(n.labels)), _layout("node", n)), []).append(n)
    rel_groups: dict[tuple, list] = {}
    for r in graph.rels.values():
        rel_groups.setdefault((r.type, _layout("relationship", r)), []).append(r)
    parent = os.path.dirname(os.path.abspath(folder))
    tmp = os.path.join(parent, f".{os.path.basename(folder)}.export-{os.getpid()}")
    os.makedirs(tmp)
    files: list[str] = []
    row = csv_text.record
    try:
        for i, ((labels, layout), members) in enumerate(node_groups.items(), 1):
            fname = f"nodes-{i}.csv"
            files.append(fname)
            with open(os.path.join(tmp, fname), "w", encoding="utf-8", newline="") as f:
                f.write(row([f"{RELATE_ID}:ID", ":LABEL", *(f"{k}:{t}" for k, t in layout)], delimiter, quote))
                label_text = ad.join(labels)
                for n in members:
                    props = n.props
                    f.write(row([str(n.id), label_text, *(cell(props[k], t, ad) for k, t in layout)],
                                delimiter, quote))
        for i, ((type_, layout), members) in enumerate(rel_groups.items(), 1):
            fname = f"relationships-{i}.csv"
            files.append(fname)
            with open(os.path.join(tmp, fname), "w", encoding="utf-8", newline="") as f:
                f.write(row([":START_ID", ":END_ID", ":TYPE", f"{RELATE_ID}:long",
                             *(f"{k}:{t}" for k, t in layout)], delimiter, quote))
                for r in members:
                    props = r.props
                    f.write(row([str(r.start.id), str(r.end.id), type_, str(r.id),
                                 *(cell(props[k], t, ad) for k, t in layout)], delimiter, quote))
        with open(os.path.join(tmp, "schema.cypher"), "w", encoding="utf-8") as f:
            f.write("".join(line + "\n" for line in schema_lines(graph)))
        with open(os.path.join(tmp, "import.txt"), "w", encoding="utf-8") as f:
            f.write(_commands(files, delimiter, quote, ad))
        if os.path.isdir(folder) and not os.listdir(folder):
            os.rmdir(folder)
        os.rename(tmp, folder)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return Written(len(graph.nodes), len(graph.rels), tuple(files), ad)


def _commands(files: list[str], delimiter: str, quote: str, ad: str) -> str:
    import shlex
    nodes = [f"--nodes={f}" for f in files if f.startswith("nodes-")]
    rels = [f"--relationships={f}" for f in files if f.startswith("relationships-")]
    flags = []
    if delimiter != ",":
        flags.append(f"--delimiter={shlex.quote(delimiter)}")
    if quote != '"':
        flags.append(f"--quote={shlex.quote(quote)}")
    flags.append(f"--array-delimiter={shlex.quote(ad)}")
    admin = " ".join(["neo4j-admin database import full", *nodes, *rels, "--id-type=integer",
                      "--multiline-fields=true", *flags, "--schema=schema.cypher", "neo4j"])
    relate = " ".join(["relate import STORE", *nodes, *rels, "--id-type=integer", *flags,
                       "--schema=schema.cypher"])
    return ("# Run inside this folder.  Neo4j (--schema is an Enterprise option; without it, run\n"
            "# schema.cypher with cypher-shell after the import):\n"
            f"{admin}\n# relate:\n{relate}\n")
