"""Index choice as a user sees it: the missing-index notification, and the seek once the index exists."""
from __future__ import annotations


def test_index_removes_missing_index_notification(team):
    q = "MATCH (p:Project {name: 'relate'}) RETURN p.language"
    first = team.execute(q, notifications=True)
    assert [n.title for n in first.notifications] == ["Missing index"]
    assert team.execute("CREATE INDEX FOR (p:Project) ON (p.name)").stats.indexes_added == 1
    after = team.execute(q, notifications=True)
    assert after.notifications == () and after.rows == [("Rust",)]
    assert after.plan.children[0].operator == "NodeIndexSeek"
