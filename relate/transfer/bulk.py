"""CSV files in neo4j-admin's layout -> a new store holding their graph (`relate import`).

The bulk path: rows are read straight into node and relationship records (`Graph.load_bulk`),
never through Cypher; the schema file's statements (`CREATE INDEX`, `CREATE CONSTRAINT`) then run
on the loaded graph, so a constraint the data breaks fails the import.  Nothing is written until
everything has been read and checked: a new store appears whole (`storage.copy.write_copy`), an
existing empty one takes one snapshot; any failure leaves no store behind.

Ids: node files name their ids in an `:ID` column (in an id space, `:ID(group)`); relationship
files refer to them in `:START_ID` / `:END_ID`.  An `:ID` column with a name also keeps the id as
that property (as neo4j-admin does), except relate's own `_relate_id`, which `relate export`
writes: it becomes the node's id again, and a relationship file's `_relate_id` column the
relationship's, so `id(n)` is what it was.  With `--id-type actual` (neo4j-admin's name) every
`:ID` value is the node's id.  Nodes and relationships without one get the next ids
after the largest id the files give.
"""
from __future__ import annotations

import os
from itertools import chain
from dataclasses import dataclass, field

from ..errors import E, RelateError
from . import headers as H
from .cells import reader
from .csv_text import QUOTED_EMPTY, CsvSyntax, records


@dataclass(frozen=True, slots=True)
class Source:
    """One `--nodes` or `--relationships` argument: its files (the first one's first record is
    the header) and the labels or type the argument adds (`Label:Other=files`, `TYPE=files`)."""

    files: tuple[str, ...]
    labels: tuple[str, ...] = ()
    type: str | None = None


@dataclass(frozen=True, slots=True)
class Options:
    delimiter: str = ","
    array_delimiter: str = ";"
    quote: str = '"'
    id_type: str = "string"          # string | integer | actual (as neo4j-admin's --id-type)
    schema: str | None = None        # a .cypher file of schema statements
    skip_duplicate_nodes: bool = False
    skip_bad_relationships: bool = False


@dataclass(slots=True)
class Loaded:
    nodes: list = field(default_factory=list)   # [id or None, labels, props]
    rels: list = field(default_factory=list)    # [id or None, type, start, end, props]
    node_ids: dict = field(default_factory=dict)  # id space -> id (text, or int) -> the node's record
    rel_ids: set = field(default_factory=set)     # the relationship ids the files give


def parse_source(text: str, nodes: bool) -> Source:
    """`[Label[:Label]=]file[,file...]` (nodes) or `[TYPE=]file[,file...]` (relationships)."""
    prefix, sep, files = text.rpartition("=")
    if not sep:
        prefix, files = "", text
    paths = tuple(p for p in files.split(",") if p)
    if not paths:
        raise E.Usage.Usage(f"Error: relate import: `{text}` names no file")
    if nodes:
        return Source(paths, tuple(lb for lb in prefix.split(":") if lb))
    return Source(paths, type=prefix or None)


def _bad_header(where: str, line: int, reason: str) -> RelateError:
    return E.Transfer.BadHeader(f"{where}:{line}: {reason}")


def _bad_row(where: str, line: int, reason: str) -> RelateError:
    return E.Transfer.BadRow(f"{where}:{line}: {reason}")


def _files(source: Source, opts: Options):
    """(path, its records) for each file of a source, failures of reading named by file and line."""
    for path in source.files:
        try:
            f = open(path, encoding="utf-8", newline="")
        except OSError as e:
            raise E.Transfer.BadHeader(f"{path}: cannot read the file: {e.strerror or e}") from None
        with f:
            yield path, _checked(path, records(f, opts.delimiter, opts.quote))


def _checked(path: str, recs):
    try:
        yield from recs
    except CsvSyntax as e:
        raise _bad_row(path, e.line, e.reason) from None
    except UnicodeDecodeError as e:
        raise _bad_row(path, 0, f"the file is not UTF-8 ({e.reason} at byte {e.start})") from None


def _header(source: Source, opts: Options, nodes: bool):
    """The source's files, the first one's header record taken off: (columns, header, files)."""
    files = _files(source, opts)
    for path, recs in files:
        for line, fields in recs:
            return _columns(path, line, fields, nodes), fields, path, line, [(path, recs)], files
    return None


def _columns(path: str, line: int, fields: list[str], nodes: bool) -> list[H.Column]:
    try:
        cols = [H.parse_field(f) for f in fields]
        H.check(cols, nodes)
    except H.HeaderError as e:
        raise _bad_header(path, line, str(e)) from None
    return cols


