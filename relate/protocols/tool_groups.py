"""`--tools LIST` -> the tool groups a server offers (`ToolOptions`), shared by every front door
(stdio, HTTP, the browser build).

The 1.4 tool line names eight groups.  This build serves `cypher` (the three tools of the
reference pages, byte for byte, and the default), `graph` and `search`; the other groups are known by
name so that the flag can refuse them clearly until their tools land.  `all` means every group
this build serves.  Tools are listed group by group, in the order of `GROUPS`.
"""
from __future__ import annotations

from dataclasses import dataclass

# every group of the 1.4 tool line and its tools, in the order hosts see them
GROUPS: dict[str, tuple[str, ...]] = {
    "cypher": ("write_cypher", "read_cypher", "get_schema"),
    "graph": ("cypher_query", "get_node_by_str", "get_relationship_by_str", "get_graph_summary", "list_indexes",
              "list_graphs", "whoami"),
    "search": ("fulltext_search", "vector_search"),
    "memory": ("remember", "recall", "recall_as_of", "record_episode", "get_session_events"),
    "documents": ("save_document", "get_document", "document_history", "list_documents", "find_documents",
                  "set_extraction_categories", "get_extraction_categories"),
    "provenance": ("property_provenance", "get_lineage", "trace_belief"),
    "governance": ("list_denied_access", "export_subject", "forget", "destroy_subject_key"),
}
SERVED_GROUPS: tuple[str, ...] = ("cypher", "graph", "search")  # what this build has tools for; `all` means these
DEFAULT_GROUPS: tuple[str, ...] = ("cypher",)
TOOLS_HELP = ("the tool groups to offer, comma-separated, or 'all' (this build: " + ", ".join(SERVED_GROUPS)
              + "; default cypher)")


class ToolsSpecError(ValueError):
    """A `--tools` value this build cannot serve; the text is the whole error line."""


@dataclass(frozen=True)
class ToolOptions:
    """The tool groups one server offers, in `GROUPS` order (no repeats)."""

    groups: tuple[str, ...] = DEFAULT_GROUPS

    def offers(self, group: str) -> bool:
        return group in self.groups


DEFAULT_TOOLS = ToolOptions()
ALL_TOOLS = ToolOptions(SERVED_GROUPS)


def parse_tools(text: str) -> ToolOptions:
    """`cypher,graph` / `all` / `graph` -> ToolOptions; an unknown group, a group this build does
    not serve yet, or an empty list raises `ToolsSpecError`."""
    names = [part.strip() for part in text.split(",")]
    if not any(names) or "" in names:
        raise ToolsSpecError(f"Error: --tools takes group names separated by commas, or 'all'; got {text!r}")
    chosen: set[str] = set()
    for name in names:
        if name == "all":
            chosen.update(SERVED_GROUPS)
        elif name not in GROUPS:
            raise ToolsSpecError(f"Error: --tools: unknown group {name!r}; the groups are "
                                 + ", ".join(GROUPS) + ", or all")
        elif name not in SERVED_GROUPS:
            raise ToolsSpecError(f"Error: --tools: the group {name!r} is not available in this build yet (its "
                                 "tools have not landed); this build serves " + ", ".join(SERVED_GROUPS))
        else:
            chosen.add(name)
    return ToolOptions(tuple(g for g in GROUPS if g in chosen))
