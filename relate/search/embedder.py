"""Text -> a unit vector, for vector search by `queryText`.

`HashingEmbedder` is the default everywhere (natively and in the browser, the same numbers):
signed feature hashing, with blake2b (never the salted built-in `hash`), of the text's words,
word pairs and character 3- to 5-grams into `dim` dimensions, then L2-normalised.  It measures
shared wording, not meaning.  Other embedders plug in through `register`: an object with
`name`, `dim` and `embed(texts) -> list[list[float]]`.

`static-model` is a real sentence model, natively only and only where the optional package
`tokenlearn-static-model` is installed (`pip install relate[embed]`): a Model2Vec-style static
model (token embeddings averaged, 64 dimensions, int8) whose weights ship inside that package, so
nothing is downloaded at run time.  It is listed and made on first use, never imported before.
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


class StaticModelEmbedder:
    """tokenlearn-static-model's bundled static model: text -> 64 numbers by meaning."""

    name = "static-model"
    dim = 64

    def __init__(self) -> None:
        from static_model import get_embeddings  # native only (a compiled tokenizer), optional
        self._embed = get_embeddings

    def embed(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        return [[float(x) for x in v] for v in self._embed(list(texts))]


_FACTORIES: dict[str, Callable[[], object]] = {"hashing": HashingEmbedder}
_MADE: dict[str, object] = {}
# embedders whose package may be missing: name -> (module to look for, factory)
_OPTIONAL: dict[str, tuple[str, Callable[[], object]]] = {"static-model": ("static_model", StaticModelEmbedder)}
_FOUND: dict[str, bool] = {}


def _installed(name: str) -> bool:
    got = _FOUND.get(name)
    if got is None:
        import importlib.util
        module = _OPTIONAL[name][0]
        try:
            got = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            got = False
        _FOUND[name] = got
    return got


def register(name: str, factory: Callable[[], object]) -> None:
    """Make an embedder available by name (`vector_search(..., options={"embedder": name})`)."""
    _FACTORIES[name] = factory
    _MADE.pop(name, None)


def names() -> list[str]:
    return sorted(set(_FACTORIES) | {n for n in _OPTIONAL if n not in _FACTORIES and _installed(n)})


def get(name: str | None = None):
    """The embedder called `name` (the default: hashing); None when no such one is registered."""
    name = name or "hashing"
    made = _MADE.get(name)
    if made is None:
        factory = _FACTORIES.get(name)
        if factory is None and name in _OPTIONAL and _installed(name):
            factory = _OPTIONAL[name][1]
        if factory is None:
            return None
        made = _MADE[name] = factory()
    return made
