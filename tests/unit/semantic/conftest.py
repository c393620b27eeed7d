"""Compile-time behaviour does not depend on the store: `db` here is one `:memory:` connection
(the engine suites above this folder run on every store kind)."""
from __future__ import annotations

import pytest

import relate


@pytest.fixture
def db():
    return relate.connect(":memory:")
