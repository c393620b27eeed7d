"""Full-text search at a past time (at_valid / at_recorded over the history's view), through the
Python API, the procedure and the tool call, on every store kind; and db.createFulltextIndex
counted in the statement's stats."""
from __future__ import annotations

import pytest

from relate.errors import RelateError
from relate.search.tool import call_fulltext
from relate.temporal.instant import parse_ns


class Clock:
    def __init__(self, iso: str) -> None:
        self.t = parse_ns(iso)

    def set(self, iso: str) -> None:
        self.t = parse_ns(iso)

    def __call__(self) -> int:
        return self.t


@pytest.fixture
def clock():
    return Clock("2020-01-01T00:00:00Z")


@pytest.fixture
def edited(db, clock, reopen):
    """Doc 0 said 'old words' from 2020, 'new text' from 2022 (recorded then); in 2024 we learn
    that from 2023 it said 'late text'.  Doc 1 was made in 2023 (valid from then)."""
    db.clock = clock
    db.execute("CREATE (:Doc {text: 'old words here'})")
    clock.set("2022-01-01T00:00:00Z")
    db.execute("MATCH (d:Doc) SET d.text = 'new text here'")
    clock.set("2023-01-01T00:00:00Z")
    db.execute("CREATE (:Doc {text: 'other words'})")
    clock.set("2024-01-01T00:00:00Z")
    db.execute("AT VALID '2023-06-01' MATCH (d:Doc) WHERE d.text STARTS WITH 'new' SET d.text = 'late text'")
    clock.set("2025-01-01T00:00:00Z")
    db = reopen(db)
    db.clock = clock
    return db


def ids(out) -> list[int]:
    return sorted(h["node_id"] for h in out["hits"])


@pytest.mark.parametrize("declared", [False, True])
def test_search_at_an_old_time_finds_the_old_words(edited, declared):
    db = edited
    if declared:
        db.create_fulltext_index("Doc", "text")
    assert ids(db.fulltext_search("Doc", "text", "old")) == []
    assert ids(db.fulltext_search("Doc", "text", "late")) == [0]
    if not declared:
        # the time options read a declared index's history; without one they are refused
        with pytest.raises(RelateError) as e:
            db.fulltext_search("Doc", "text", "old", at_valid="2021-01-01")
        assert e.value.kind == "FulltextIndexNotFound"
        return
    assert ids(db.fulltext_search("Doc", "text", "old", at_valid="2021-01-01")) == [0]
    assert ids(db.fulltext_search("Doc", "text", "new", at_valid="2021-01-01")) == []
    assert ids(db.fulltext_search("Doc", "text", "new", at_valid="2022-06-01")) == [0]
    assert ids(db.fulltext_search("Doc", "text", "words", at_valid="2021-01-01")) == [0]
    assert ids(db.fulltext_search("Doc", "text", "words", at_valid="2023-03-01")) == [1]
    # valid mid-2023: 'late text' as recorded now, 'new text' as recorded at the start of 2024
    assert ids(db.fulltext_search("Doc", "text", "late", at_valid="2023-07-01")) == [0]
    assert ids(db.fulltext_search("Doc", "text", "new", at_valid="2023-07-01", at_recorded="2023-12-31")) == [0]
    assert ids(db.fulltext_search("Doc", "text", "late", at_valid="2023-07-01", at_recorded="2023-12-31")) == []
    # at_recorded alone: valid now, as the database had it recorded then
    assert ids(db.fulltext_search("Doc", "text", "new", at_recorded="2023-12-31")) == [0]
    assert ids(db.fulltext_search("Doc", "text", "late", at_recorded="2023-12-31")) == []
    # and the current answer is unchanged by the searches at other times
    assert ids(db.fulltext_search("Doc", "text", "late")) == [0]
    assert ids(db.fulltext_search("Doc", "text", "old")) == []


def test_scores_at_a_past_time_count_the_documents_of_that_time(edited):
    db = edited
    db.create_fulltext_index("Doc", "text")
    then = db.fulltext_search("Doc", "text", "words", at_valid="2021-01-01")
    assert then["total"] == 1 and then["hits"][0]["score"] == pytest.approx(0.2876820724517809)
    page = db.fulltext_search("Doc", "text", "text", at_valid="2022-06-01", k=1)
    assert page["complete"] and page["total"] == 1 and page["stale"] is False


def test_the_procedure_and_the_tool_search_at_a_past_time(edited):
    db = edited
    db.execute("CALL db.createFulltextIndex('Doc', 'text')")
    rows = db.execute("CALL db.fulltextSearch('Doc', 'text', 'old', 5, {at_valid: '2021-01-01'}) "
                      "YIELD node, nodeId RETURN nodeId, node.text").rows
    assert rows == [(0, "old words here")]   # the node as it was then
    out = call_fulltext(db.graph, {"label": "Doc", "property": "text", "query": "old", "at_valid": "2021-01-01"},
                        db.search_scope())
    assert ids(out) == [0] and out["index"] == "declared"
    with pytest.raises(RelateError) as e:
        db.execute("AS OF '2021-01-01' CALL db.fulltextSearch('Doc', 'text', 'old', 5, {at_valid: '2021-01-01'}) "
                   "YIELD nodeId RETURN nodeId")
    assert e.value.kind == "FulltextOptionInvalid" and "AS OF" in e.value.detail
    # inside AS OF, a search without the options reads the statement's time
    rows = db.execute("AS OF '2021-01-01' CALL db.fulltextSearch('Doc', 'text', 'old', 5) "
                      "YIELD nodeId RETURN nodeId").rows
    assert rows == [(0,)]


def test_bad_times_and_the_history_limit(edited):
    db = edited
    db.create_fulltext_index("Doc", "text")
    for bad in ({"at_valid": "soon"}, {"at_recorded": 5}, {"at_valid": ""}):
        with pytest.raises(RelateError) as e:
            db.fulltext_search("Doc", "text", "old", **bad)
        assert e.value.kind == "FulltextOptionInvalid"
    db.temporal_read_limit = 1
    with pytest.raises(RelateError) as e:
        db.fulltext_search("Doc", "text", "old", at_valid="2021-01-01")
    assert e.value.kind == "TemporalReadLimit"


def test_create_fulltext_index_counts_in_the_stats(db):
    db.execute("CREATE (:Doc {text: 'x'})")
    assert db.execute("CALL db.createFulltextIndex('Doc', 'text')").stats.indexes_added == 1
    assert db.execute("CALL db.createFulltextIndex('Doc', 'text')").stats.indexes_added == 0
    assert db.execute("CREATE FULLTEXT INDEX t2 FOR (n:Doc) ON EACH [n.title]").stats.indexes_added == 1
