"""Statements the fuzz (test_fuzz.py) found answering `Error: internal error` (or worse) over
MCP, each now a typed error the client can read, with the server serving on.  (Issue 14.)

- an aggregate with the wrong number of arguments: `percentileCont(x)` failed at run time with
  a TypeError (internal error), `avg()` answered a Python sentinel, `sum(1, 2)` ignored the
  second argument; now `InvalidNumberOfArguments`, as for every other function;
- a date whose day does not fit a C long (`date({year: 1984, month: 10, day: 2^63-1})`):
  an OverflowError (internal error); now the `InvalidArgumentValue` a day out of range gets;
- a list slice with a bound that is no integer (`[1, 2, 3][localtime()..1]`, `[..1.5]`): a
  TypeError from Python's slicing; now `InvalidArgumentType`, as slicing a non-list is;
- `any`/`all`/`none`/`single` over an aggregate's value that is no list (`max(a)` of booleans):
  a TypeError; now the `InvalidArgumentType` list comprehensions already answer.
"""
from __future__ import annotations

import json
import subprocess

import pytest

import relate
from relate.errors import RelateError
from tests.net.server import RELATE, rpc, tool_call

CASES = [
    ("UNWIND [1, 2.0, 5, null] AS x RETURN percentileCont(x) AS p",
     "Error: semantic error: InvalidNumberOfArguments: percentileCont() takes 2..2 argument(s), got 1"),
    ("RETURN percentileDisc(1) AS p",
     "Error: semantic error: InvalidNumberOfArguments: percentileDisc() takes 2..2 argument(s), got 1"),
    ("RETURN avg() AS a", "Error: semantic error: InvalidNumberOfArguments: avg() takes 1..1 argument(s), got 0"),
    ("RETURN sum(1, 2) AS s",
     "Error: semantic error: InvalidNumberOfArguments: sum() takes 1..1 argument(s), got 2"),
    ("RETURN date({year: 1984, month: 10, day: 9223372036854775807}) AS d",
     "Error: argument error: InvalidArgumentValue: invalid date: day 9223372036854775807 of month 10 in year 1984"),
    ("RETURN localdatetime({year: 1984, month: 10, day: -9223372036854775808}) AS d",
     "Error: argument error: InvalidArgumentValue: invalid date: day -9223372036854775808 of month 10 in year 1984"),
    ("RETURN [1, 2, 3][localtime('23:59:59')..1] AS r",
     "Error: type error: InvalidArgumentType: a slice bound must be an integer, got TIME"),
    ("WITH 1.5 AS f RETURN [1, 2, 3][0..f] AS r",
     "Error: type error: InvalidArgumentType: a slice bound must be an integer, got FLOAT"),
    ("UNWIND [true, null] AS a WITH max(a) AS m RETURN any(x IN m WHERE x) AS r",
     "Error: type error: InvalidArgumentType: expected a list, got BOOLEAN"),
    ("WITH count(*) AS m RETURN none(x IN m WHERE x) AS r",
     "Error: type error: InvalidArgumentType: expected a list, got INTEGER"),
]


def test_stdio_answers_each_with_a_typed_error(tmp_path):
    requests = [tool_call(i, "read_cypher", statement=s) for i, (s, _) in enumerate(CASES)]
    requests.append(rpc(len(CASES), "ping"))
    proc = subprocess.run([RELATE, "serve", "--mcp", "stdio", "--database", str(tmp_path / "f.rl")],
                          input=b"\n".join(requests) + b"\n", capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")
    replies = [json.loads(line) for line in proc.stdout.decode("utf-8").splitlines()]
    assert [r["id"] for r in replies] == list(range(len(CASES) + 1))
    for (_, message), reply in zip(CASES, replies):
        assert reply["result"] == {"content": [{"text": message, "type": "text"}], "isError": True}
    assert replies[-1]["result"] == {}
    assert b"Traceback" not in proc.stderr


@pytest.mark.parametrize("statement", ["UNWIND [1, 2.0, null] AS x RETURN percentileCont(x, 0.5) AS c, "
                                       "percentileDisc(x, 0.5) AS d, avg(x) AS a, sum(x) AS s, count(*) AS n"])
def test_the_right_arities_still_answer(statement):
    with relate.connect() as db:
        assert db.execute(statement).rows == [(1.5, 1, 1.5, 3.0, 3)]
        with pytest.raises(RelateError) as e:
            db.execute("RETURN collect() AS c")
        assert e.value.kind == "InvalidNumberOfArguments"
