"""What each analyzer lets a search find: the default's a-z/0-9 words and its warning, every
script with unicode-v2 (CJK by bigrams), diacritics folded, English stems."""
from __future__ import annotations

import pytest

import relate
from relate.search.analyzers import ANALYZERS

TEXTS = ["Crème brûlée au café", "Москва и Санкт-Петербург", "東京都に住んでいます", "running runners ran",
         "plain ascii words 42"]


@pytest.fixture
def db():
    conn = relate.connect(":memory:")
    conn.execute("UNWIND $t AS t CREATE (:Doc {text: t})", {"t": TEXTS})
    yield conn
    conn.close()


def ids(out) -> list[int]:
    return [h["node_id"] for h in out["hits"]]


def test_default_matches_ascii_words_only_and_warns(db):
    out = db.fulltext_search("Doc", "text", "ascii 42")
    assert ids(out) == [4] and out["warnings"] == []
    out = db.fulltext_search("Doc", "text", "Москва")
    assert ids(out) == []
    assert [w["code"] for w in out["warnings"]] == ["FULLTEXT_TOKENIZER_LIMITED"]
    # "brûlée" splits into "br" and "l" + "e": the warning says why it may miss
    assert [w["code"] for w in db.fulltext_search("Doc", "text", "café")["warnings"]] == ["FULLTEXT_TOKENIZER_LIMITED"]


def test_unicode_v2_indexes_every_script(db):
    assert ids(db.fulltext_search("Doc", "text", "москва", analyzer="unicode-v2")) == [1]
    assert ids(db.fulltext_search("Doc", "text", "東京", analyzer="unicode-v2")) == [2]
    assert ids(db.fulltext_search("Doc", "text", "café", analyzer="unicode-v2")) == [0]
    assert db.fulltext_search("Doc", "text", "москва", analyzer="unicode-v2")["warnings"] == []
    # without folding an accent is part of the word
    assert ids(db.fulltext_search("Doc", "text", "cafe", analyzer="unicode-v2")) == []


def test_cjk_runs_become_bigrams():
    terms = ANALYZERS["unicode-v2"].terms("東京都")
    assert terms == ["東京", "京都"]


def test_fold_and_stem(db):
    assert ids(db.fulltext_search("Doc", "text", "creme brulee", analyzer="unicode-v2+fold")) == [0]
    assert ids(db.fulltext_search("Doc", "text", "run", analyzer="unicode-v2+stem")) == [3]
    assert ids(db.fulltext_search("Doc", "text", "run", analyzer="unicode-v2")) == []
    assert sorted(ids(db.fulltext_search("Doc", "text", "CAFE RUNNING", analyzer="unicode-v2+fold+stem"))) == [0, 3]
