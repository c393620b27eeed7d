"""The `rows` block of `relate --mode toon` read by the official TOON decoder (`toon-format`, pinned
in constraints.txt) gives the rows `--mode jsonl` prints, for every value type, every quoting case
and the delimiter: what an agent's TOON reader sees is what relate returned.  The block is also
byte for byte what the package's encoder writes for the decoded rows.

The block is the output's first line and the indented lines under it; the trailer sections after
it (`timings:` and the rest, compact JSON as the reference prints them) are not TOON documents and
are left out.  Numbers compare by value (TOON writes 1.0 as 1), booleans never equal numbers.
"""
from __future__ import annotations

import io
import json

import pytest
import toon_format
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from relate.cli.main import run


def relate(mode: str, statement: str, params: dict | None = None) -> str:
    argv = ["--mode", mode, statement]
    if params is not None:
        argv[:0] = ["--params", json.dumps(params)]
    out, err = io.StringIO(), io.StringIO()
    code = run(argv, env={}, stdout=out, stderr=err)
    assert (code, err.getvalue()) == (0, ""), (statement, err.getvalue())
    return out.getvalue()


def rows_block(text: str) -> str:
    lines = text.split("\n")  # not splitlines(): U+2028 and friends are content, not line ends
    end = 1
    while end < len(lines) and lines[end].startswith(" "):
        end += 1
    return "\n".join(lines[:end])


def jsonl_rows(text: str) -> list:
    return [json.loads(line) for line in text.split("\n")[:-2]]  # the last line is the trailer


def same(a, b) -> bool:
    """JSON-model equality: numbers by value, but a boolean is not the number 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def check(statement: str, params: dict | None = None) -> None:
    toon_text = relate("toon", statement, params)
    block = rows_block(toon_text)
    decoded = toon_format.loads(block)
    expected = jsonl_rows(relate("jsonl", statement, params))
    assert set(decoded) == {"rows"}
    assert same(decoded["rows"], expected), (statement, toon_text, expected)
    # and the block is the official encoder's own text for those rows (its canonical form)
    assert toon_format.dumps(decoded) == block


FIXED = [
    # primitives of every kind, one row (tabular)
    "RETURN null AS n, true AS t, false AS f, 0 AS zero, -9223372036854775808 AS lo, "
    "9223372036854775807 AS hi",
    "RETURN 0.5 AS half, -0.0 AS nz, 1.0 AS one, 1e-7 AS small, 0.000001 AS edge, 1e21 AS e21, "
    "1e20 AS e20, 1.5e300 AS huge, 0.1 + 0.2 AS sum, 0.0 / 0.0 AS nan, 1.0 / 0.0 AS inf",
    # integral floats past 2^53: their shortest digits read back as another number
    "RETURN 2.0 ^ 60 AS p60, 2.0 ^ 53 + 2 AS p53, 123456789012345680000.0 AS wide, -(2.0 ^ 62) AS neg",
    # strings that need quotes, and ones that do not
    "RETURN '' AS empty, ' lead' AS lead, 'trail ' AS trail, 'true' AS t, 'null' AS n, '05' AS z, "
    "'1e5' AS e, '-3.5' AS neg, '+1' AS plus, '-' AS dash, '-x' AS dashx, '#' AS hash, '#x' AS hashx",
    "RETURN 'a,b' AS comma, 'a|b' AS pipe, 'a\\tb' AS tab, 'a:b' AS colon, 'say \"hi\"' AS dq, "
    "'back\\\\slash' AS bs, 'two\\nlines' AS nl, 'cr\\r' AS cr, '[x]' AS br, '{x}' AS brace, "
    "'a b' AS inner, 'x- y' AS mid",
    "RETURN 'Ada' AS plain, 'ümlaut' AS u, '😀' AS emoji, 'a\\u0001b' AS ctl, 'a\\u2028b' AS ls, "
    "'\\u00a0nbsp' AS nbsp, 'TRUE' AS upper, 'nullish' AS word, '.5' AS dot, '1.' AS trailing",
    # column names that need quotes
    "RETURN 1 AS `a b`, 2 AS `1x`, 3 AS `q\"`, 4 AS `x.y`, 5 AS `_u`, 6 AS `a,b`, 7 AS `é`",
    # lists: empty, primitive, nested, mixed, with quoted cells
    "RETURN [] AS empty, [1, 2.5, 'a,b', null, true] AS prim, [[1, 2], [], ['x']] AS nested, "
    "[1, [2, [3]], {k: 'v'}] AS mixed",
    # maps: empty, flat, nested, keyed (every value a map of one shape), quoted keys
    "RETURN {} AS empty, {a: 1, b: 'x'} AS flat, {m: {n: {o: 1}}} AS deep, "
    "{ada: {age: 36, born: 1815}, grace: {age: 85, born: 1906}} AS keyed, {`a b`: 1, `c:d`: [1]} AS keys",
    # several rows: uniform maps join the table as field groups, mixed columns go to list form
    "UNWIND [{x: 1, y: 'a'}, {x: 2, y: 'b,c'}] AS m RETURN m, m.x AS x",
    "UNWIND [{x: 1}, null, {x: 2}] AS m RETURN m",
    "UNWIND [{x: 1}, {y: 2}] AS m RETURN m",
    "UNWIND [{p: {q: 1, r: [1, 2]}}, {p: {q: 2, r: []}}] AS m RETURN m",
    "UNWIND [{k: {a: {v: 1}, b: {v: 2}}}, {k: {a: {v: 3}, b: {v: 4}}}] AS m RETURN m",
    "UNWIND [1, 'two', 3.5, null, [4], {five: 5}] AS v RETURN v",
    "UNWIND range(1, 3) AS i RETURN i, toString(i) + ',' AS s, [i, i] AS pair",
    # graph values, temporal values, points
    "CREATE (a:Person:Admin {name: 'Ada', tags: ['x', 'y,z'], score: 2.0 ^ 60})"
    "-[r:KNOWS {since: 1843}]->(b:Person {name: 'Grace'}) RETURN a, r, b",
    "CREATE p = (:A {k: 1})-[:R]->(:B)<-[:S {w: 0.5}]-(:C) RETURN p, nodes(p) AS ns, relationships(p) AS rs",
    "RETURN date('2024-02-29') AS d, time('12:30:00+01:00') AS t, localtime('08:15') AS lt, "
    "datetime('2024-01-01T00:00:00Z') AS dt, localdatetime('2024-01-01T10:00') AS ldt, "
    "duration('P1Y2M3DT4H5M6.5S') AS du, point({x: 1, y: 2}) AS p, point({latitude: 1, longitude: 2}) AS g",
    # no rows
    "UNWIND [] AS x RETURN x",
]


@pytest.mark.parametrize("statement", FIXED)
def test_fixed_table_decodes_to_the_jsonl_rows(statement):
    check(statement)


def test_the_rows_block_of_the_recorded_run_is_unchanged():
    """The reference page's bytes: bare strings, then the trailer sections as it prints them."""
    out = relate("toon", "UNWIND ['Ada', 'Grace', 'Noor'] AS name RETURN name")
    assert out.startswith("rows[3]{name}:\n  Ada\n  Grace\n  Noor\ntimings:\n  {\"elapsed_ms\":")
    assert out.endswith("}\nplanCache:\n  miss\n")
    assert toon_format.loads(rows_block(out)) == {"rows": [{"name": "Ada"}, {"name": "Grace"}, {"name": "Noor"}]}


