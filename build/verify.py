"""A page's Markdown -> its `bash verify` blocks, each with the output the page promises.

    ```bash verify [exit=N]      shell commands a reader can paste; they run in one folder per
    relate ...                   page, block after block, so a later block sees the files an
    ```                          earlier one wrote
    ```text                      the next fence, when it is a `text` block, is the expected
    ...                          output (stdout and stderr as one stream, as a terminal shows
    ```                          them); no such block means the commands print nothing

Timings (`"elapsed_ms":0.41`) are written as `<ms>` on the page, since they change every run;
tests/e2e/test_docs_verify.py runs every case against the native `relate` and compares the rest
byte for byte.  build/blocks.py renders the command block with a note that it is checked.
"""
from __future__ import annotations

from dataclasses import dataclass

from markdown import fences


@dataclass(frozen=True)
class VerifyCase:
    command: str
    expected: str  # with a trailing newline when not empty, as the commands print it
    exit_code: int
    line: int  # the opening fence's line, to point at the block in a failure


def verify_cases(text: str) -> list[VerifyCase]:
    blocks = fences(text)
    cases = []
    for n, fence in enumerate(blocks):
        if fence.lang != "bash" or "verify" not in fence.flags:
            continue
        following = blocks[n + 1] if n + 1 < len(blocks) else None
        expected = following.body + "\n" if following is not None and following.lang == "text" else ""
        cases.append(VerifyCase(fence.body, expected, int(fence.options.get("exit", "0")), fence.line))
    return cases
