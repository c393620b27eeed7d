"""Statements the parser refuses: the error class, its text and where it points.

A syntax error points at the token where reading stopped (the end of the text when it ran out)
and says what could have stood there, in the text a user types (`")"`, not lark's `RPAR`)."""
from __future__ import annotations

import pytest

from relate.errors import CypherSyntaxError
from relate.syntax.expected import MAX_SHOWN

PARSE = "syntax error: parse error: "

# statement, where the error points (the text at that offset), the message after "parse error: "
MALFORMED = [
    ("MATCH (p:Person RETURN p", "RETURN p",
     'unexpected token "RETURN": expected ")", "$", "&", ":", "{", "|" or "WHERE"'),
    ("MATCH (n RETURN n", "RETURN n", 'unexpected token "RETURN": expected ")", "$", ":", "{", "IS" or "WHERE"'),
    ("MATCH (a)-->(b RETURN a", "RETURN a",
     'unexpected token "RETURN": expected ")", "$", ":", "{", "IS" or "WHERE"'),
    ("MATCH (n:Person name: 'x') RETURN n", "name:",
     'unexpected token "name": expected ")", "$", "&", ":", "{", "|" or "WHERE"'),
    ("MATCH (a)-[r:KNOWS->(b) RETURN a", "->(b)",
     'unexpected token "-": expected "]", "$", "&", "*", ":", "{", "|" or "WHERE"'),
    ("MATCH (n) RETRUN n", "RETRUN",
     'unexpected token "RETRUN": expected ",", "(", "-", "<-", "WHERE", a clause or the end of the statement '
     '(did you mean "RETURN"?)'),
    ("RETURN 1 +", "", "unexpected end of input: expected an expression"),
    ("RETURN", "", 'unexpected end of input: expected "*", "DISTINCT" or an expression'),
    ("RETURN [1, 2", "", 'unexpected end of input: expected "]" or ","'),
    ("CREATE (n:Person {name: 'a'", "", 'unexpected end of input: expected "}" or ","'),
    ("MATCH (n) RETURN count(n", "", 'unexpected end of input: expected ")"'),
    ("RETURN {a 1}", "1}", 'unexpected token "1": expected "}" or ":"'),
    ("RETURN 1 1", "1", 'unexpected token "1": expected ",", "AS", an operator, a clause or the end of the statement'),
    ("UNWIND [1] x RETURN x", "x RETURN", 'unexpected token "x": expected "AS" or an operator'),
    ("RETURN 1 AS", "", "unexpected end of input: expected a name"),
    ("MATCH (n) RETURN n ORDER n", "n", 'unexpected token "n": expected "BY"'),
    ("MATCH (n) SET n.x RETURN n", "RETURN", 'unexpected token "RETURN": expected "="'),
    ("RETURN CASE WHEN 1 THEN 2", "", 'unexpected end of input: expected "ELSE", "END" or "WHEN"'),
    ("FOREACH (x IN [1] CREATE ())", "CREATE", 'unexpected token "CREATE": expected "|"'),
    ("RETURN 1; RETURN 2", "RETURN 2", 'unexpected token "RETURN": expected the end of the statement'),
    ("MATCH (n)\nRETRUN n", "RETRUN",
     'unexpected token "RETRUN": expected ",", "(", "-", "<-", "WHERE", a clause or the end of the statement '
     '(did you mean "RETURN"?)'),
]


@pytest.mark.parametrize("statement,at,detail", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_error_points_where_reading_stopped_and_says_what_was_expected(db, statement, at, detail):
    with pytest.raises(CypherSyntaxError) as e:
        db.execute(statement)
    assert e.value.kind == "ParseError"
    assert e.value.message == PARSE + detail
    offset = e.value.position.offset
    assert statement[offset:].startswith(at) and (at or offset == len(statement))


def test_position_carries_line_and_column(db):
    with pytest.raises(CypherSyntaxError) as e:
        db.execute("MATCH (n)\n  RETRUN n")
    assert (e.value.position.line, e.value.position.column) == (2, 3)


def test_lark_names_never_reach_the_message(db):
    # terminals are shown as their text: no RPAR, __ANON_n or the prescan's private marks
    for statement, _, _ in MALFORMED:
        with pytest.raises(CypherSyntaxError) as e:
            db.execute(statement)
        assert not any(word in e.value.message for word in ("RPAR", "LPAR", "__ANON", "NAME", "$END"))
        assert not any("\ue000" <= ch <= "\ue0ff" for ch in e.value.message)
        assert '""' not in e.value.message  # every terminal shown has a text


def test_long_expected_lists_are_cut(db):
    with pytest.raises(CypherSyntaxError) as e:
        db.execute("MATCH (n) WHERE n.x = RETURN n")
    assert e.value.message.split(": expected ", 1)[1] == "an operator, a clause or the end of the statement"
    with pytest.raises(CypherSyntaxError) as e:
        db.execute("CREATE")
    listed = e.value.message.split(": expected ", 1)[1]
    assert listed.count('"') // 2 + 2 == MAX_SHOWN  # the tokens shown, "N other tokens" and "a name"
    assert listed.startswith('"(", ') and listed.endswith(" other tokens or a name")


def test_unexpected_character_keeps_its_text(db):
    with pytest.raises(CypherSyntaxError) as e:
        db.execute("RETURN #")
    assert e.value.message == PARSE + 'unexpected character "#"'
    assert e.value.position.offset == 7


def test_paging_clause_out_of_order_keeps_its_kind(db):
    with pytest.raises(CypherSyntaxError) as e:
        db.execute("MATCH (n) RETURN n SKIP 1 ORDER BY n")
    assert e.value.kind == "InvalidClauseComposition"
    assert e.value.position.offset == 26
