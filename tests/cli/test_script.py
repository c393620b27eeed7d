"""Splitting a script into statements: a `;` ends a statement only where it stands in code."""
from __future__ import annotations

import pytest

from relate.cli.script import Statement, pending, split


@pytest.mark.parametrize(("script", "texts"), [
    ("RETURN 1", ["RETURN 1"]),
    ("RETURN 1;", ["RETURN 1"]),
    ("  RETURN 1 ;\n\n RETURN 2;  ", ["RETURN 1", "RETURN 2"]),
    ("RETURN 'a;b' AS x; RETURN 2", ["RETURN 'a;b' AS x", "RETURN 2"]),
    ("RETURN 'it\\'s; fine' AS x; RETURN 2", ["RETURN 'it\\'s; fine' AS x", "RETURN 2"]),
    ('RETURN "x;\\"y;" AS x; RETURN 2', ['RETURN "x;\\"y;" AS x', "RETURN 2"]),
    ("RETURN 1 AS `a;``b`; RETURN 2", ["RETURN 1 AS `a;``b`", "RETURN 2"]),
    ("RETURN 1 // one; two\n; RETURN 2", ["RETURN 1 // one; two", "RETURN 2"]),
    ("RETURN /* ; */ 1; RETURN 2", ["RETURN /* ; */ 1", "RETURN 2"]),
    ("RETURN 1;;; RETURN 2", ["RETURN 1", "RETURN 2"]),
    ("// nothing but a comment;\n/* and; another */ ;", []),
    ("", []),
])
def test_split(script, texts):
    assert [s.text for s in split(script)] == texts


def test_statements_keep_their_offset_in_the_script():
    script = "RETURN 1;\n  // note\n  RETURN 2 ;"
    assert split(script) == [Statement("RETURN 1", 0), Statement("// note\n  RETURN 2", 12)]
    for st in split(script):
        assert script[st.offset:].startswith(st.text)


@pytest.mark.parametrize(("buffer", "done", "rest"), [
    ("RETURN 1\n", [], "RETURN 1\n"),
    ("RETURN 1;\n", ["RETURN 1"], ""),
    ("RETURN 1; RETURN\n", ["RETURN 1"], " RETURN\n"),
    ("RETURN 'a;\n", [], "RETURN 'a;\n"),  # inside a string: keep reading
    ("/* open; comment\n", [], "/* open; comment\n"),
    ("// just a comment;\n", [], ""),
])
def test_pending_for_the_shell(buffer, done, rest):
    statements, left = pending(buffer)
    assert ([s.text for s in statements], left) == (done, rest)
