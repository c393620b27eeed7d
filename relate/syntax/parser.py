"""Statement text -> `ast.Statement`.

`prescan` marks the few context-dependent characters, lark's LALR parser (contextual lexer,
positions on) builds a parse tree, and `transform.Build` turns that tree into the typed AST in one
bottom-up pass.  lark errors become `CypherSyntaxError` at the offending token, saying what could
stand there (`expected.py`), or `UnsupportedClause` for the Neo4j commands relate does not serve
(`unsupported.py`).  The lark parser is built once per process from `cypher.lark`, or loaded from an image of it
(`tables.py`) when one matches the grammar and the lark version.
"""
from __future__ import annotations

import dataclasses
import functools
from pathlib import Path

from lark import Lark, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from ..errors import RelateError
from . import ast as A
from .position import position, syntax_error
from . import tables, temporal_prefix
from .prescan import NODE_OPEN, prescan, unmark
from .transform import Build, check_int_range

__all__ = ["parse", "position", "warm_parser", "load_prebuilt", "write_prebuilt", "PREBUILT"]

_OPTIONS = dict(parser="lalr", lexer="contextual", propagate_positions=True, maybe_placeholders=False)
# the parser's image, written at build time (`write_prebuilt`; the site build ships it in the
# wheel): the browser has no cache between page loads, and building the parser there takes
# about 0.6 s (`tables.py`)
PREBUILT = Path(__file__).with_name("cypher.lark.bin")


@functools.lru_cache(maxsize=1)
def _lark() -> Lark:
    grammar = (Path(__file__).with_name("cypher.lark")).read_text(encoding="utf-8")
    return tables.load(PREBUILT, grammar, _OPTIONS) or tables.cached(grammar, _OPTIONS)


def load_prebuilt(path: Path, grammar: str) -> Lark | None:
    """The parser from `path` when it was written for this grammar and lark version, else None."""
    return tables.load(path, grammar, _OPTIONS)


def write_prebuilt(path: Path = PREBUILT) -> Path:
    """Write the parser's image next to the grammar (run natively by the site build)."""
    grammar = (Path(__file__).with_name("cypher.lark")).read_text(encoding="utf-8")
    with path.open("wb") as f:
        tables.save(tables.build(grammar, _OPTIONS), f, grammar, _OPTIONS)
    return path


def warm_parser() -> None:
    """Build (or load from lark's cache) the parser now, outside any statement's timings."""
    _lark()


# Deepest syntax tree (lark's, before the transform) a statement may have.  A nesting level of a
# list, a unary operator, a function call or an operand costs one tree level (CASE and list
# comprehensions two, a map three; plain parentheses none), so this admits about 190 levels of
# lists and 60 of maps: far beyond what people and models write, and low enough that the
# transform, the checks, the compiler and the JSON writer, which recurse per level, stay inside
# Python's stack, in Pyodide's Web Worker too (tests/e2e/test_deep_nesting_browser.py).
MAX_TREE_DEPTH = 200

_PAGING = frozenset({"ORDER", "SKIP", "OFFSET", "LIMIT"})
_UNICODE_DASHES = frozenset("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d")


def parse(text: str) -> A.Statement:
    """Parse one statement (an optional trailing `;` allowed), with its AT VALID / AS OF prefix."""
    prefix, text = temporal_prefix.split(text)
    stmt = _parse(text)
    if prefix is not None:
        stmt = dataclasses.replace(stmt, temporal=prefix)
    return stmt


def _parse(text: str) -> A.Statement:
    marked = prescan(text)
    try:
        tree = _lark().parse(marked)
    except UnexpectedInput as e:
        raise _refusal(text, marked, e) from None
    _check_depth(tree, text)
    try:
        stmt = Build(text).transform(tree)
    except VisitError as e:
        if isinstance(e.orig_exc, RelateError):
            raise e.orig_exc from None
        raise
    check_int_range(stmt, text)
    return stmt


# how many unclosed node patterns `_reread` marks before it gives up (each costs one more parse)
_REREADS = 8


