"""Statement text -> the same text with three context-dependent tokens marked.

Cypher needs more than one token of look-ahead in three places, which an LALR(1) grammar cannot
give: whether `(` opens a node pattern or a parenthesised expression (`(a)-->(b)` versus
`(a) - 1`), whether `.` joins a namespaced function name (`db.labels()`) or looks up a property,
and whether `=` after `[p` names a path in a pattern comprehension (and, in Neo4j 5 patterns,
whether a `(` that is no node opens a parenthesised path pattern: `((a)-->(b)){2}`, `(p = ...)`).
This pass scans the text once, with a small tokenizer that knows strings, comments and escaped
names, and swaps each such character for a private-use character the grammar has a terminal for.  One character replaces
one character, so every position the parser reports still points into the user's text.
"""
from __future__ import annotations

import re

NODE_OPEN = "\ue000"  # `(` that opens a node pattern
NS_DOT = "\ue001"  # `.` inside a namespaced function name
PATH_EQ = "\ue002"  # `=` naming a path inside a pattern comprehension
SUBQ_OPEN = "\ue003"  # `{` opening a `COLLECT { ... }` subquery (not a map projection of `collect`)
PATH_OPEN = "\ue004"  # `(` that opens a parenthesised path pattern (`((a)-->(b)){2}`, `(p = ...)`)

MARKS = {NODE_OPEN: "(", NS_DOT: ".", PATH_EQ: "=", SUBQ_OPEN: "{", PATH_OPEN: "("}

