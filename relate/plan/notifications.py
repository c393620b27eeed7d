"""The notifications a plan can carry, built from what the planner saw."""
from __future__ import annotations

from ..result import Notification


def missing_index(label: str, key: str, operator_id: int | None = None) -> Notification:
    """An equality filter on a labelled node's property that no index answers."""
    return Notification(
        code="Relate.Notification.Statement.MissingIndex",
        gql_status="03C91",
        severity="INFORMATION",
        category="PERFORMANCE",
        title="Missing index",
        description=f"the equality predicate on {key} filters :{label} without a range index on (:{label} {{{key}}})",
        remedy=f"CREATE INDEX relate_{label}__{key} FOR (n:{label}) ON (n.{key})",
        operator_id=operator_id,
    )