def _plan(cols: list[H.Column], opts: Options, path: str, line: int):
    """Per column: (index, property key or None, value reader) for the properties."""
    out = []
    for i, c in enumerate(cols):
        if c.role == H.PROPERTY:
            fn = reader(c.type, opts.array_delimiter)
            if fn is None:
                raise _bad_header(path, line, f"unknown type `{c.type}`")
            out.append((i, c.name, fn, c.type == "string" or c.type == "char"))
    return out


def _props(fields: list[str], plan, path: str, line: int, header: list[str]) -> dict:
    props = {}
    for i, key, fn, stringy in plan:
        text = fields[i] if i < len(fields) else ""
        if not text:
            if text is QUOTED_EMPTY and stringy:
                props[key] = ""
            continue
        try:
            props[key] = fn(text)
        except ValueError as e:
            raise _bad_row(path, line, f"column {i + 1} ({header[i]}): {e}") from None
    return props


def read_nodes(source: Source, opts: Options, out: Loaded) -> None:
    found = _header(source, opts, True)
    if found is None:
        return
    cols, header, hpath, hline, first, rest = found
    plan = _plan(cols, opts, hpath, hline)
    roles = [c.role for c in cols]
    id_at = roles.index(H.ID) if H.ID in roles else -1
    label_at = roles.index(H.LABEL) if H.LABEL in roles else -1
    id_col = cols[id_at] if id_at >= 0 else None
    # the values are the nodes' ids: relate's own column, or any with --id-type actual
    own_ids = id_col is not None and (id_col.name == H.RELATE_ID or opts.id_type == "actual")
    id_reader = None
    if id_col is not None and id_col.name and id_col.name != H.RELATE_ID:
        id_reader = reader(H.id_property_type(id_col, opts.id_type), opts.array_delimiter)
    group = id_col.group if id_col is not None else ""
    ids = out.node_ids.setdefault(group, {})
    as_int = opts.id_type != "string"
    nodes = out.nodes
    base_labels = source.labels
    ad = opts.array_delimiter
    width = len(cols)
    for path, recs in chain(first, rest):
        for line, fields in recs:
            if len(fields) > width:
                raise _bad_row(path, line, f"{len(fields)} fields, but the header names {width} columns")
            if len(fields) < width:
                fields = fields + [""] * (width - len(fields))
            props = _props(fields, plan, path, line, header) if plan else {}
            labels = base_labels
            if label_at >= 0 and fields[label_at]:
                labels = base_labels + tuple(lb for lb in fields[label_at].split(ad) if lb)
            rec = [None, labels, props]
            if id_at >= 0 and fields[id_at]:
                text = fields[id_at]
                key = _id_int(text, path, line) if as_int else text
                if key in ids:
                    if opts.skip_duplicate_nodes:
                        continue
                    raise _bad_row(path, line, f"the node id `{text}` is given twice"
                                               + (f" in the id space `{group}`" if group else ""))
                ids[key] = rec
                if own_ids:
                    nid = key if as_int else _id_int(text, path, line)
                    if nid < 0:
                        raise _bad_row(path, line, f"the node id `{text}` is negative")
                    rec[0] = nid
                if id_reader is not None:
                    try:
                        value = id_reader(text)
                    except ValueError as e:
                        raise _bad_row(path, line, f"the id {e}") from None
                    rec[2] = {id_col.name: value, **props}  # type: ignore[union-attr]
            nodes.append(rec)


def _id_int(text: str, path: str, line: int) -> int:
    try:
        return int(text)
    except ValueError:
        raise _bad_row(path, line, f"the id `{text}` is not an integer (--id-type integer)") from None


def read_rels(source: Source, opts: Options, out: Loaded) -> None:
    found = _header(source, opts, False)
    if found is None:
        return
    cols, header, hpath, hline, first, rest = found
    roles = [c.role for c in cols]
    s_at, e_at = roles.index(H.START_ID), roles.index(H.END_ID)
    t_at = roles.index(H.TYPE) if H.TYPE in roles else -1
    if t_at < 0 and source.type is None:
        raise _bad_header(hpath, hline, "no :TYPE column and no type given (--relationships=TYPE=FILES)")
    s_group, e_group = cols[s_at].group, cols[e_at].group
    s_ids = out.node_ids.get(s_group, {})
    e_ids = out.node_ids.get(e_group, {})
    rid_at = next((i for i, c in enumerate(cols) if c.role == H.PROPERTY and c.name == H.RELATE_ID), -1)
    plan = [p for p in _plan(cols, opts, hpath, hline) if p[0] != rid_at]
    as_int = opts.id_type != "string"
    rels, rel_ids = out.rels, out.rel_ids
    default_type = source.type
    width = len(cols)
    for path, recs in chain(first, rest):
        for line, fields in recs:
            if len(fields) != width:
                if len(fields) > width:
                    raise _bad_row(path, line, f"{len(fields)} fields, but the header names {width} columns")
                fields = fields + [""] * (width - len(fields))
            try:
                start = s_ids[int(fields[s_at]) if as_int else fields[s_at]]
                end = e_ids[int(fields[e_at]) if as_int else fields[e_at]]
            except (KeyError, ValueError):
                if opts.skip_bad_relationships:
                    continue
                _explain_ends(fields, (s_at, s_group, s_ids), (e_at, e_group, e_ids), as_int, path, line)
            type_ = (fields[t_at] if t_at >= 0 else None) or default_type
            if not type_:
                raise _bad_row(path, line, "the relationship has no type")
            rid = None
            if rid_at >= 0 and fields[rid_at]:
                rid = _id_int(fields[rid_at], path, line)
                if rid < 0:
                    raise _bad_row(path, line, f"the relationship id `{rid}` is negative")
                if rid in rel_ids:
                    raise _bad_row(path, line, f"the relationship id `{rid}` is given twice")
                rel_ids.add(rid)
            rels.append([rid, type_, start, end, _props(fields, plan, path, line, header) if plan else {}])


