"""A generated corpus for the search tests: Zipf-distributed words over a made-up vocabulary,
seeded, so every run (and the reference engine) sees the same documents."""
from __future__ import annotations

import random

SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "qu", "ba", "do", "fe", "gi", "ho"]


def vocabulary(n: int, seed: int = 7) -> list[str]:
    rnd = random.Random(seed)
    words: dict[str, None] = {}
    while len(words) < n:
        words["".join(rnd.choice(SYLLABLES) for _ in range(rnd.randint(2, 4)))] = None
    return list(words)


def documents(n: int, vocab: list[str], seed: int = 11, lo: int = 5, hi: int = 60) -> list[str]:
    rnd = random.Random(seed)
    weights = [1.0 / (r + 1) ** 1.05 for r in range(len(vocab))]
    return [" ".join(rnd.choices(vocab, weights, k=rnd.randint(lo, hi))) for _ in range(n)]


def queries(vocab: list[str], n: int = 40, seed: int = 13) -> list[str]:
    """Queries of one to four words, from the common head, the middle and the rare tail."""
    rnd = random.Random(seed)
    out = []
    for i in range(n):
        pool = vocab[:20] if i % 3 == 0 else (vocab[20:300] if i % 3 == 1 else vocab[300:])
        out.append(" ".join(rnd.sample(pool, rnd.randint(1, 4))))
    return out
