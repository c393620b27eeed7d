"""Text -> index terms, by the analyzer a full-text search names.

- `default`: lower-cased runs of the letters a-z and the digits 0-9 (other letters split words
  and are dropped; `has_other_letters` tells a caller so, for FULLTEXT_TOKENIZER_LIMITED).
- `unicode-v2`: NFKC, case folding, runs of word characters of every script; runs of Han,
  Hiragana, Katakana or Hangul become overlapping bigrams (a one-character run stays itself).
- `+fold` also drops diacritics (NFKD without combining marks, and a table for the letters
  that do not decompose); `+stem` also stems with Porter's English algorithm.

`tokens(text)` gives (term, start, end) with character offsets into the original text, which
snippets and excerpts read; `terms(text)` only the terms.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from .porter import stem

DEFAULT = "default"
NAMES = ("default", "unicode-v2", "unicode-v2+fold", "unicode-v2+stem", "unicode-v2+fold+stem")

_ASCII_WORD = re.compile(r"[a-z0-9]+")
_WORD = re.compile(r"\w+")
_OTHER = re.compile(r"[^\W_a-zA-Z0-9]")
_FOLD_TABLE = str.maketrans({"ø": "o", "ł": "l", "đ": "d", "ħ": "h", "æ": "ae", "œ": "oe", "þ": "th",
                             "ı": "i", "ŧ": "t", "ð": "d"})


def _cjk(c: str) -> bool:
    o = ord(c)
    return (0x3040 <= o <= 0x30FF or 0x3400 <= o <= 0x4DBF or 0x4E00 <= o <= 0x9FFF or 0xAC00 <= o <= 0xD7AF
            or 0xF900 <= o <= 0xFAFF or 0x1100 <= o <= 0x11FF or 0x20000 <= o <= 0x2FA1F)


def has_other_letters(text: str) -> bool:
    """Whether `text` has letters or digits outside a-z, A-Z, 0-9 (the default analyzer drops them)."""
    return _OTHER.search(text) is not None


def _fold(word: str) -> str:
    decomposed = unicodedata.normalize("NFKD", word)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).translate(_FOLD_TABLE)


@dataclass(frozen=True, slots=True)
class Analyzer:
    name: str
    unicode: bool
    fold: bool
    stem: bool

    def tokens(self, text: str) -> list[tuple[str, int, int]]:
        if not self.unicode:
            return [(m.group(), m.start(), m.end()) for m in _ASCII_WORD.finditer(text.lower())]
        out: list[tuple[str, int, int]] = []
        for m in _WORD.finditer(text):
            raw, start = m.group(), m.start()
            # CJK runs inside a word become bigrams; the rest of the word is one term per run
            i, L = 0, len(raw)
            while i < L:
                j = i
                cjk = _cjk(raw[i])
                while j < L and _cjk(raw[j]) == cjk:
                    j += 1
                if cjk:
                    if j - i == 1:
                        out.append((self._norm(raw[i]), start + i, start + j))
                    else:
                        for a in range(i, j - 1):
                            out.append((self._norm(raw[a:a + 2]), start + a, start + a + 2))
                else:
                    piece = raw[i:j].replace("_", " ").split()
                    pos = i
                    for p in piece:
                        at = raw.index(p, pos)
                        out.append((self._norm(p), start + at, start + at + len(p)))
                        pos = at + len(p)
                i = j
        return [t for t in out if t[0]]

    def _norm(self, word: str) -> str:
        w = unicodedata.normalize("NFKC", word).casefold()
        if self.fold:
            w = _fold(w)
        if self.stem:
            w = stem(w)
        return w

    def terms(self, text: str) -> list[str]:
        if not self.unicode:
            return _ASCII_WORD.findall(text.lower())
        return [t for t, _, _ in self.tokens(text)]

    def term(self, word: str) -> str:
        """One query word as the index holds it (the analyzer's normalisation, without splitting)."""
        if not self.unicode:
            return word.lower()
        return self._norm(word)


ANALYZERS: dict[str, Analyzer] = {
    "default": Analyzer("default", False, False, False),
    "unicode-v2": Analyzer("unicode-v2", True, False, False),
    "unicode-v2+fold": Analyzer("unicode-v2+fold", True, True, False),
    "unicode-v2+stem": Analyzer("unicode-v2+stem", True, False, True),
    "unicode-v2+fold+stem": Analyzer("unicode-v2+fold+stem", True, True, True),
}


def analyzer(name: str | None, invalid: Callable[[str], Exception]) -> Analyzer:
    found = ANALYZERS.get(name or DEFAULT)
    if found is None:
        raise invalid(f"analyzer must be one of {', '.join(NAMES)}, got {name!r}")
    return found
