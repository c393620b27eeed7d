"""Neo4j 5's scoping rules for `CALL { }` subqueries and subquery expressions, and where
IN TRANSACTIONS may stand: kind, TCK type, phase and the offset each refusal points at."""
from __future__ import annotations

import pytest

import relate
from relate.errors import RelateError

CASES = [
    # (statement, kind, offset)
    # a scope clause imports bound names only; CALL () and an unscoped CALL see no outer name
    ("WITH 5 AS k CALL (m) { RETURN 1 AS one } RETURN one", "UndefinedVariable", 18),
    ("WITH 5 AS k CALL () { RETURN k + 1 AS j } RETURN j", "UndefinedVariable", 29),
    ("WITH 4 AS o CALL { RETURN o AS i } RETURN i", "UndefinedVariable", 26),
    ("WITH 4 AS o CALL () { WITH o RETURN o AS i } RETURN i", "UndefinedVariable", 27),
    # what a subquery returns: aliased, and no outer name
    ("WITH 1 AS v CALL () { RETURN 2 AS v } RETURN v", "VariableAlreadyBound", 29),
    ("WITH 1 AS t CALL (t) { RETURN t } RETURN t", "VariableAlreadyBound", 30),
    ("CALL () { RETURN 40 + 2 } RETURN 1 AS one", "NoExpressionAlias", 17),
    # a scope clause's variables cannot be declared again inside
    ("WITH 1 AS v CALL (v) { UNWIND [7, 8] AS v RETURN v AS w } RETURN w", "VariableAlreadyBound", 23),
    ("WITH 1 AS t CALL (t) { WITH 'new' AS t RETURN t AS n } RETURN n", "VariableAlreadyBound", 28),
    # the importing WITH of an unscoped CALL: a plain list of outer variables
    ("WITH 4 AS w CALL { WITH w AS r RETURN r AS x } RETURN x", "InvalidImportingWith", 24),
    ("WITH 4 AS w CALL { WITH w + 1 AS b RETURN b } RETURN b", "InvalidImportingWith", 24),
    ("WITH [1] AS l CALL { WITH l WHERE size(l) > 2 RETURN l AS x } RETURN x", "InvalidImportingWith", 21),
    # how a subquery may end; FINISH ends a query
    ("CALL () { MATCH (n) } RETURN 1 AS one", "InvalidClauseComposition", None),
    ("MATCH (r) FINISH RETURN r", "InvalidClauseComposition", None),
    ("CALL () { RETURN 1 AS a UNION RETURN 2 AS b } RETURN a", "DifferentColumnsInUnion", None),
    # IN TRANSACTIONS: where it stands, and its options
    ("CALL () { UNWIND [1] AS x CALL (x) { CREATE (:T) } IN TRANSACTIONS } RETURN 1 AS d",
     "InvalidClauseComposition", 26),
    ("CREATE (:A) WITH 1 AS x CALL (x) { CREATE (:T) } IN TRANSACTIONS", "InvalidClauseComposition", 24),
    ("CALL () { CREATE (:T) } IN TRANSACTIONS RETURN 1 AS x UNION RETURN 2 AS x",
     "InvalidClauseComposition", 0),
    ("UNWIND [1] AS x CALL (x) { CREATE (:T) } IN TRANSACTIONS ON ERROR FAIL REPORT STATUS AS s RETURN s",
     "InvalidClauseComposition", 41),
    ("UNWIND [1] AS x CALL (x) { CREATE (:T) } IN TRANSACTIONS OF 0 ROWS", "InvalidArgumentType", 60),
    ("UNWIND [1] AS x CALL (x) { CREATE (:T) } IN TRANSACTIONS OF x ROWS", "UndefinedVariable", 60),
    ("UNWIND [1] AS x CALL (x) { CREATE (:T) } IN TRANSACTIONS ON ERROR CONTINUE REPORT STATUS AS x RETURN x",
     "VariableAlreadyBound", 41),
    # subquery expressions: no writes, no shadowing, COLLECT returns one column
    ("MATCH (c) RETURN COUNT { WITH 1 AS c RETURN c } AS n", "VariableAlreadyBound", 30),
    ("MATCH (c) WHERE EXISTS { CREATE (:X) } RETURN c", "InvalidClauseComposition", 25),
    ("MATCH (c) RETURN COLLECT { MATCH (c)-->(d) RETURN d.a, d.b } AS p", "InvalidClauseComposition", 17),
    ("MATCH (c) RETURN COLLECT { MATCH (c)-->(d) } AS p", "InvalidClauseComposition", 17),
    ("MATCH (c) RETURN COLLECT { CREATE (x) RETURN x } AS p", "InvalidClauseComposition", 27),
    ("MATCH (c) WHERE EXISTS { MATCH (c)-->(inner) } RETURN inner", "UndefinedVariable", 54),
    # ORDER BY / SKIP / LIMIT out of their order is a clause in the wrong place
    ("MATCH (r) RETURN r LIMIT 2 SKIP 1", "InvalidClauseComposition", 27),
]


