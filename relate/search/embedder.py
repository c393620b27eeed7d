"""Text -> a unit vector, for vector search by `queryText`.

`HashingEmbedder` is the default everywhere (natively and in the browser, the same numbers):
signed feature hashing, with blake2b (never the salted built-in `hash`), of the text's words,
word pairs and character 3- to 5-grams into `dim` dimensions, then L2-normalised.  It measures
shared wording, not meaning.  Other embedders plug in through `register`: an object with
`name`, `dim` and `embed(texts) -> list[list[float]]`.
"""
from __future__ import annotations

import hashlib
import math
from collections.abc import Callable

from .analyzers import ANALYZERS


class HashingEmbedder:
    name = "hashing"

    def __init__(self, dim: int = 384) -> None:
        self.dim = dim

    def _features(self, text: str):
        words = ANALYZERS["unicode-v2+fold"].terms(text)
        for w in words:
            yield "w:" + w, 1.0
            padded = f"<{w}>"
            for n in (3, 4, 5):
                for i in range(len(padded) - n + 1):
                    yield "c:" + padded[i:i + n], 0.5
        for a, b in zip(words, words[1:]):
            yield f"b:{a} {b}", 0.7

    def embed_one(self, text: str) -> list[float]:
        v = [0.0] * self.dim
        dim = self.dim
        for feat, w in self._features(text):
            h = int.from_bytes(hashlib.blake2b(feat.encode(), digest_size=8).digest(), "little")
            v[h % dim] += w if (h >> 63) & 1 else -w
        norm = math.sqrt(sum(x * x for x in v))
        return [x / norm for x in v] if norm else v

    def embed(self, texts: list[str]) -> list[list[float]]:
        return [self.embed_one(t) for t in texts]


_FACTORIES: dict[str, Callable[[], object]] = {"hashing": HashingEmbedder}
_MADE: dict[str, object] = {}


def register(name: str, factory: Callable[[], object]) -> None:
    """Make an embedder available by name (`vector_search(..., options={"embedder": name})`)."""
    _FACTORIES[name] = factory
    _MADE.pop(name, None)


def names() -> list[str]:
    return sorted(_FACTORIES)


def get(name: str | None = None):
    """The embedder called `name` (the default: hashing); None when no such one is registered."""
    name = name or "hashing"
    made = _MADE.get(name)
    if made is None:
        factory = _FACTORIES.get(name)
        if factory is None:
            return None
        made = _MADE[name] = factory()
    return made
