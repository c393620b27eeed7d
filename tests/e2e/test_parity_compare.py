"""The parity check itself (no browser): one differing byte fails, differing timings pass."""
import pytest

from parity import assert_parity, normalise

REPLY = ('{"jsonrpc":"2.0","id":2,"result":{"content":[{"text":"{\\"columns\\":[\\"n\\"],'
         '\\"elapsed_ms\\":0.412,\\"execute_ms\\":1.5e-05,\\"plan_cache\\":\\"miss\\",'
         '\\"rows\\":[{\\"n\\":1}]}","type":"text"}],"isError":false}}')
ENVELOPE = ('{"columns":["n"],"planCache":"miss","rows":[{"n":1}],'
            '"timings":{"elapsed_ms":0.678416,"execute_ms":0.52966600000000001,"parse_ms":2}}\n')


def test_identical_replies_pass():
    assert_parity(REPLY, REPLY)


def test_only_timings_differ_passes_in_escaped_json():
    other = REPLY.replace("0.412", "17.25").replace("1.5e-05", "3")
    assert other != REPLY
    assert_parity(REPLY, other)


def test_only_timings_differ_passes_in_plain_json_and_cli_results():
    other = ENVELOPE.replace("0.678416", "1.2").replace("0.52966600000000001", "0.3")
    assert_parity({"stdout": ENVELOPE, "stderr": "", "exitCode": 0},
                  {"stdout": other, "stderr": "", "exitCode": 0})


@pytest.mark.parametrize("position", [0, 30, len(REPLY) // 2, len(REPLY) - 1])
def test_one_differing_byte_fails(position):
    changed = REPLY[:position] + ("X" if REPLY[position] != "X" else "Y") + REPLY[position + 1:]
    with pytest.raises(AssertionError, match="first difference"):
        assert_parity(changed, REPLY)


def test_plan_cache_outcome_is_not_a_timing():
    with pytest.raises(AssertionError):
        assert_parity(REPLY, REPLY.replace('\\"miss\\"', '\\"hit-raw-fastpath\\"'))


def test_a_missing_or_extra_newline_fails():
    with pytest.raises(AssertionError):
        assert_parity(ENVELOPE, ENVELOPE.rstrip("\n"))


def test_exit_code_and_no_reply_are_compared():
    with pytest.raises(AssertionError, match="exitCode"):
        assert_parity({"stdout": "", "stderr": "", "exitCode": 0},
                      {"stdout": "", "stderr": "", "exitCode": 6})
    with pytest.raises(AssertionError):
        assert_parity(None, REPLY)
    assert_parity(None, None)


def test_normalise_leaves_other_numbers_alone():
    assert normalise('{"since":2024,"elapsed_ms":3.5}') == '{"since":2024,"elapsed_ms":<ms>}'
    assert normalise('\\"total_ms\\": -1') == '\\"total_ms\\": <ms>'