@pytest.mark.parametrize("query, kind, offset", CASES)
def test_refused_at_compile_time(query, kind, offset):
    db = relate.connect(":memory:")
    with pytest.raises(RelateError) as info:
        db.execute(query)
    err = info.value
    assert (err.kind, err.tck_type, err.phase) == (kind, "SyntaxError", "compile"), str(err)
    if offset is not None:
        assert err.position is not None and err.position.offset == offset, (err.position, str(err))
    assert db.execute("MATCH (n) RETURN count(n) AS n").rows == [(0,)]


def test_outer_names_are_new_names_inside_an_unscoped_call():
    # a MATCH inside binds a fresh `p`: the outer one is not imported
    db = relate.connect(":memory:")
    db.execute("CREATE (:P {n: 1}), (:P {n: 2})")
    r = db.execute("MATCH (p:P {n: 1}) CALL { MATCH (p:P) RETURN count(p) AS c } RETURN p.n AS n, c")
    assert r.rows == [(1, 2)]


def test_imported_variables_stay_visible_after_a_with_inside_a_scoped_call():
    db = relate.connect(":memory:")
    r = db.execute("WITH 2 AS a CALL (a) { WITH a * 3 AS b WITH count(*) AS n, b RETURN a + b + n AS c } "
                   "RETURN a, c")
    assert r.rows == [(2, 9)]


def test_an_importing_with_may_be_followed_by_a_plain_with():
    db = relate.connect(":memory:")
    r = db.execute("UNWIND [[1, 2], [1, 2, 3]] AS l CALL { WITH l WITH l WHERE size(l) > 2 RETURN l AS big } "
                   "RETURN big")
    assert r.rows == [([1, 2, 3],)]


def test_in_transactions_refused_inside_an_explicit_transaction():
    db = relate.connect(":memory:")
    with pytest.raises(RelateError) as info:
        with db.transaction():
            db.execute("UNWIND [1, 2] AS i CALL (i) { CREATE (:T {i: i}) } IN TRANSACTIONS")
    assert info.value.kind == "ImplicitTransactionRequired"
    assert db.execute("MATCH (t:T) RETURN count(t) AS n").rows == [(0,)]


def test_in_transactions_refused_on_a_read_only_policy():
    db = relate.connect(":memory:")
    with pytest.raises(RelateError) as info:
        db.execute("UNWIND [1] AS i CALL (i) { MATCH (n) RETURN n } IN TRANSACTIONS RETURN n",
                   policy=relate.policy.Policy(read_only=True))
    assert info.value.kind == "ReadOnly"


def test_collect_has_a_list_type():
    # a list is no boolean: the static type refuses COLLECT as a WHERE condition
    db = relate.connect(":memory:")
    with pytest.raises(RelateError) as info:
        db.execute("MATCH (n) WHERE COLLECT { MATCH (m) RETURN m } RETURN n")
    assert info.value.kind == "InvalidArgumentType"
    with pytest.raises(RelateError) as info:
        db.execute("RETURN COLLECT { RETURN 1 AS x } - 1 AS y")
    assert info.value.kind == "InvalidArgumentType"
