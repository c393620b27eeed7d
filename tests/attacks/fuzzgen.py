"""A seeded generator of hostile inputs for `relate serve`: Cypher text, JSON-RPC lines and raw
HTTP/1.1 requests.  Everything is drawn from one `random.Random(seed)`, so a failing run is
replayed by its seed (`RELATE_FUZZ_SEED`, printed on failure).

Cypher statements are mutations of the TCK's statements (../shared/tck/features) and of the
docs' examples (web/*.md): token deletions, duplications and swaps, random Unicode (control
characters, lone surrogates, line separators), huge numbers, deep nesting, truncations.
A statement that could hit an issue another task owns (a runaway statement, a value built
mid-statement past the memory limit, JSON integers outside 64 bits) is left out by `tame()`:
this suite looks for crashes, hangs and lost writes, not for those known limits.

Families of JSON-RPC lines (`rpc_case`): tool calls with fuzzed Cypher, acknowledged writes,
get_schema, wrong types for every field, unknown methods, notifications, batches, malformed
JSON, oversized lines.  Families of HTTP requests (`http_case`): fuzzed JSON-RPC bodies,
pipelines, bad request lines, header fuzz, bad Content-Length, chunked bodies, missing or
repeated headers, bad credentials, bad origins, Expect: 100-continue, random bytes.
"""
from __future__ import annotations

import base64
import json
import os
import random
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FEATURES = ROOT.parent / "shared" / "tck" / "features"
DEFAULT_SEED = 14


def seed() -> int:
    return int(os.environ.get("RELATE_FUZZ_SEED", DEFAULT_SEED))


# ---------------------------------------------------------------- the seed statements

_DOC_BLOCK = re.compile(r"```cypher[^\n]*\n(.*?)```", re.S)
_TCK_BLOCK = re.compile(r'"""\n(.*?)"""', re.S)


@lru_cache(maxsize=1)
def statements() -> tuple[str, ...]:
    """The TCK's query blocks and the docs' Cypher cells, dedented, in a stable order."""
    found: list[str] = []
    if FEATURES.is_dir():
        for path in sorted(FEATURES.rglob("*.feature")):
            for scenario in re.split(r"\n\s*Scenario", path.read_text(encoding="utf-8")):
                rows = _examples(scenario)
                for block in _TCK_BLOCK.findall(scenario):
                    block = _dedent(block)
                    if "<" in block and rows:  # an outline: its statement once per example row
                        for row in rows[:4]:
                            text = block
                            for name, value in row.items():
                                text = text.replace(f"<{name}>", value)
                            found.append(text)
                    else:
                        found.append(block)
    for path in sorted((ROOT / "web").glob("*.md")):
        for block in _DOC_BLOCK.findall(path.read_text(encoding="utf-8")):
            found.append(_dedent(block))
    found = [s for s in dict.fromkeys(found) if s and not s.startswith("|")]
    if not found:  # no ../shared: a few of our own, so the suite still runs
        found = ["MATCH (n) RETURN n", "CREATE (a:A {x: 1})-[:R]->(b:B) RETURN a, b",
                 "UNWIND [1, 2, 3] AS x RETURN x * 2 AS y", "RETURN 'a' + 1.5 AS s, [1, {k: null}] AS l"]
    return tuple(found)


def _examples(scenario: str) -> list[dict[str, str]]:
    """The rows of a scenario outline's Examples table, as {placeholder: value}."""
    _, sep, table = scenario.partition("Examples:")
    if not sep:
        return []
    lines = [line.strip() for line in table.strip().splitlines()]
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in lines if line.startswith("|")]
    return [dict(zip(cells[0], row)) for row in cells[1:]] if cells else []


def _dedent(block: str) -> str:
    lines = block.splitlines()
    pad = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
    return "\n".join(line[pad:] for line in lines).strip()


# ---------------------------------------------------------------- random text

_TOKEN = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`[^`]*`|\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|\w+|\s+|.",
                    re.S)
_WORDS = ("MATCH", "OPTIONAL", "WHERE", "RETURN", "WITH", "UNWIND", "ORDER BY", "SKIP", "LIMIT", "CREATE",
          "MERGE", "CALL", "YIELD", "UNION", "ALL", "DISTINCT", "AS", "AND", "OR", "XOR", "NOT", "IN", "IS NULL",
          "CASE", "WHEN", "THEN", "ELSE", "END", "EXISTS", "COUNT", "null", "true", "false", "$p", "n", "n.x",
          "(", ")", "[", "]", "{", "}", ",", ":", ".", "..", "|", "-", "->", "<-", "=", "<>", "+", "/", "%",
          "^", "=~", "STARTS WITH", "ENDS WITH", "CONTAINS", ";", "`", "'", '"', "\\", "--", "//", "/*", "*/")
