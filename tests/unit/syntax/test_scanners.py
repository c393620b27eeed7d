"""The parser's image carries its lexers' scanners built (`relate/syntax/scanners.py`): a process
that loads it parses without building any scanner, lexes exactly as lark's own lexers do, and
compiles the same regular expressions, from the stored engine code or, under another Python's
engine, from their text."""
from __future__ import annotations

import re

import lark.lexer
import pytest
from lark import Lark
from lark.exceptions import UnexpectedCharacters

from relate.syntax import parser as P
from relate.syntax import scanners
from relate.syntax.prescan import prescan

from .test_parser_tables import STATEMENTS, _grammar


@pytest.fixture(scope="module")
def image(tmp_path_factory):
    return P.write_prebuilt(tmp_path_factory.mktemp("image") / "tables.bin")


def _loaded(image):
    parser = P.load_prebuilt(image, _grammar())
    assert parser is not None
    return parser


def _lexers(parser: Lark) -> list:
    return list({id(x): x for x in parser.parser.lexer.lexers.values()}.values())


def test_a_loaded_image_parses_without_building_a_scanner(image, monkeypatch):
    fresh = Lark(_grammar(), **P._OPTIONS)
    trees = [fresh.parse(prescan(text)) for text in STATEMENTS]
    loaded = _loaded(image)

    def refuse(*_):
        raise AssertionError("a scanner was built")

    monkeypatch.setattr(lark.lexer, "_create_unless", refuse)
    assert [loaded.parse(prescan(text)) for text in STATEMENTS] == trees


def test_an_unexpected_character_names_what_lark_would(image):
    loaded, fresh = _loaded(image), Lark(_grammar(), **P._OPTIONS)
    for text in ("RETURN 1 ~ 2", "MATCH (a)-[r]->(b) RETURN a ?", "RETURN '\\q' §"):
        seen = []
        for parser in (loaded, fresh):
            with pytest.raises(UnexpectedCharacters) as e:
                parser.parse(prescan(text))
            seen.append((e.value.pos_in_stream, frozenset(e.value.allowed)))
        assert seen[0] == seen[1]


def _patterns(parser: Lark) -> list:
    return [m for lexer in _lexers(parser) for m in lexer.scanner._mres]


def test_the_stored_engine_code_makes_the_patterns_re_makes(image):
    patterns = _patterns(_loaded(image))
    assert len(patterns) > 300
    assert all(m == re.compile(m.pattern, m.flags) for m in patterns)


def test_under_another_engine_the_patterns_are_compiled_from_their_text(image, monkeypatch):
    expected = _patterns(_loaded(image))
    monkeypatch.setattr(scanners, "ENGINE", ((0, 0), 0, 0))
    compiled = []
    real = re.compile
    monkeypatch.setattr(re, "compile", lambda *a: compiled.append(a) or real(*a))
    assert _patterns(_loaded(image)) == expected
    assert len(compiled) == len(expected)
