"""Markdown text -> an HTML fragment, for the small subset the site's pages use.

Block level: ATX headings (`#` to `######`), paragraphs, `- ` lists, `1. ` lists, pipe tables
(a `| a | b |` header, a `|---|---|` rule, then rows), and fenced blocks.  Inline:
`code`, **strong**, *emphasis* and [links](url).  A fenced block whose info string names an
executable block (`cypher run`, `mcp`, `terminal`, ...) is handed to a callback that returns its
HTML; every other fence becomes <pre><code>.  That is all the pages need, and keeping it this
small avoids a Markdown dependency in the build.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Callable

BlockRenderer = Callable[["Fence"], "str | None"]


@dataclass(frozen=True)
class Fence:
    """One fenced block: its info string split into a kind and `key=value` / bare-word flags."""

    lang: str
    flags: tuple[str, ...]
    options: dict
    body: str
    line: int  # 1-based line of the opening fence, for error messages

    @classmethod
    def parse(cls, info: str, body: str, line: int) -> "Fence":
        words = info.split()
        lang = words[0] if words else ""
        flags = tuple(w for w in words[1:] if "=" not in w)
        options = dict(w.split("=", 1) for w in words[1:] if "=" in w)
        return cls(lang, flags, options, body, line)


@dataclass(frozen=True)
class Page:
    title: str
    html: str


_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^(`{3,})(.*)$")
_LIST_ITEM = re.compile(r"^[-*]\s+(.*)$")
_ORDERED_ITEM = re.compile(r"^\d+\.\s+(.*)$")
_TABLE_RULE = re.compile(r"^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_STRONG = re.compile(r"\*\*(.+?)\*\*")
_EMPHASIS = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")


def slug(text: str) -> str:
    """The anchor id of a heading: lower case, words joined by '-'."""
    words = re.findall(r"[a-z0-9]+", re.sub(r"<[^>]+>", "", text).lower())
    return "-".join(words) or "section"


def inline(text: str) -> str:
    """Inline Markdown -> HTML.  Code spans are cut out first, so nothing inside them is styled."""
    out = []
    pos = 0
    for m in _CODE_SPAN.finditer(text):
        out.append(_styled(text[pos:m.start()]))
        out.append("<code>" + html.escape(m.group(2).strip(" ") or m.group(2)) + "</code>")
        pos = m.end()
    out.append(_styled(text[pos:]))
    return "".join(out)


def _styled(text: str) -> str:
    text = html.escape(text, quote=False)
    # The text is escaped already; only a quote could still break out of the attribute.
    text = _LINK.sub(lambda m: f'<a href="{m.group(2).replace(chr(34), "%22")}">{m.group(1)}</a>', text)
    text = _STRONG.sub(r"<strong>\1</strong>", text)
    return _EMPHASIS.sub(r"<em>\1</em>", text)


def _cells(line: str) -> list[str]:
    """`| a | b \\| c |` -> ["a", "b | c"] (a backslash keeps a pipe inside a cell)."""
    line = line.strip()
    line = line[1:] if line.startswith("|") else line
    line = line[:-1] if line.endswith("|") and not line.endswith("\\|") else line
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line)]


def table(header: list[str], rows: list[list[str]]) -> str:
    head = "".join(f'<th scope="col">{inline(c)}</th>' for c in header)
    body = "".join("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in row) + "</tr>" for row in rows)
    return (f'<div class="table-scroll"><table class="doc-table"><thead><tr>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table></div>")


def fences(text: str) -> list[Fence]:
    """Every fenced block of a page, in order (what render() hands to its callback)."""
    found: list[Fence] = []
    render(text, lambda fence: found.append(fence))
    return found


def code_block(body: str, lang: str = "") -> str:
    cls = f' class="language-{html.escape(lang)}"' if lang else ""
    return f"<pre><code{cls}>{html.escape(body)}</code></pre>"


def render(text: str, block: BlockRenderer | None = None) -> Page:
    """Convert a whole page.  The title is the text of the first level-1 heading."""
    lines = text.replace("\r\n", "\n").split("\n")
    parts: list[str] = []
    title = ""
    paragraph: list[str] = []
    items: list[str] = []
    ordered = [False]
    seen_ids: dict[str, int] = {}

    def flush() -> None:
        if paragraph:
            parts.append("<p>" + inline(" ".join(paragraph)) + "</p>")
            paragraph.clear()
        if items:
            tag = "ol" if ordered[0] else "ul"
            parts.append(f"<{tag}>" + "".join(f"<li>{inline(i)}</li>" for i in items) + f"</{tag}>")
            items.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        fence = _FENCE.match(line)
        if fence:
            flush()
            ticks, info, start = fence.group(1), fence.group(2).strip(), i + 1
            body: list[str] = []
            i += 1
            while i < len(lines) and not lines[i].startswith(ticks):
                body.append(lines[i])
                i += 1
            if i == len(lines):
                raise ValueError(f"line {start}: fenced block is never closed")
            f = Fence.parse(info, "\n".join(body), start)
            rendered = block(f) if block else None
            parts.append(rendered if rendered is not None else code_block(f.body, f.lang))
        elif heading := _HEADING.match(line):
            flush()
            level, content = len(heading.group(1)), inline(heading.group(2))
            if level == 1 and not title:
                title = re.sub(r"<[^>]+>", "", content)
            anchor = slug(content)
            seen_ids[anchor] = seen_ids.get(anchor, 0) + 1
            if seen_ids[anchor] > 1:
                anchor += f"-{seen_ids[anchor]}"
            parts.append(f'<h{level} id="{anchor}">{content}</h{level}>')
        elif line.startswith("|") and i + 1 < len(lines) and _TABLE_RULE.match(lines[i + 1]):
            flush()
            header = _cells(line)
            rows = []
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(_cells(lines[i]))
                i += 1
            parts.append(table(header, rows))
            continue
        elif (item := _LIST_ITEM.match(line)) or (item := _ORDERED_ITEM.match(line)):
            is_ordered = item.re is _ORDERED_ITEM
            if paragraph or (items and ordered[0] != is_ordered):
                flush()
            ordered[0] = is_ordered
            items.append(item.group(1))
        elif not line.strip():
            flush()
        elif items and line.startswith("  "):
            items[-1] += " " + line.strip()  # a wrapped list item
        else:
            if items:
                flush()
            paragraph.append(line.strip())
        i += 1
    flush()
    return Page(title, "\n".join(parts))