_ODD_CHARS = ("\x00", "\x01", "\x07", "\x08", "\t", "\x0b", "\x0c", "\r", "\x1b", "\x7f", "\x85", "\xa0",
              "\u00ad", "\u0301", "\u200b", "\u200d", "\u202e", "\u2028", "\u2029", "\ufeff", "\ufffd",
              "\uffff", "\U0001f600", "\U0010ffff", "\ud800", "\udfff", "\udbff", "\udc00", "é", "ß", "ǅ",
              "İ", "ﬃ", "𝔸", "中", "ה")
LITERALS = ("null", "true", "false", "0", "-1", "1.5", "-0.0", "1e308", "'x'", "''", "[]", "[1, 'a', null]", "{}",
            "{a: null, b: [1]}", "$p", "$x", "9223372036854775807", "-9223372036854775808", "0.0 / 0.0", "1 / 0",
            "date('2020-02-29')", "datetime('2020-01-01T00:00:00+01:00[Europe/Paris]')", "localtime('23:59:59')",
            "duration('P1Y2M3DT4H5M6.7S')", "duration({days: 106751991167300})", "date({year: 9999})",
            "point({x: 1, y: 2})", "point({latitude: 91, longitude: 0})", "'\\ud800'", "'ǅİﬃ'", "[[[]]]")
FUNCTION_NAMES = ("abs", "ceil", "sqrt", "log", "exp", "sign", "round", "toInteger", "toFloat", "toString",
                  "toBoolean", "toUpper", "trim", "left", "right", "substring", "split", "replace", "reverse",
                  "size", "head", "last", "tail", "keys", "labels", "type", "id", "properties", "nodes",
                  "length", "coalesce", "isEmpty", "date", "datetime", "localdatetime", "time", "duration",
                  "point", "distance", "collect", "count", "sum", "avg", "min", "max", "percentileCont",
                  "percentileDisc", "stDev", "exists", "toIntegerList", "elementId", "startNode", "atan2")
HUGE = ("9223372036854775807", "9223372036854775808", "-9223372036854775809", "1" * 40, "1e309", "-1e309",
        "0.0000000000000000000000000000001", "1.7976931348623157e308", "4.9e-324", "0x7fffffffffffffff",
        "0xffffffffffffffffff", "0o777", "00000000000000000000000001", "1_000")


_SURROGATE = re.compile("[\ud800-\udfff]")


def unicode_text(rng: random.Random, n: int) -> str:
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.4:
            out.append(rng.choice(_ODD_CHARS))
        elif r < 0.7:
            out.append(chr(rng.randint(0x20, 0x7e)))
        elif r < 0.85:
            out.append(chr(rng.randint(0xd800, 0xdfff)))  # lone surrogates
        else:
            out.append(chr(rng.choice((rng.randint(0x80, 0xd7ff), rng.randint(0xe000, 0x10ffff)))))
    return "".join(out)


def _nest(rng: random.Random, inner: str) -> str:
    depth = rng.choice((3, 20, 100, 190, 210, 400, 1000))
    shape = rng.randrange(6)
    if shape == 0:
        return "(" * depth + inner + ")" * depth
    if shape == 1:
        return "[" * depth + inner + "]" * depth
    if shape == 2:
        return "{a:" * depth + inner + "}" * depth
    if shape == 3:
        return "NOT " * depth + inner
    if shape == 4:
        return "-" * depth + inner
    return "[x IN " * depth + inner + " | x]" * depth


# ---------------------------------------------------------------- Cypher mutations

def cypher(rng: random.Random) -> str:
    """One statement: a seed statement, mutated zero or more times."""
    text = rng.choice(statements())
    if rng.random() < 0.2:
        return text
    for _ in range(rng.choice((1, 1, 1, 2, 3, 5))):
        text = _mutate(rng, text)
    return text


