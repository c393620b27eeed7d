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
relationship's, so `id(n)` is what it was.  Nodes and relationships without one get the next ids
after the largest id the files give.
"""
from __future__ import annotations

import os
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
    node_ids: dict = field(default_factory=dict)  # (group, id text) -> index in nodes
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


def _rows(source: Source, opts: Options):
    """(file, header line, header fields), then (file, line, fields) for every data record."""
    first = True
    for path in source.files:
        try:
            f = open(path, encoding="utf-8", newline="")
        except OSError as e:
            raise E.Transfer.BadHeader(f"{path}: cannot read the file: {e.strerror or e}") from None
        with f:
            try:
                for line, fields in records(f, opts.delimiter, opts.quote):
                    if first:
                        first = False
                        yield path, line, fields, True
                    else:
                        yield path, line, fields, False
            except CsvSyntax as e:
                raise _bad_row(path, e.line, e.reason) from None
            except UnicodeDecodeError as e:
                raise _bad_row(path, 0, f"the file is not UTF-8 ({e.reason} at byte {e.start})") from None


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
    cols: list[H.Column] = []
    header: list[str] = []
    plan: list = []
    id_at = label_at = -1
    id_col: H.Column | None = None
    id_reader = None
    own_ids = False
    nodes, node_ids = out.nodes, out.node_ids
    base_labels = source.labels
    ad = opts.array_delimiter
    for path, line, fields, is_header in _rows(source, opts):
        if is_header:
            header, cols = fields, _columns(path, line, fields, True)
            plan = _plan(cols, opts, path, line)
            roles = [c.role for c in cols]
            id_at = roles.index(H.ID) if H.ID in roles else -1
            label_at = roles.index(H.LABEL) if H.LABEL in roles else -1
            id_col = cols[id_at] if id_at >= 0 else None
            own_ids = id_col is not None and id_col.name == H.RELATE_ID
            if id_col is not None and id_col.name and not own_ids:
                id_reader = reader(H.id_property_type(id_col, opts.id_type), ad)
            continue
        if len(fields) > len(cols):
            raise _bad_row(path, line, f"{len(fields)} fields, but the header names {len(cols)} columns")
        props = _props(fields, plan, path, line, header) if plan else {}
        labels = base_labels
        if label_at >= 0 and label_at < len(fields) and fields[label_at]:
            labels = base_labels + tuple(lb for lb in fields[label_at].split(ad) if lb)
        nid = None
        if id_at >= 0 and id_at < len(fields) and fields[id_at]:
            text = fields[id_at]
            key = (id_col.group, text if opts.id_type == "string" else _id_int(text, path, line))  # type: ignore[union-attr]
            if key in node_ids:
                if opts.skip_duplicate_nodes:
                    continue
                raise _bad_row(path, line, f"the node id `{text}` is given twice"
                                           + (f" in the id space `{id_col.group}`" if id_col.group else ""))  # type: ignore[union-attr]
            node_ids[key] = len(nodes)
            if own_ids:
                nid = _id_int(text, path, line)
                if nid < 0:
                    raise _bad_row(path, line, f"the node id `{text}` is negative")
            elif id_reader is not None:
                try:
                    value = id_reader(text)
                except ValueError as e:
                    raise _bad_row(path, line, f"the id {e}") from None
                props = {id_col.name: value, **props}  # type: ignore[union-attr]
        nodes.append([nid, labels, props])


def _id_int(text: str, path: str, line: int) -> int:
    try:
        return int(text)
    except ValueError:
        raise _bad_row(path, line, f"the id `{text}` is not an integer (--id-type integer)") from None


def read_rels(source: Source, opts: Options, out: Loaded) -> None:
    cols: list[H.Column] = []
    header: list[str] = []
    plan: list = []
    node_ids = out.node_ids
    rels = out.rels
    s_at = e_at = t_at = rid_at = -1
    s_group = e_group = ""
    as_int = opts.id_type != "string"
    for path, line, fields, is_header in _rows(source, opts):
        if is_header:
            header, cols = fields, _columns(path, line, fields, False)
            roles = [c.role for c in cols]
            s_at, e_at = roles.index(H.START_ID), roles.index(H.END_ID)
            t_at = roles.index(H.TYPE) if H.TYPE in roles else -1
            if t_at < 0 and source.type is None:
                raise _bad_header(path, line, "no :TYPE column and no type given (--relationships=TYPE=FILES)")
            s_group, e_group = cols[s_at].group, cols[e_at].group
            rid_at = next((i for i, c in enumerate(cols) if c.role == H.PROPERTY and c.name == H.RELATE_ID), -1)
            plan = [p for p in _plan(cols, opts, path, line) if p[0] != rid_at]
            continue
        if len(fields) > len(cols):
            raise _bad_row(path, line, f"{len(fields)} fields, but the header names {len(cols)} columns")
        ends = []
        for at, group in ((s_at, s_group), (e_at, e_group)):
            text = fields[at] if at < len(fields) else ""
            key = (group, _id_int(text, path, line) if as_int and text else text)
            index = node_ids.get(key)
            if index is None:
                if opts.skip_bad_relationships:
                    break
                which = "start" if at == s_at else "end"
                raise _bad_row(path, line, f"the {which} node `{text}` is in no node file"
                                           + (f" (id space `{group}`)" if group else ""))
            ends.append(index)
        if len(ends) < 2:
            continue
        type_ = fields[t_at] if 0 <= t_at < len(fields) and fields[t_at] else source.type
        if not type_:
            raise _bad_row(path, line, "the relationship has no type")
        rid = None
        if rid_at >= 0 and rid_at < len(fields) and fields[rid_at]:
            rid = _id_int(fields[rid_at], path, line)
            if rid < 0:
                raise _bad_row(path, line, f"the relationship id `{rid}` is negative")
            if rid in out.rel_ids:
                raise _bad_row(path, line, f"the relationship id `{rid}` is given twice")
            out.rel_ids.add(rid)
        props = _props(fields, plan, path, line, header) if plan else {}
        rels.append([rid, type_, ends[0], ends[1], props])


def _number(items: list) -> None:
    """Give every record its id: the files' own ids kept (unique: checked as they were read), the
    rest numbered after the largest."""
    top = max((rec[0] for rec in items if rec[0] is not None), default=-1)
    nxt = top + 1
    for rec in items:
        if rec[0] is None:
            rec[0] = nxt
            nxt += 1


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
    nodes = out.nodes
    node_rows = sorted(nodes, key=lambda r: r[0])
    rel_rows = sorted(([r[0], r[1], nodes[r[2]][0], nodes[r[3]][0], r[4]] for r in out.rels),
                      key=lambda r: r[0])
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
    from ..storage.copy import write_copy
    from ..storage.store import MEMORY, open_store
    if dst == MEMORY:
        raise E.Usage.Usage("Error: relate import: STORE cannot be :memory: (the graph would be gone when "
                            "the command ends); give a .rl path or a directory path")
    existing = os.path.exists(dst)
    if existing:
        _check_empty(dst)
    db = load(node_sources, rel_sources, opts)
    graph = db.graph
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
