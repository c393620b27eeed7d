"""The real sentence model behind `embedder.register`: `static-model` (tokenlearn-static-model's
bundled weights, installed by the test extra) finds a paraphrase that shares no word with the
query, which the hashing embedder cannot; and it is listed only when its package is there."""
from __future__ import annotations

import math

import static_model  # noqa: F401  the test extra installs it (native only: a compiled tokenizer)

import relate
from relate.search import embedder as embedders

DOCS = ["a kitten sleeps on the rug", "the stock market fell sharply today", "heavy rain flooded the town"]


def cos(a, b) -> float:
    return sum(x * y for x, y in zip(a, b)) / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))


def test_static_model_is_listed_and_embeds_by_meaning():
    assert "static-model" in embedders.names()
    emb = embedders.get("static-model")
    assert emb.name == "static-model" and emb.dim == 64
    q, *docs = emb.embed(["a cat is napping on a carpet", *DOCS])
    assert len(q) == 64 and abs(math.sqrt(sum(x * x for x in q)) - 1.0) < 1e-4
    sims = [cos(q, d) for d in docs]
    assert sims[0] > max(sims[1:]) + 0.2
    hashing = embedders.get("hashing")
    hq, *hd = hashing.embed(["a cat is napping on a carpet", *DOCS])
    # no shared word but "a"/"on": the hashing embedder does not tell the paraphrase apart
    assert max(cos(hq, d) for d in hd) < 0.25


def test_vector_search_with_the_static_model():
    db = relate.connect(":memory:")
    emb = embedders.get("static-model")
    db.execute("UNWIND range(0, size($t) - 1) AS i CREATE (:Doc {text: $t[i], emb: $e[i]})",
               {"t": DOCS, "e": emb.embed(DOCS)})
    out = db.vector_search("Doc", "emb", query_text="investors lost money", k=1, embedder="static-model")
    assert out["embedder"] == "static-model" and [h["node_id"] for h in out["hits"]] == [1]
    rows = db.execute("CALL db.vectorSearch('Doc', 'emb', 'storm and floods', 1, {embedder: 'static-model'}) "
                      "YIELD nodeId RETURN nodeId").rows
    assert rows == [(2,)]


def test_an_optional_embedder_whose_package_is_missing_is_not_offered(monkeypatch):
    monkeypatch.setitem(embedders._OPTIONAL, "absent-model", ("no_such_module_here", object))
    assert "absent-model" not in embedders.names() and embedders.get("absent-model") is None
