"""TCK expected-value text -> Python values, and any value -> a canonical, type-tagged tuple.

The grammar is the one of the TCK's reference runner (tck-api `CypherValueParser`): node,
relationship, path, list, map, string, float, integer, boolean, null and NaN, tried in that order,
with whitespace allowed between tokens.  Nodes, relationships and paths in expected tables have no
identity, so they parse to the small `Exp*` classes; everything else parses to the plain Python
value the engine would return (and so can also serve as a parameter value).

`canon` turns both engine values and expected values into tuples that compare the way the TCK
compares values: an integer never equals a float or a boolean, NaN equals NaN, nodes compare by
label set and properties, relationships by type and properties, paths by their walk.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field

from relate.values import Node, Path, Relationship


@dataclass(frozen=True)
class ExpNode:
    labels: tuple[str, ...]
    props: dict = field(hash=False)


@dataclass(frozen=True)
class ExpRel:
    type: str
    props: dict = field(hash=False)


@dataclass(frozen=True)
class ExpPath:
    start: ExpNode
    steps: tuple  # ((direction '>' or '<', ExpRel, ExpNode), ...)


class ValueSyntaxError(ValueError):
    pass


_WS = re.compile(r"\s*")
_NAME = re.compile(r"[A-Za-z0-9$_]+|`(?:[^`]|``)*`")
_FLOAT = re.compile(r"-?(?:\d+\.\d+(?:[eE]-?\d+)?|\.\d+(?:[eE]-?\d+)?|\d+[eE]-?\d+)")
_INT = re.compile(r"-?\d+")
_INT_MIN, _INT_MAX = -(2 ** 63), 2 ** 63 - 1


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def ws(self) -> None:
        self.pos = _WS.match(self.text, self.pos).end()

    def peek(self, s: str) -> bool:
        self.ws()
        return self.text.startswith(s, self.pos)

    def eat(self, s: str) -> bool:
        if self.peek(s):
            self.pos += len(s)
            return True
        return False

    def need(self, s: str) -> None:
        if not self.eat(s):
            self.fail(f"expected {s!r}")

    def fail(self, why: str):
        raise ValueSyntaxError(f"{why} at offset {self.pos} in {self.text!r}")

    def name(self) -> str:
        self.ws()
        m = _NAME.match(self.text, self.pos)
        if not m:
            self.fail("expected a name")
        self.pos = m.end()
        s = m.group()
        return s[1:-1].replace("``", "`") if s.startswith("`") else s

    def value(self):
        self.ws()
        t, p = self.text, self.pos
        if t.startswith("(", p):
            return self.node()
        if t.startswith("[", p):
            save = self.pos
            self.pos += 1
            if self.peek(":"):
                self.pos = save
                return self.rel()
            self.pos = save
            return self.list()
        if t.startswith("<", p):
            return self.path()
        if t.startswith("{", p):
            return self.map()
        if t.startswith("'", p):
            return self.string()
        m = _FLOAT.match(t, p)
        if m:
            self.pos = m.end()
            return float(m.group())
        m = _INT.match(t, p)
        if m:
            self.pos = m.end()
            v = int(m.group())
            if not _INT_MIN <= v <= _INT_MAX:
                self.fail("integer out of 64-bit range")
            return v
        for word, v in (("true", True), ("false", False), ("null", None)):
            if t.startswith(word, p):
                self.pos += len(word)
                return v
        if t.startswith("NaN", p):
            self.pos += 3
            return math.nan
        self.fail("expected a value")

    def node(self) -> ExpNode:
        self.need("(")
        labels = []
        while self.eat(":"):
            labels.append(self.name())
        props = self.map() if self.peek("{") else {}
        self.need(")")
        return ExpNode(tuple(sorted(labels)), props)

    def rel(self) -> ExpRel:
        self.need("[")
        self.need(":")
        type_ = self.name()
        props = self.map() if self.peek("{") else {}
        self.need("]")
        return ExpRel(type_, props)

    def path(self) -> ExpPath:
        self.need("<")
        start = self.node()
        steps = []
        while True:
            if self.eat("<-"):
                rel = self.rel()
                self.need("-")
                steps.append(("<", rel, self.node()))
            elif self.eat("-"):
                rel = self.rel()
                self.need("->")
                steps.append((">", rel, self.node()))
            else:
                break
        self.need(">")
        return ExpPath(start, tuple(steps))

    def list(self) -> list:
        self.need("[")
        out = []
        if self.eat("]"):
            return out
        while True:
            out.append(self.value())
            if self.eat("]"):
                return out
            self.need(",")

    def map(self) -> dict:
        self.need("{")
        out: dict = {}
        if self.eat("}"):
            return out
        while True:
            key = self.name()
            self.need(":")
            out[key] = self.value()
            if self.eat("}"):
                return out
            self.need(",")

    def string(self) -> str:
        t = self.text
        self.pos += 1
        buf = []
        while True:
            if self.pos >= len(t):
                self.fail("unterminated string")
            c = t[self.pos]
            if c == "'":
                self.pos += 1
                return "".join(buf)
            if c == "\\" and self.pos + 1 < len(t) and t[self.pos + 1] in "'\\":
                buf.append(t[self.pos + 1])
                self.pos += 2
                continue
            buf.append(c)
            self.pos += 1


def parse_value(text: str):
    """One expected cell (already unescaped by Gherkin) -> its value."""
    p = _Parser(text)
    v = p.value()
    p.ws()
    if p.pos != len(text):
        p.fail("trailing text")
    return v


# --------------------------------------------------------------------------- canonical form

def _props(props: dict, unordered: bool) -> tuple:
    return tuple(sorted((k, canon(v, unordered)) for k, v in props.items()))


def canon(value, unordered: bool = False) -> tuple:
    """A hashable, type-tagged form; equal forms mean equal values by the TCK's rules.
    `unordered`: lists at every depth compare as multisets."""
    if value is None:
        return ("null",)
    if value is True or value is False:
        return ("bool", value)
    if isinstance(value, int):
        return ("int", value)
    if isinstance(value, float):
        return ("nan",) if math.isnan(value) else ("float", value)
    if isinstance(value, str):
        return ("str", value)
    if isinstance(value, list):
        items = [canon(v, unordered) for v in value]
        if unordered:
            return ("ulist", frozenset(Counter(items).items()))
        return ("list", tuple(items))
    if isinstance(value, dict):
        return ("map", _props(value, unordered))
    if isinstance(value, (Node, ExpNode)):
        return ("node", tuple(sorted(value.labels)), _props(value.props, unordered))
    if isinstance(value, Relationship):
        return ("rel", value.type, _props(value.props, unordered))
    if isinstance(value, ExpRel):
        return ("rel", value.type, _props(value.props, unordered))
    if isinstance(value, Path):
        steps = []
        for i, rel in enumerate(value.rels):
            prev, nxt = value.nodes[i], value.nodes[i + 1]
            direction = ">" if (rel.start is prev or rel.start.id == prev.id) and \
                (rel.end.id == nxt.id) else "<"
            steps.append((direction, canon(rel, unordered), canon(nxt, unordered)))
        return ("path", canon(value.nodes[0], unordered), tuple(steps))
    if isinstance(value, ExpPath):
        return ("path", canon(value.start, unordered),
                tuple((d, canon(r, unordered), canon(n, unordered)) for d, r, n in value.steps))
    # values without a TCK literal (temporals, ...) compare by their string rendering
    return ("str", str(value))


def show(value) -> str:
    """A value in TCK notation, for failure messages."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, float):
        return "NaN" if math.isnan(value) else repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if isinstance(value, list):
        return "[" + ", ".join(show(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {show(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (Node, ExpNode)):
        labels = "".join(":" + lb for lb in sorted(value.labels))
        props = (" " + show(value.props)) if value.props else ""
        return f"({labels}{props})"
    if isinstance(value, (Relationship, ExpRel)):
        props = (" " + show(value.props)) if value.props else ""
        return f"[:{value.type}{props}]"
    if isinstance(value, Path):
        parts = [show(value.nodes[0])]
        for i, rel in enumerate(value.rels):
            fwd = rel.start.id == value.nodes[i].id and rel.end.id == value.nodes[i + 1].id
            parts.append(f"-{show(rel)}->" if fwd else f"<-{show(rel)}-")
            parts.append(show(value.nodes[i + 1]))
        return "<" + "".join(parts) + ">"
    if isinstance(value, ExpPath):
        parts = [show(value.start)]
        for d, r, n in value.steps:
            parts.append(f"-{show(r)}->" if d == ">" else f"<-{show(r)}-")
            parts.append(show(n))
        return "<" + "".join(parts) + ">"
    return show(str(value))