_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<comment>//[^\n]*|/\*.*?(?:\*/|\Z))
  | (?P<string>'(?:[^'\\]|\\.)*(?:'|\Z)|"(?:[^"\\]|\\.)*(?:"|\Z))
  | (?P<escaped>`(?:[^`]|``)*(?:`|\Z))
  | (?P<name>[^\W\d]\w*)
  | (?P<number>\d[\w.]*)
  | (?P<param>\$\w*)
  | (?P<punct>.)
""", re.VERBOSE | re.DOTALL)

# Keywords that open a pattern clause, and those that end one.
_PATH_FUNCTIONS = {"SHORTESTPATH", "ALLSHORTESTPATHS"}
_SUBQUERY_OPEN = {"EXISTS", "COUNT", "COLLECT"}
_PATTERN_START = {"MATCH", "CREATE", "MERGE", "FOR", "INSERT"}
_PATTERN_END = {"WHERE", "RETURN", "WITH", "SET", "REMOVE", "DELETE", "DETACH", "ON", "UNWIND",
                "OPTIONAL", "CALL", "UNION", "ORDER", "SKIP", "LIMIT", "FOREACH", "YIELD",
                "MATCH", "CREATE", "MERGE", "INSERT", "INDEX", "CONSTRAINT", "EXPLAIN", "PROFILE"}
# Words a subquery starts with: `collect {` followed by one opens a COLLECT subquery.
_QUERY_START = {"MATCH", "OPTIONAL", "UNWIND", "WITH", "CALL", "RETURN", "CREATE", "MERGE", "SET",
                "DELETE", "DETACH", "REMOVE", "FOREACH", "USE", "FINISH", "LOAD"}
_PATH_FUNCS = {"SHORTESTPATH", "ALLSHORTESTPATHS"}


class _Tok:
    __slots__ = ("kind", "text", "pos", "up", "close")

    def __init__(self, kind: str, text: str, pos: int) -> None:
        self.kind = kind
        self.text = text
        self.pos = pos
        self.up = text.upper() if kind == "name" else text
        self.close = -1  # for an opening bracket: the index of the token closing it, or -1


_PAIRS = {"(": ")", "[": "]", "{": "}"}


def _tokens(text: str) -> list[_Tok]:
    out = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        if kind is None or kind in ("ws", "comment"):  # never None: every alternative is named
            continue
        out.append(_Tok(kind, m.group(), m.start()))
    _pair_brackets(out)
    return out


def _pair_brackets(toks: list[_Tok]) -> None:
    """Set `close` on every opening bracket, in one pass (a scan per bracket made deep nesting
    quadratic).  A closing bracket that does not match the innermost open one leaves every
    bracket still open without a partner, as a scan from each of them would have found."""
    stack: list[int] = []
    for j, t in enumerate(toks):
        if t.kind != "punct":
            continue
        if t.text in _PAIRS:
            stack.append(j)
        elif t.text in (")", "]", "}"):
            if stack and _PAIRS[toks[stack[-1]].text] == t.text:
                toks[stack.pop()].close = j
            else:
                stack.clear()


def _match_close(toks: list[_Tok], i: int) -> int:
    """Index of the bracket closing toks[i] (any of ([{), or -1."""
    return toks[i].close


def _node_shaped(toks: list[_Tok], i: int, close: int) -> bool:
    """True when toks[i:close+1] reads `( [name] [:Label ...] [{...} | $p] )`."""
    j = i + 1
    if j < close and toks[j].kind in ("name", "escaped") and toks[j].up != "WHERE":
        j += 1
    if j < close and (toks[j].text == ":" or toks[j].up == "IS"):
        j = _label_expression_end(toks, j, close)
        if j < 0:
            return False
    if j < close and toks[j].text == "{":
        end = _match_close(toks, j)
        if end < 0 or end > close:
            return False
        j = end + 1
    elif j < close and toks[j].kind == "param":
        j += 1
    if j < close and toks[j].up == "WHERE":  # an inline predicate runs to the group's end
        return True
    return j == close


_LABEL_PUNCT = frozenset(":|&!%")


def _label_expression_end(toks: list[_Tok], j: int, close: int) -> int:
    """From a `:` or `IS` at toks[j], the index after the node's label expression (`:A:B`,
    `:A|B&!C`, `:%`, `:(A|B)`, `:$(expr)`, `IS A`), or -1 when it is not one."""
    j += 1
    seen = False
    expect = True  # a name here is a label even when it reads WHERE (`(n:Where)`)
    while j < close:
        t = toks[j]
        if t.kind in ("name", "escaped") and (expect or t.up != "WHERE"):
            j, seen, expect = j + 1, True, False
        elif t.kind == "punct" and t.text in _LABEL_PUNCT:
            j += 1
            seen = seen or t.text == "%"
            expect = t.text != "%"
        elif t.text == "(" and t.kind == "punct":
            end = _match_close(toks, j)
            if end < 0 or end > close:
                return -1
            j, seen, expect = end + 1, True, False
        elif t.kind == "param" and j + 1 < close and toks[j + 1].text == "(":
            end = _match_close(toks, j + 1)
            if end < 0 or end > close:
                return -1
            j, seen, expect = end + 1, True, False
        else:
            break
    return j if seen else -1


def _relationship_after(toks: list[_Tok], j: int) -> int:
    """If a relationship arrow starts at toks[j] and a `(` follows it, the index of that `(`."""
    n = len(toks)
    if j < n and toks[j].text == "<":
        j += 1
    if j >= n or toks[j].text != "-":
        return -1
    j += 1
    if j < n and toks[j].text == "[":
        end = _match_close(toks, j)
        if end < 0:
            return -1
        j = end + 1
        if j >= n or toks[j].text != "-":
            return -1
        j += 1
    elif j < n and toks[j].text == "-":
        j += 1
    else:
        return -1
    if j < n and toks[j].text == ">":
        j += 1
    if j < n and toks[j].text in ("+", "*"):  # a quantified relationship: `-[:R]->+(b)`
        j += 1
    elif j < n and toks[j].text == "{" and toks[j].close > j:  # ... `-[:R]->{1,3}(b)`
        j = toks[j].close + 1
    if j < n and toks[j].text == "(":
        return j
    return -1


def prescan(text: str) -> str:
    """Mark node-pattern parentheses, namespaced-function dots and path `=` in `text`."""
    toks = _tokens(text)
    chars = list(text)
    node_opens: set[int] = set()
    path_opens: set[int] = set()
    n = len(toks)
    # 1. Pattern clauses: every node-shaped group at the clause's own level is a node.
    in_pattern = False
    brace_depth = 0
    pattern_depth = 0
    inside = -1  # the closing bracket of the node or relationship group being read
    # a WHERE inside a parenthesised path pattern does not end the pattern: it pauses the marking
    # until its parenthesis closes
    paren_depth = pattern_parens = 0
    paused = 0  # the depth of the WHERE that paused the marking; 0: not paused
    for i, t in enumerate(toks):
        if t.kind == "punct" and t.text in "()":
            paren_depth += 1 if t.text == "(" else -1
            if paused and paren_depth < paused:
                paused = 0
        if i <= inside:
            continue  # inside a node pattern's label expression or inline WHERE
        if (t.kind == "name" and t.up == "WHERE" and in_pattern and brace_depth == pattern_depth
                and paren_depth > pattern_parens):
            paused = paused or paren_depth
        elif t.kind == "name" and t.up in _PATTERN_END and brace_depth == pattern_depth:
            in_pattern = False
        if t.kind == "name" and t.up in _PATTERN_START:
            # `ON CREATE SET` and `ON MATCH SET` are actions, not pattern clauses
            if not (i > 0 and toks[i - 1].up == "ON"):
                in_pattern, pattern_depth, pattern_parens = True, brace_depth, paren_depth
        if t.kind == "punct":
            if t.text == "{":
                brace_depth += 1
                if i and toks[i - 1].up in _SUBQUERY_OPEN and i + 1 < n and toks[i + 1].text == "(":
                    # `EXISTS { (a) ((x)-->(y))+ (b) }`: a pattern stands alone in the braces
                    in_pattern, pattern_depth, pattern_parens = True, brace_depth, paren_depth
            elif t.text == "}":
                brace_depth = max(0, brace_depth - 1)
                if brace_depth < pattern_depth:
                    in_pattern = False
        if in_pattern and not paused and brace_depth == pattern_depth and t.text == "(":
            close = _match_close(toks, i)
            if close > 0 and _node_shaped(toks, i, close):
                node_opens.add(i)
                inside = close
            elif close > 0 and i + 1 < n and not (i and toks[i - 1].up in _PATH_FUNCTIONS) and (
                    toks[i + 1].text == "(" or (
                    toks[i + 1].kind in ("name", "escaped") and i + 2 < n and toks[i + 2].text == "=")):
                path_opens.add(i)
        if in_pattern and not paused and brace_depth == pattern_depth and t.text == "[" and t.close > 0:
            inside = t.close  # a relationship's detail (its inline WHERE ends no clause)
    # 2. Pattern expressions anywhere: node-shaped groups chained by relationship arrows.
    for i, t in enumerate(toks):
        if t.text != "(" or t.kind != "punct":
            continue
        close = _match_close(toks, i)
        if close < 0 or not _node_shaped(toks, i, close):
            continue
        nxt = _relationship_after(toks, close + 1)
        if nxt < 0:
            continue
        chain = [i]
        while nxt >= 0:
            c2 = _match_close(toks, nxt)
            if c2 < 0 or not _node_shaped(toks, nxt, c2):
                chain = []
                break
            chain.append(nxt)
            nxt = _relationship_after(toks, c2 + 1)
        node_opens.update(chain)
    # 3. Namespaced function names and comprehension path variables.
    for i, t in enumerate(toks):
        if t.kind == "name" and i + 2 < n and toks[i + 1].text == "." and toks[i + 2].kind == "name":
            j = i
            dots = []
            while j + 2 < n and toks[j + 1].text == "." and toks[j + 2].kind == "name":
                dots.append(j + 1)
                j += 2
            prev = toks[i - 1].text if i else ""
            if j + 1 < n and toks[j + 1].text == "(" and prev != ".":
                for d in dots:
                    chars[toks[d].pos] = NS_DOT
        if (t.kind == "name" and t.up == "COLLECT" and i + 2 < n and toks[i + 1].text == "{"
                and toks[i + 2].up in _QUERY_START and (i == 0 or toks[i - 1].text not in (".", ":"))):
            chars[toks[i + 1].pos] = SUBQ_OPEN
        if (t.text == "[" and i + 3 < n and toks[i + 1].kind == "name" and toks[i + 2].text == "="
                and i + 3 in node_opens):
            chars[toks[i + 2].pos] = PATH_EQ
    for i in node_opens:
        chars[toks[i].pos] = NODE_OPEN
    for i in path_opens - node_opens:
        chars[toks[i].pos] = PATH_OPEN
    return "".join(chars)


def unmark(text: str) -> str:
    """Undo `prescan` (for error messages that quote the text)."""
    for mark, original in MARKS.items():
        text = text.replace(mark, original)
    return text