def _mutate(rng: random.Random, text: str) -> str:
    tokens = _TOKEN.findall(text) or [text]
    op = rng.randrange(15)
    i = rng.randrange(len(tokens))
    j = rng.randrange(len(tokens))
    if op == 0:  # delete a token or a run of them
        del tokens[i:i + rng.choice((1, 1, 2, 5))]
    elif op == 1:  # duplicate a span
        tokens[i:i] = tokens[min(i, j):max(i, j) + 1][:20]
    elif op == 2:  # swap two tokens
        tokens[i], tokens[j] = tokens[j], tokens[i]
    elif op == 3:  # a random Cypher word
        tokens.insert(i, rng.choice(_WORDS) + " ")
    elif op == 4:  # random Unicode anywhere
        tokens.insert(i, unicode_text(rng, rng.randint(1, 8)))
    elif op == 5:  # a string literal with odd content (a Cypher escape or the raw character)
        body = unicode_text(rng, rng.randint(0, 12)).replace("\\", "\\\\").replace("'", "\\'")
        if rng.random() < 0.3:
            body += rng.choice(("\\ud800", "\\uDFFF", "\\u0000", "\\U0001F600", "\\x", "\\u12", "\\"))
        tokens.insert(i, f"'{body}'")
    elif op == 6:  # a huge or odd number in place of a token
        tokens[i] = rng.choice(HUGE)
    elif op == 7:  # deep nesting around a token
        tokens[i] = _nest(rng, tokens[i] if tokens[i].strip() else "1")
    elif op == 8:  # truncate
        return "".join(tokens)[:rng.randrange(len(text) + 1)]
    elif op == 9:  # flip the case of a word
        tokens[i] = tokens[i].swapcase()
    elif op == 10:  # glue a second statement on
        tokens.append(rng.choice(("; ", " UNION ", " UNION ALL ", "\n")) + rng.choice(statements()))
    elif op == 11:  # replace a token with a control character or a comment opener
        tokens[i] = rng.choice(("\x00", "\n", "\r", "/*", "//", "`", "'", '"', "\\", "$", "$0", "${}"))
    elif op in (12, 13):  # a literal of another type in place of a literal (the syntax still holds)
        spots = [k for k, t in enumerate(tokens) if t[:1].isdigit() or t[:1] in "'\"" or t in ("null", "true", "false")]
        tokens[rng.choice(spots) if spots else i] = rng.choice(LITERALS)
    else:  # another function in place of a function
        spots = [k for k, t in enumerate(tokens[:-1]) if _WORD.fullmatch(t) and tokens[k + 1] == "("]
        tokens[rng.choice(spots) if spots else i] = rng.choice(FUNCTION_NAMES)
    return "".join(tokens)


_VAR_LENGTH = re.compile(r"\[[^\]]*?\*([^\]]*)")
_BOUNDED = re.compile(r"\s*(?:[0-3]\s*)?\.\.\s*[1-3]\s*|\s*[0-3]\s*")  # an upper bound of 3 at most
_WORD = re.compile(r"[^\W\d]\w*")
_INT = re.compile(r"\d+")
_PARTS = re.compile(r"\)\s*,\s*\(")
_PATTERN_IN_EXPRESSION = re.compile(r"(?is)\b(?:where|and|or|not|exists)\b.*\)\s*<?-")


def tame(statement: str, *, write: bool = False) -> bool:
    """Keep out what other tasks of issue 14 own, so that their known limits do not fail this
    suite: unbounded or long variable-length patterns and cartesian products (runaway
    statements), big ranges and `reduce` (values built mid-statement), and, for statements sent
    to write_cypher, anything that deletes, changes or multiplies data (the acknowledged writes
    are checked at the end)."""
    if len(statement) > 20_000:
        return True  # the oversized family: nesting, refused by the parser at once
    words = [w.lower() for w in _WORD.findall(statement)]
    for m in _VAR_LENGTH.finditer(statement):
        if not _BOUNDED.fullmatch(m.group(1)):
            return False
    if "reduce" in words or words.count("range") > 2:
        return False
    if ("range" in words or "unwind" in words) and any(len(n) > 3 for n in _INT.findall(statement)):
        return False
    if words.count("match") + words.count("merge") + len(_PARTS.findall(statement)) >= 2:
        return False
    if _PATTERN_IN_EXPRESSION.search(statement):  # a pattern predicate: a scan per row
        return False
    if "match" in words and words.count("unwind") >= 2:  # every node times every list item, twice
        return False
    if "shortestpath" in words or "allshortestpaths" in words:
        return False
    if write:
        risky = {"match", "delete", "detach", "set", "remove", "unwind", "foreach", "range", "call", "load"}
        if risky.intersection(words):
            return False
    return True


