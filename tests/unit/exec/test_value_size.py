"""The memory limit's accounting where values are built (`exec/value_size.py`'s `Budget`): each
builder measures what it builds exactly as `value_size` measures the finished value, so a statement
whose largest value is S bytes passes with a limit of S and is refused with S - 1, whether the value
grows mid-statement or is only returned; the budget's memory of the last value and of reduce()'s
accumulator keeps a growing accumulator from being walked again at every step."""
from __future__ import annotations

import pytest

import relate
from relate.exec.arith import add, add_within
from relate.exec.functions.lists import range_within
from relate.exec.functions.strings import replace_within, split_within
from relate.exec.value_size import Budget, value_size
from relate.policy import OPEN, SERVED, Policy

BIG = 1 << 40


@pytest.fixture
def db():
    return relate.connect()


# each statement returns one value, built mid-statement by the construct it names
BUILT = [
    "RETURN range(1, 3000) AS v",
    "RETURN range(10, 1, -3) AS v",
    "RETURN reduce(s = 'x', i IN range(1, 12) | s + s) AS v",
    "RETURN reduce(s = 'é', i IN range(1, 12) | s + s) AS v",  # two bytes a character
    "RETURN reduce(s = '\U0001F600', i IN range(1, 10) | s + s) AS v",  # four
    "RETURN reduce(s = 'n', i IN range(1, 8) | s + s + 123456789) AS v",  # string + number
    "RETURN reduce(s = 'n', i IN range(1, 8) | 1.5 + s + s) AS v",
    "RETURN reduce(l = [1], i IN range(1, 10) | l + l) AS v",
    "RETURN reduce(s = 'x', i IN range(1, 12) | s || s) AS v",  # Neo4j 5's join, measured as +
    "RETURN reduce(l = [1], i IN range(1, 10) | l || l) AS v",
    "RETURN reduce(l = ['ab', {k: 'v'}], i IN range(1, 8) | l + l) AS v",
    "RETURN reduce(a = [], i IN range(1, 500) | a + [i, toString(i)]) AS v",
    "RETURN reduce(a = [], i IN range(1, 500) | [i] + a) AS v",
    "RETURN reduce(a = [], i IN range(1, 500) | a + i) AS v",  # list + scalar
    "RETURN reduce(a = [], i IN range(1, 50) | [a, range(1, i)]) AS v",
    "RETURN [i IN range(1, 300) | [i, 'x' + i]] AS v",
    "RETURN [i IN range(1, 300) WHERE i % 2 = 0 | range(1, i % 7)] AS v",
    "UNWIND range(1, 100) AS i RETURN collect('abcdefghijklmnopqrstuvwxyz' + i) AS v",
    "UNWIND [1, 1, 2, 'ab', 2, 'ab', [3]] AS i RETURN collect(DISTINCT i) AS v",
    "RETURN replace(reduce(s = 'ab', i IN range(1, 6) | s + s), '', 'xyz') AS v",
    "RETURN replace(reduce(s = 'ab', i IN range(1, 6) | s + s), 'b', 'ééé') AS v",
    "RETURN split(reduce(s = 'a,b', i IN range(1, 8) | s + s), ',') AS v",
    "RETURN split(reduce(s = 'aé', i IN range(1, 8) | s + s), '') AS v",
]


@pytest.mark.parametrize("statement", BUILT)
def test_a_value_passes_at_its_own_size_and_is_refused_one_byte_below(db, statement):
    value = db.execute(statement, policy=OPEN).rows[0][0]
    size = value_size(value, BIG)
    assert db.execute(statement, policy=Policy(expression_memory_limit=size)).rows[0][0] == value
    with pytest.raises(relate.RelateError) as e:
        db.execute(statement, policy=Policy(expression_memory_limit=size - 1))
    assert e.value.kind == "ExpressionMemoryLimit"
    assert e.value.message == ("runtime error: ExpressionMemoryLimit: a result value needs more than "
                               f"{size - 1} bytes (--expression-memory-limit)")


