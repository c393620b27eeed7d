"""A hit's text + the terms it matched -> snippets, an excerpt and the matched words.

- snippet: the window of `size` tokens holding the most distinct matched terms (the earliest
  such window), matched words wrapped in `[` `]`, `…` where the window cuts the text;
- excerpt: the text around the first match, at most `chars` characters, cut at spaces;
- matched words: the words of the text (as written) whose terms the hit matched.
"""
from __future__ import annotations

OPEN, CLOSE, ELLIPSIS = "[", "]", "…"


def snippet(text: str, analyzer, matched: set[str], size: int) -> str | None:
    toks = analyzer.tokens(text)
    if not toks:
        return None
    hits = [i for i, (t, _, _) in enumerate(toks) if t in matched]
    if not hits:
        return None
    best, best_n = 0, -1
    for start in hits:
        lo = max(0, min(start, len(toks) - size))
        n = len({toks[i][0] for i in range(lo, min(len(toks), lo + size)) if toks[i][0] in matched})
        if n > best_n:
            best, best_n = lo, n
    lo, hi = best, min(len(toks), best + size)
    start_char = toks[lo][1] if lo > 0 else 0
    end_char = toks[hi - 1][2] if hi < len(toks) else len(text)
    out, pos = [], start_char
    for i in range(lo, hi):
        t, a, b = toks[i]
        if t in matched:
            out.append(text[pos:a])
            out.append(OPEN + text[a:b] + CLOSE)
            pos = b
    out.append(text[pos:end_char])
    body = "".join(out).strip()
    return (ELLIPSIS if lo > 0 else "") + body + (ELLIPSIS if hi < len(toks) else "")


def excerpt(text: str, analyzer, matched: set[str], chars: int) -> str:
    first = next((a for t, a, _ in analyzer.tokens(text) if t in matched), 0)
    if len(text) <= chars:
        return text
    lo = max(0, first - chars // 3)
    if lo > 0:
        sp = text.find(" ", lo)
        lo = sp + 1 if 0 <= sp < first else lo
    hi = min(len(text), lo + chars)
    if hi < len(text):
        sp = text.rfind(" ", lo, hi)
        hi = sp if sp > first else hi
    return (ELLIPSIS if lo > 0 else "") + text[lo:hi].strip() + (ELLIPSIS if hi < len(text) else "")


def matched_words(text: str, analyzer, matched: set[str]) -> list[str]:
    return list(dict.fromkeys(text[a:b] for t, a, b in analyzer.tokens(text) if t in matched))