def tame_cypher(rng: random.Random, *, write: bool = False) -> str:
    """A statement `tame` keeps.  Most raw lone surrogates become their Cypher escape text: a raw
    one travels in JSON as an escape the reader refuses (as serde does), so it never reaches the
    engine, and the fuzz is for the engine too."""
    while True:
        text = cypher(rng)
        if write and len(text) > 3000 and rng.random() < 0.8:
            continue  # the TCK's long setups, rarer: each run of one fills the graph reads scan
        if tame(text, write=write):
            return text if rng.random() < 0.2 else _escape_surrogates(text)


def _escape_surrogates(text: str) -> str:
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


# ---------------------------------------------------------------- JSON values

def json_value(rng: random.Random, depth: int = 0):
    """A random JSON value (integers kept inside 64 bits: outside them is h14-bigint's)."""
    r = rng.randrange(10 if depth < 4 else 7)
    if r == 0:
        return None
    if r == 1:
        return rng.random() < 0.5
    if r == 2:
        return rng.choice((0, -1, 1, 2**31, -2**31, 2**53 + 1, 2**63 - 1, -2**63, rng.randint(-1000, 1000)))
    if r == 3:
        return rng.choice((0.0, -0.0, 1.5, 1e-300, 1e300, 2.5e-308, rng.uniform(-1e6, 1e6)))
    if r in (4, 5, 6):
        text = unicode_text(rng, rng.randint(0, 10))
        return text if rng.random() < 0.2 else _SURROGATE.sub("", text)
    if r in (7, 8):
        return [json_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {_SURROGATE.sub("", unicode_text(rng, rng.randint(0, 4))): json_value(rng, depth + 1)
            for _ in range(rng.randint(0, 4))}


def dumps(value) -> str:
    """JSON text of `value`, ASCII only (a lone surrogate travels as its escape)."""
    return json.dumps(value, ensure_ascii=True)


def request(id_, method, params=None, *, has_params: bool = True) -> str:
    msg = {"jsonrpc": "2.0", "id": id_, "method": method}
    if has_params and params is not None:
        msg["params"] = params
    return dumps(msg)


def tool(id_, name, arguments) -> str:
    return request(id_, "tools/call", {"name": name, "arguments": arguments})


# ---------------------------------------------------------------- JSON-RPC lines

@dataclass
class RpcCase:
    family: str
    line: bytes               # the bytes sent (no "\n" inside)
    ack: int | None = None    # an acknowledged-write candidate: the Ack id it creates
    payload: str | None = None


class Ids:
    """Request ids that are unique in a run, of every JSON type an id may be."""

    def __init__(self) -> None:
        self.n = 0

    def next(self, rng: random.Random):
        self.n += 1
        r = rng.random()
        if r < 0.7:
            return self.n
        if r < 0.85:
            return f"id-{self.n}-" + _SURROGATE.sub("", unicode_text(rng, 3))
        if r < 0.9:
            return self.n + 0.5
        if r < 0.95:
            return -self.n
        return {"n": self.n} if rng.random() < 0.5 else [self.n]


FAMILIES = ("read", "write", "ack", "schema", "control", "wrong_type", "unknown_method", "notification",
            "batch", "malformed", "oversized")
WEIGHTS = (30, 5, 8, 3, 4, 12, 5, 6, 4, 22, 1)


def rpc_case(rng: random.Random, ids: Ids, acks: list[int], *, family: str | None = None) -> RpcCase:
    """One JSON-RPC line of a family drawn by weight (or the one given).  `acks` is the running
    list of Ack ids handed out (an ack case appends its own)."""
    family = family or rng.choices(FAMILIES, WEIGHTS)[0]
    if family == "read":
        args = {"statement": tame_cypher(rng)}
        if rng.random() < 0.3:
            args["parameters"] = {rng.choice(("p", "x", "0", "")): json_value(rng) for _ in range(rng.randint(1, 3))}
        return RpcCase(family, tool(ids.next(rng), "read_cypher", args).encode())
    if family == "write":
        args = {"statement": tame_cypher(rng, write=True)}
        return RpcCase(family, tool(ids.next(rng), "write_cypher", args).encode())
    if family == "ack":
        n = len(acks) + 1
        acks.append(n)
        payload = unicode_text(rng, rng.randint(0, 16))
        if rng.random() < 0.5:
            # JSON cannot carry a lone surrogate (the reader refuses its escape, as serde does)
            payload = _SURROGATE.sub("", payload)
            args = {"statement": "CREATE (:Ack {id: $id, s: $s})", "parameters": {"id": n, "s": payload}}
        else:  # a Cypher literal can, as its escape
            lit = payload.replace("\\", "\\\\").replace("'", "\\'")
            lit = _escape_surrogates(lit)
            args = {"statement": f"CREATE (:Ack {{id: {n}, s: '{lit}'}})"}
        return RpcCase(family, tool(ids.next(rng), "write_cypher", args).encode(), ack=n, payload=payload)
    if family == "schema":
        size = rng.choice((None, -1, 0, 1, 5, -2, 1.0, 2.5, "10", True, [], {}, 2**63 - 1))
        args = {} if size is None else {"sample_size": size}
        return RpcCase(family, tool(ids.next(rng), "get_schema", args).encode())
    if family == "control":
        method = rng.choice(("ping", "tools/list", "initialize"))
        params = {"protocolVersion": rng.choice(("2025-06-18", "2024-11-05", unicode_text(rng, 5), 7)),
                  "capabilities": json_value(rng)} if method == "initialize" else rng.choice((None, {}, [], 1))
        return RpcCase(family, request(ids.next(rng), method, params).encode())
    if family == "wrong_type":
        return RpcCase(family, _wrong_type(rng, ids).encode())
    if family == "unknown_method":
        method = rng.choice(("resources/list", "prompts/get", "tools/call/", "Ping", "", "rpc.discover",
                             unicode_text(rng, rng.randint(1, 12))))
        return RpcCase(family, request(ids.next(rng), method, json_value(rng)).encode())
    if family == "notification":
        method = rng.choice(("notifications/initialized", "notifications/cancelled", "ping", "tools/call",
                             unicode_text(rng, 5)))
        msg = {"jsonrpc": "2.0", "method": method}
        if method == "tools/call":
            # a notification is never run: a write here must leave no trace
            msg["params"] = {"name": "write_cypher", "arguments": {"statement": "CREATE (:Ack {id: -1})"}}
        elif rng.random() < 0.5:
            msg["params"] = json_value(rng)
        return RpcCase(family, dumps(msg).encode())
    if family == "batch":
        items = [json.loads(rpc_case(rng, ids, [], family=rng.choice(("control", "read"))).line)
                 for _ in range(rng.randint(0, 3))]
        return RpcCase(family, dumps(items).encode())
    if family == "malformed":
        return RpcCase(family, _malformed(rng, ids, acks))
    # oversized: a long statement, a long junk line, a long string parameter
    size = rng.choice((70_000, 300_000, 1_200_000))
    r = rng.randrange(3)
    if r == 0:
        line = tool(ids.next(rng), "read_cypher", {"statement": "RETURN '" + "x" * size + "' AS s"})
    elif r == 1:
        line = '{"jsonrpc":"2.0","id":0,"method":"' + "m" * size  # never closed
    else:
        line = tool(ids.next(rng), "read_cypher", {"statement": "RETURN size($s) AS n",
                                                  "parameters": {"s": "é" * (size // 2)}})
    return RpcCase(family, line.encode())


def _wrong_type(rng: random.Random, ids: Ids) -> str:
    bad = (None, True, 0, -1.5, "", "x", [], [1], {}, {"a": 1})
    msg: dict = {"jsonrpc": "2.0", "id": ids.next(rng), "method": "tools/call",
                 "params": {"name": "read_cypher", "arguments": {"statement": "RETURN 1 AS one", "parameters": {}}}}
    where = rng.choice(("jsonrpc", "id", "method", "params", "name", "arguments", "statement", "parameters",
                        "drop"))
    value = rng.choice(bad)
    if where in ("jsonrpc", "id", "method", "params"):
        msg[where] = value
    elif where == "name":
        msg["params"]["name"] = value
    elif where == "arguments":
        msg["params"]["arguments"] = value
    elif where == "drop":
        victim = rng.choice(("jsonrpc", "method", "params", "name", "arguments", "statement"))
        if victim in msg:
            del msg[victim]
        elif victim in msg["params"]:
            del msg["params"][victim]
        else:
            del msg["params"]["arguments"][victim]
    else:
        msg["params"]["arguments"][where] = value
    if rng.random() < 0.2:
        msg[rng.choice(("extra", "ID", "Method", "jsonrpc "))] = 1
    return dumps(msg)


def _malformed(rng: random.Random, ids: Ids, acks: list[int]) -> bytes:
    base = rpc_case(rng, ids, [], family=rng.choice(("read", "control", "wrong_type"))).line
    r = rng.randrange(12)
    if r == 0:  # truncated
        return base[:rng.randrange(len(base))]
    if r == 1:  # bytes flipped
        b = bytearray(base)
        for _ in range(rng.randint(1, 4)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        return bytes(b).replace(b"\n", b" ")
    if r == 2:  # invalid UTF-8 inside a string
        return base.replace(b'"2.0"', b'"2.0\xff\xfe"', 1) if rng.random() < 0.5 else base + b"\xc3"
    if r == 3:  # trailing garbage or a second message on the line
        return base + rng.choice((b" x", b"}", b",", b" " + base, b"\x00"))
    if r == 4:  # deep nesting past serde's limit
        d = rng.choice((127, 128, 129, 1000, 100_000))
        return b'{"jsonrpc":"2.0","id":1,"method":"ping","params":' + b"[" * d + b"]" * d + b"}"
    if r == 5:  # a repeated member
        return base[:-1] + b',"id":2}'
    if r == 6:  # lone surrogate escapes in keys and the method
        return b'{"jsonrpc":"2.0","id":"\\ud800","method":"\\udfff\\ud800"}'
    if r == 7:  # not an object
        return rng.choice((b"null", b"1", b'"ping"', b"true", b"[]", b"[1,2,3,4,5]", b"{", b"}", b"\xef\xbb\xbf{}"))
    if r == 8:  # odd numbers where numbers go
        num = rng.choice((b"1e999", b"-0", b"01", b"1.", b".5", b"NaN", b"Infinity", b"1e-999", b"0x10", b"+1"))
        return b'{"jsonrpc":"2.0","id":' + num + b',"method":"ping"}'
    if r == 9:  # raw control characters and escapes inside strings
        return b'{"jsonrpc":"2.0","id":3,"method":"pi\x01ng\\q\\u00"}'
    if r == 10:  # random bytes
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 80))).replace(b"\n", b"")
    return base.replace(b":", b"", 1)  # a lost colon


# ---------------------------------------------------------------- HTTP requests

@dataclass
class HttpCase:
    family: str
    data: bytes                       # every byte the client sends, then it half-closes
    requests: int                     # complete requests in `data`
    expect: list[int] | None = None   # the statuses, in order, when they are known
    closes_after: bool = False        # the server closes after the last expected reply
    rpcs: list[RpcCase] = field(default_factory=list)  # when every request is well framed: their bodies


def basic(user: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


def http_request(body: bytes, *, auth: str | None, method: str = "POST", target: str = "/mcp",
                 version: str = "HTTP/1.1", headers: list[tuple[str, str]] | None = None,
                 content_type: str | None = "application/json", length: bool = True) -> bytes:
    lines = [f"{method} {target} {version}", "Host: 127.0.0.1"]
    if content_type is not None:
        lines.append(f"Content-Type: {content_type}")
    if auth is not None:
        lines.append(f"Authorization: {auth}")
    for k, v in headers or ():
        lines.append(f"{k}: {v}")
    if length:
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


HTTP_FAMILIES = ("body", "pipeline", "request_line", "header_fuzz", "content_length", "chunked", "missing",
                 "bad_auth", "origin", "expect", "random")
HTTP_WEIGHTS = (30, 12, 8, 12, 8, 8, 6, 3, 6, 3, 4)


def http_case(rng: random.Random, ids: Ids, acks: list[int], auth: str, *, family: str | None = None) -> HttpCase:
    family = family or rng.choices(HTTP_FAMILIES, HTTP_WEIGHTS)[0]

    def body_case() -> RpcCase:
        fam = rng.choices(FAMILIES, WEIGHTS)[0]
        if fam == "oversized":
            fam = "read"
        return rpc_case(rng, ids, acks, family=fam)

    if family in ("body", "pipeline"):
        n = 1 if family == "body" else rng.randint(2, 6)
        cases = [body_case() for _ in range(n)]
        data = b"".join(http_request(c.line, auth=auth) for c in cases)
        return HttpCase(family, data, n, rpcs=cases)
    ping = request(0, "ping").encode()
    if family == "request_line":
        line = rng.choice((
            "GARBAGE", "POST /mcp", "POST /mcp HTTP/1.0", "POST /mcp HTTP/2.0", "POST /mcp HTTP/1.1 extra",
            "POST  /mcp HTTP/1.1", "post /mcp HTTP/1.1", "GET /mcp HTTP/1.1", "DELETE / HTTP/1.1",
            "OPTIONS * HTTP/1.1", "POST http://127.0.0.1/mcp HTTP/1.1", "POST /\x00 HTTP/1.1",
            "POST /" + "a" * 70_000 + " HTTP/1.1", "\x16\x03\x01\x02\x00\x01\x00", "PRI * HTTP/2.0",
            "POST /mcp HTTP/1.1\rX", " POST /mcp HTTP/1.1", "BREW /pot HTCPCP/1.0", unicode_text(rng, 10)))
        data = line.encode("utf-8", "surrogatepass") + b"\r\nHost: x\r\nContent-Type: application/json\r\n" \
            + f"Authorization: {auth}\r\nContent-Length: {len(ping)}\r\n\r\n".encode() + ping
        return HttpCase(family, data, 1)
    if family == "header_fuzz":
        headers = []
        for _ in range(rng.randint(1, 6)):
            r = rng.randrange(8)
            if r == 0:
                headers.append((f"X-{rng.randrange(1000)}", unicode_text(rng, 8).encode("utf-8", "surrogatepass")
                                .decode("latin-1")))
            elif r == 1:
                headers.append(("X-Long", "v" * rng.choice((100, 8000, 70_000))))
            elif r == 2:
                headers.append((rng.choice(("Bad Name", "X:Y", "", "X\x00", "é", "(x)")), "v"))
            elif r == 3:
                headers.append(("Connection", rng.choice(("close", "keep-alive", "upgrade", "", "x, close"))))
            elif r == 4:
                headers.append(("Host", rng.choice(("127.0.0.1", "evil.example", ""))))
            elif r == 5:
                headers.append(("Content-Type", rng.choice(("text/plain", "application/json; charset=latin1",
                                                            "", "multipart/form-data", "application/x-evil"))))
            elif r == 6:
                headers.append(("X-Many", "a\r\n b"))  # obsolete line folding
            else:
                headers.extend((f"X-Rep{k}", "v") for k in range(rng.choice((10, 200))))
        data = http_request(ping, auth=auth, headers=headers)
        return HttpCase(family, data, 1)
    if family == "content_length":
        r = rng.randrange(7)
        if r == 0:
            value, body = rng.choice(("abc", "-1", "1.5", "", " 5", "0x10", "99999999999999999999")), ping
        elif r == 1:
            value, body = str(len(ping) + rng.randint(1, 50)), ping  # more declared than sent: dropped at EOF
        elif r == 2:
            cut = max(0, len(ping) - rng.randint(1, 10))  # the rest is read as a second request
            data = http_request(ping, auth=auth, length=False, headers=[("Content-Length", str(cut))])
            return HttpCase(family, data, 2)
        elif r == 3:
            data = http_request(ping, auth=auth, headers=[("Content-Length", str(len(ping) + 1))])
            return HttpCase(family, data, 1, expect=[400], closes_after=True)  # two that differ
        elif r == 4:
            data = http_request(ping, auth=auth, headers=[("Content-Length", str(len(ping)))])
            return HttpCase(family, data, 1, expect=[200])  # two that agree: one value
        elif r == 5:
            value, body = str(17 * 1024 * 1024), ping
            data = http_request(body, auth=auth, length=False, headers=[("Content-Length", value)])
            return HttpCase(family, data, 1, expect=[400], closes_after=True)
        else:
            value, body = "0", b""
            data = http_request(body, auth=auth, length=False, headers=[("Content-Length", value)])
            return HttpCase(family, data, 1, expect=[400])  # an empty body is not a message
        data = http_request(body, auth=auth, length=False, headers=[("Content-Length", value)])
        return HttpCase(family, data, 2)  # h11 may read " 5" as 5: the rest is a second request
    if family == "chunked":
        body = rpc_case(rng, ids, [], family="control").line
        r = rng.randrange(5)
        if r == 0:
            cut = rng.randint(1, len(body) - 1)
            chunks = b"%x\r\n%s\r\n%x\r\n%s\r\n0\r\n\r\n" % (cut, body[:cut], len(body) - cut, body[cut:])
            data = http_request(chunks, auth=auth, length=False, headers=[("Transfer-Encoding", "chunked")])
            return HttpCase(family, data, 1, rpcs=[RpcCase("control", body)])
        if r == 1:
            data = http_request(b"zz\r\n" + body + b"\r\n0\r\n\r\n", auth=auth, length=False,
                                headers=[("Transfer-Encoding", "chunked")])
            return HttpCase(family, data, 1, expect=[400], closes_after=True)
        if r == 2:
            chunks = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
            data = http_request(chunks, auth=auth, headers=[("Transfer-Encoding", "chunked")])
            return HttpCase(family, data, 1, expect=[400], closes_after=True)  # CL and TE
        if r == 3:
            data = http_request(b"%x\r\n%s" % (len(body) + 5, body), auth=auth, length=False,
                                headers=[("Transfer-Encoding", "chunked")])
            return HttpCase(family, data, 1)  # ends mid-chunk: dropped at EOF
        data = http_request(body, auth=auth, length=False,
                            headers=[("Transfer-Encoding", rng.choice(("gzip", "chunked, gzip", "identity", "x")))])
        return HttpCase(family, data, 1)
    if family == "missing":
        r = rng.randrange(4)
        if r == 0:
            data = http_request(ping, auth=auth, content_type=None)
            return HttpCase(family, data, 1, expect=[415])
        if r == 1:
            data = http_request(ping, auth=auth).replace(b"Host: 127.0.0.1\r\n", b"")
            return HttpCase(family, data, 1, expect=[400], closes_after=True)
        if r == 2:
            data = http_request(b"", auth=auth, length=False)
            return HttpCase(family, data, 1, expect=[400])
        data = http_request(ping, auth=auth, headers=[("Host", "127.0.0.1")])
        return HttpCase(family, data, 1, expect=[400], closes_after=True)  # two Host headers
    if family == "bad_auth":
        value = rng.choice((None, basic("relate", "wrong"), basic("", ""), "Basic !!!", "Basic",
                            "Bearer x", "basic " + auth.split(" ", 1)[1] + "x", auth + " extra"))
        return HttpCase(family, http_request(ping, auth=value), 1, expect=[401])
    if family == "origin":
        r = rng.randrange(4)
        if r == 0:
            data = http_request(ping, auth=auth, headers=[("Origin", rng.choice((
                "http://evil.example", "null", "http://127.0.0.1.evil", "file://", "http://localhost@evil",
                "http://[::1", "http://127.0.0.1:99999", "ftp://127.0.0.1", "http://127.0.0.1/x")))])
            return HttpCase(family, data, 1, expect=[403])
        if r == 1:
            data = http_request(ping, auth=auth, headers=[("Origin", "http://127.0.0.1"), ("Origin", "http://x")])
            return HttpCase(family, data, 1, expect=[400], closes_after=True)
        if r == 2:
            data = http_request(ping, auth=auth, headers=[("Origin", rng.choice(("http://localhost:3000",
                                                                                  "https://127.0.0.1", "http://[::1]:8")))])
            return HttpCase(family, data, 1, expect=[200], rpcs=[RpcCase("control", ping)])
        data = http_request(ping, auth=auth, headers=[("Origin", unicode_text(rng, 6).encode("utf-8", "surrogatepass")
                                                       .decode("latin-1"))])
        return HttpCase(family, data, 1)
    if family == "expect":
        data = http_request(ping, auth=auth, headers=[("Expect", "100-continue")])
        return HttpCase(family, data, 1, expect=[200], rpcs=[RpcCase("control", ping)])
    # random bytes, sometimes after a valid request
    junk = bytes(rng.randrange(256) for _ in range(rng.randint(1, 300)))
    if rng.random() < 0.5:
        return HttpCase(family, http_request(ping, auth=auth) + junk, 2)
    return HttpCase(family, junk, 1)
