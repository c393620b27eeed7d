"""What a `relate "RETURN 1"` process loads (issue 22, cold start): the statement path reads its
command line without argparse and leaves out the modules a plain statement never uses; the
command line read that way is the one argparse reads."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from relate.cli.main import _statements_only
from relate.cli.parsers import build_parser

# loaded on first use only: by a command line with flags, a date, a search, a refused statement,
# the table or TOON mode, a failure
NOT_LOADED = ("argparse", "relate.cli.parsers", "relate.temporal", "relate.search.fulltext",
              "relate.search.vectors", "relate.output.table", "relate.output.toon",
              "relate.syntax.unsupported", "relate.syntax.malformed")


@pytest.mark.parametrize("argv", [[], ["RETURN 1"], ["RETURN 1", "RETURN 2"], [""],
                                  ["MATCH (n) RETURN n; RETURN 1"], ["RETURN '-x'"]])
def test_a_command_line_of_statements_reads_as_argparse_reads_it(argv):
    assert vars(_statements_only(argv)) == vars(build_parser().parse_args(argv))


@pytest.mark.parametrize("argv", [["--mode", "table", "RETURN 1"], ["RETURN 1", "--safe"], ["-"],
                                  ["-f", "x.cypher"], ["--", "RETURN 1"], ["--version"]])
def test_a_command_line_with_flags_goes_to_argparse(argv):
    assert _statements_only(argv) is None


def test_a_plain_statement_loads_none_of_what_it_does_not_use():
    code = ("import io, json, sys\n"
            "from relate.cli.main import run\n"
            "out = io.StringIO()\n"
            "code = run(['RETURN 1 AS x'], stdout=out)\n"
            f"print(json.dumps([code, out.getvalue(), [m for m in {NOT_LOADED!r} if m in sys.modules]]))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    code, out, loaded = json.loads(proc.stdout)
    assert (code, out.splitlines()[0], loaded) == (0, '{"x":1}', [])