def _explain_ends(fields, *ends_and_where) -> None:
    *ends, as_int, path, line = ends_and_where
    for which, (at, group, ids) in zip(("start", "end"), ends):
        text = fields[at]
        key = _id_int(text, path, line) if as_int and text else text
        if key not in ids:
            raise _bad_row(path, line, f"the {which} node `{text}` is in no node file"
                                       + (f" (id space `{group}`)" if group else ""))


def _number(items: list) -> None:
    """Give every record its id: the files' own ids kept (unique: checked as they were read), the
    rest numbered after the largest."""
    top = max((rec[0] for rec in items if rec[0] is not None), default=-1)
    nxt = top + 1
    for rec in items:
        if rec[0] is None:
            rec[0] = nxt
            nxt += 1


def _first(rec: list) -> int:
    return rec[0]


def load(node_sources: list[Source], rel_sources: list[Source], opts: Options):
    """Read every file and build the graph in a fresh in-memory database (returned), schema
    included; raises a typed error naming the file and line on the first bad record."""
    from ..database import Database
    from ..storage.graph import Notes
    out = Loaded()
    for s in node_sources:
        read_nodes(s, opts, out)
    for s in rel_sources:
        read_rels(s, opts, out)
    _number(out.nodes)
    _number(out.rels)
    node_rows = sorted(out.nodes, key=_first)
    rel_rows = sorted([[r[0], r[1], r[2][0], r[3][0], r[4]] for r in out.rels], key=_first)
    db = Database()
    graph = db.graph
    graph.load_bulk(node_rows, rel_rows)
    graph.history.commit(graph, Notes(db.now()))
    if opts.schema is not None:
        apply_schema(db, opts.schema)
    return db


def apply_schema(db, path: str) -> None:
    from .schema_file import statements
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise E.Transfer.BadHeader(f"{path}: cannot read the schema file: {e.strerror or e}") from None
    for line, stmt in statements(text):
        try:
            db.execute(stmt)
        except RelateError as e:
            e.add_note(f"in {path}:{line}")
            raise


def import_store(dst: str, node_sources: list[Source], rel_sources: list[Source], opts: Options) -> object:
    """Build the store `dst` from the files; returns the graph it holds."""
    from ..gc_pause import paused
    from ..storage.store import MEMORY
    if dst == MEMORY:
        raise E.Usage.Usage("Error: relate import: STORE cannot be :memory: (the graph would be gone when "
                            "the command ends); give a .rl path or a directory path")
    existing = os.path.exists(dst)
    if existing:
        _check_empty(dst)
    with paused():  # the rows become long-lived records: the cycle collector would only rescan them
        db = load(node_sources, rel_sources, opts)
        return _write(db.graph, dst, existing)


def _write(graph, dst: str, existing: bool):
    from ..storage.copy import write_copy
    from ..storage.store import open_store
    if not existing or (os.path.isdir(dst) and not os.listdir(dst)):
        if existing:
            os.rmdir(dst)  # an empty folder: the store takes its place
        write_copy(graph, dst)
        return graph
    store = open_store(dst)
    try:
        if store.graph.nodes or store.graph.rels or store.graph.indexes or store.graph.constraints:
            raise E.Transfer.TargetNotEmpty(where=dst)  # it filled while the files were read
        store.graph.replace_with(graph)
        store.checkpoint()
        return store.graph
    finally:
        store.close()


def _check_empty(dst: str) -> None:
    if os.path.isdir(dst) and not os.listdir(dst):
        return
    from ..storage.store import open_store
    store = open_store(dst, read_only=True)
    try:
        g = store.graph
        if g.nodes or g.rels or g.indexes or g.constraints:
            raise E.Transfer.TargetNotEmpty(where=dst)
    finally:
        store.close()
