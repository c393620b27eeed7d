"""The AT VALID / AS OF ... RECORDED prefixes: cut off before the grammar, positions kept."""
from __future__ import annotations

import pytest

from relate.errors import RelateError
from relate.syntax.parser import parse
from relate.syntax.temporal_prefix import TemporalPrefix, TimeRef
from relate.temporal.instant import parse_ns


def test_at_valid_dates_the_statement():
    stmt = parse("AT VALID '2024-01-01' CREATE (n:P)")
    assert stmt.temporal == TemporalPrefix("valid", TimeRef(parse_ns("2024-01-01"), None, 9))
    assert stmt.body == parse(" " * 22 + "CREATE (n:P)").body  # the prefix became spaces: positions hold


def test_as_of_with_recorded_a_parameter_and_explain():
    stmt = parse("EXPLAIN as of $t RECORDED \"2024-06-01T00:00:00Z\" MATCH (p) RETURN p")
    assert stmt.explain and stmt.temporal.kind == "as_of" and stmt.temporal.time.param == "t"
    assert stmt.temporal.recorded.ns == parse_ns("2024-06-01T00:00:00Z")


def test_no_prefix_no_change():
    assert parse("MATCH (n) RETURN n").temporal is None
    assert parse("MATCH (n) RETURN n AS of").temporal is None


@pytest.mark.parametrize("text,offset", [("AS OF 'soon' MATCH (n) RETURN n", 6),
                                         ("AT VALID '2024-02-30' CREATE ()", 9)])
def test_a_bad_time_is_refused_at_the_literal(text, offset):
    with pytest.raises(RelateError) as e:
        parse(text)
    assert e.value.kind == "InvalidTemporalPrefix" and e.value.position.offset == offset


def test_errors_after_the_prefix_keep_their_positions():
    with pytest.raises(RelateError) as e:
        parse("AS OF '2024-01-01' MATCH (n RETURN n")
    assert e.value.position.offset == parse_error_offset("MATCH (n RETURN n") + len("AS OF '2024-01-01' ")


def test_recorded_belongs_to_as_of():
    with pytest.raises(RelateError) as e:
        parse("AT VALID '2024-01-01' RECORDED '2024-01-01' CREATE ()")
    assert e.value.kind == "ParseError"


def parse_error_offset(text: str) -> int:
    with pytest.raises(RelateError) as e:
        parse(text)
    return e.value.position.offset