# --- generated values, passed as parameters ------------------------------------------------------

_TEXT = st.text(st.characters(codec="utf-8"), max_size=6)  # no lone surrogates: TOON has no form for them
_SCALARS = (st.none() | st.booleans() | st.integers(-2 ** 63, 2 ** 63 - 1)
            | st.floats(allow_nan=False, allow_infinity=False) | _TEXT
            | st.sampled_from(["", " ", "a,b", "|", "\t", ":", "-", "#", "null", "true", "05", "1e3", "[]", "{}"]))
_VALUES = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=3)
                       | st.dictionaries(_TEXT, inner, max_size=3), max_leaves=8)
# the same key set in every row now and then, so that generated maps reach the tabular forms
_SHAPED = st.dictionaries(st.sampled_from(["a", "b", "c d"]), _SCALARS, min_size=1, max_size=3)


@st.composite
def _columns(draw):
    names = draw(st.lists(_TEXT.filter(bool), min_size=1, max_size=3, unique=True))
    count = draw(st.integers(0, 4))
    shaped = draw(st.booleans())
    cells = {}
    for name in names:
        if shaped and draw(st.booleans()):
            keys = draw(_SHAPED)
            cells[name] = [{k: draw(_SCALARS) for k in keys} for _ in range(count)]
        else:
            cells[name] = [draw(_VALUES) for _ in range(count)]
    return names, count, cells


def _alias(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_columns())
def test_generated_rows_decode_to_the_jsonl_rows(columns):
    names, count, cells = columns
    params = {f"c{n}": cells[name] for n, name in enumerate(names)}
    projections = ", ".join(f"$c{n}[i] AS {_alias(name)}" for n, name in enumerate(names))
    check(f"UNWIND range(0, {count - 1}) AS i RETURN {projections}", params)