@pytest.mark.parametrize("statement", [
    "RETURN size(range(1, 3000)) AS n",
    "RETURN size(reduce(s = 'x', i IN range(1, 12) | s + s)) AS n",
    "RETURN size(reduce(l = [1], i IN range(1, 10) | l + l)) AS n",
    "RETURN size(reduce(s = 'x', i IN range(1, 12) | s || s)) AS n",
    "UNWIND range(1, 400) AS i RETURN size(collect(i)) AS n",
    "RETURN size([i IN range(1, 300) | [i, i]]) AS n",
    "RETURN size(replace('aaaa', 'a', reduce(s = 'x', i IN range(1, 10) | s + s))) AS n",
    "RETURN size(split(reduce(s = 'a,b', i IN range(1, 8) | s + s), ',')) AS n",
])
def test_a_value_that_is_never_returned_is_measured_as_it_is_built(db, statement):
    with pytest.raises(relate.RelateError) as e:
        db.execute(statement, policy=Policy(expression_memory_limit=1000))
    assert e.value.kind == "ExpressionMemoryLimit"
    assert db.execute(statement, policy=OPEN).rows[0][0] > 0


def test_the_percentile_and_stdev_lists_count(db):
    for fn in ("percentileDisc(i, 0.5)", "percentileCont(i, 0.5)", "stDev(i)", "stDevP(i)"):
        statement = f"UNWIND range(1, 100) AS i RETURN {fn} AS v"
        db.execute(statement, policy=Policy(expression_memory_limit=1600))  # 100 members of 16 bytes
        with pytest.raises(relate.RelateError):
            db.execute(statement, policy=Policy(expression_memory_limit=1599))


def test_the_defaults_are_kept():
    assert OPEN.budget() is None  # `connect()` and the CLI's statements: no limit, no accounting
    assert SERVED.budget().limit == 256 * 1024 * 1024
    db = relate.connect()
    assert db.execute("RETURN size(range(1, 2000000)) AS n").rows == [(2000000,)]


def test_builders_record_the_size_value_size_gives():
    b = Budget(BIG)
    xs = range_within(b, 1, 100, 3)
    assert b.last is xs and b.last_size == value_size(xs, BIG) == 16 * 34
    for a, c in [([1, 'two'], [{'k': [3.0]}]), ([1], 'é'), ('x', [None]), ('ab', 'cd')]:
        v = add_within(a, c, b)
        assert v == add(a, c)
        if isinstance(v, list):
            assert b.last is v and b.last_size == value_size(v, BIG)
    assert replace_within(b, 'abcabc', 'b', 'XYZ') == 'aXYZcaXYZc'
    assert split_within(b, 'a,b,,c', ',') == ['a', 'b', '', 'c']
    text = 'a,b;;c' * 10
    pieces = split_within(b, text, [',', ';'])
    size = value_size(pieces, BIG)
    assert split_within(Budget(size), text, [',', ';']) == pieces  # counted, then built
    with pytest.raises(relate.RelateError):
        split_within(Budget(size - 1), text, [',', ';'])


def test_a_range_too_long_to_index_is_refused_not_built():
    with pytest.raises(relate.RelateError) as e:
        range_within(Budget(1 << 30), -(1 << 63), (1 << 63) - 1)
    assert e.value.kind == "ExpressionMemoryLimit"


def test_a_walk_counts_remembered_values_without_walking_them():
    b = Budget(BIG)
    xs = list(range(1000))
    b.built(xs, 123)  # a wrong size on purpose: the walk must take it, not measure
    assert value_size(xs, BIG, b) == 123
    assert value_size([xs, 'ab'], BIG, b) == 16 + 123 + 2
    b.hold([xs])  # reduce()'s accumulator
    acc = b.acc
    assert b.acc_size == 8 + 123
    assert value_size([acc, acc], BIG, b) == 16 + 2 * 131
    assert value_size(xs, BIG) == 16 * 1000  # the result check measures for itself


def test_a_string_concatenation_is_refused_before_it_is_built():
    b = Budget(10)
    assert add_within('abcde', 'fghij', b) == 'abcdefghij'
    with pytest.raises(relate.RelateError):
        add_within('abcde', 'fghijk', b)
    with pytest.raises(relate.RelateError):
        add_within('éé', 'éééé', b)  # 6 characters, 12 bytes
    with pytest.raises(relate.RelateError):
        add_within('abcdefghi', 10, b)