def _refusal(text: str, marked: str, e: UnexpectedInput) -> RelateError:
    """The error for text lark refused: a construct relate does not serve (`unsupported.py`), or a
    syntax error at the token where reading stopped, with what could have stood there."""
    if isinstance(e, UnexpectedToken):
        e = _reread(marked, e)
    at = _offset(text, e)
    # the diagnosis of refused text loads only once some text is refused
    from . import malformed, unsupported
    from .expected import expected_text
    refused = unsupported.refused(text, at)
    if refused is not None:
        return refused
    specific = malformed.diagnose(text, at)
    if specific is not None:
        return specific
    if isinstance(e, UnexpectedCharacters):
        ch = unmark(text[at]) if at < len(text) else ""
        # a typographic dash where `-` was meant (text pasted from a document) gets its own kind
        kind = "InvalidUnicodeCharacter" if ch in _UNICODE_DASHES else "ParseError"
        return syntax_error(text, f'unexpected character "{ch}"', at, kind)
    tok = e.token if isinstance(e, UnexpectedToken) else None
    if tok is not None and tok.type in _PAGING:
        # ORDER BY / SKIP / LIMIT out of their order, or after a query's RETURN: a clause
        # in the wrong place, not text the grammar cannot read
        return syntax_error(text, f"{str(tok).upper()} cannot stand here: ORDER BY, SKIP (OFFSET) and "
                            "LIMIT come in that order, after WITH, RETURN or another clause, and nothing "
                            "follows a query's RETURN", tok.start_pos, "InvalidClauseComposition")
    if isinstance(e, (UnexpectedToken, UnexpectedEOF)):
        word = None if tok is None or tok.type == "$END" else unmark(str(tok))
        what = "unexpected end of input" if word is None else f'unexpected token "{word}"'
        expected = expected_text(_accepts(e), _terminal_texts(), word)
        return syntax_error(text, f"{what}: {expected}" if expected else what, at)
    return syntax_error(text, "invalid input", at)  # pragma: no cover - other lark input errors


def _offset(text: str, e: UnexpectedInput) -> int:
    if isinstance(e, UnexpectedToken) and e.token.type != "$END":
        return e.token.start_pos
    if isinstance(e, UnexpectedCharacters):
        return e.pos_in_stream or 0
    return len(text)


def _reread(marked: str, e: UnexpectedToken) -> UnexpectedInput:
    """Where a node pattern was wanted but the prescan left a `(` unmarked (it marks only a group
    it can read to its `)`: `MATCH (p:Person RETURN p`), read on as if it were marked, so the error
    points where the pattern breaks rather than at its `(`."""
    found: UnexpectedInput = e
    for _ in range(_REREADS):
        if not isinstance(found, UnexpectedToken) or found.token.type != "LPAR" or "NODE_OPEN" not in found.expected:
            break
        at = found.token.start_pos
        marked = marked[:at] + NODE_OPEN + marked[at + 1:]
        try:
            _lark().parse(marked)
        except UnexpectedInput as again:
            if _offset(marked, again) <= at:
                break
            found = again
        else:
            return e  # the statement reads with the mark: keep the first error (a prescan miss)
    return found


def _accepts(e: UnexpectedInput) -> set[str]:
    """The terminals the parser could have taken (lark's `accepts` replays each one; its
    `expected` is the LALR state's lookahead set, which merges many contexts)."""
    if isinstance(e, UnexpectedToken):
        return set(e.accepts or e.expected)
    return set(getattr(e, "expected", None) or ())


@functools.lru_cache(maxsize=1)
def _terminal_texts() -> dict[str, str]:
    # the prescan's private marks read as the characters they stand for
    return {t.name: unmark(t.pattern.value) for t in _lark().terminals if t.pattern.type == "str"}


def _check_depth(tree: Tree, text: str) -> None:
    """`NestingTooDeep` at the first node past `MAX_TREE_DEPTH` (an iterative walk: the check
    itself must not be what overflows)."""
    stack: list[tuple[object, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if not isinstance(node, Tree):
            continue
        if depth > MAX_TREE_DEPTH:
            at = 0 if node.meta.empty else node.meta.start_pos
            _dismantle(tree)
            raise syntax_error(text, f"the statement nests more than {MAX_TREE_DEPTH} syntax levels deep; "
                               "flatten it (or pass deep values as parameters)", at, "NestingTooDeep")
        stack.extend((child, depth + 1) for child in node.children)


def _dismantle(tree: Tree) -> None:
    """Take a refused tree apart from the top, so that no node is freed while it still holds a
    deep subtree: freeing 20,000 nested levels at once recurses in C, which overflows
    Pyodide's stack (a fatal error that kills the page's engine) though not CPython's."""
    stack: list[object] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, Tree):
            stack.extend(node.children)
            node.children = []
