"""Neo4j's own Python driver (6.4.1) in its HTTP mode (`http://`, the Query API v2, typed JSON)
against a real `relate serve --http` process: the Bolt driver tests' cases, run again through
the Query API.  The HTTP mode cannot resolve a home database, so every call names `neo4j`."""
from __future__ import annotations

import warnings

import pytest

from tests.net.query_server import PASSWORD, USER, start_query
from tests.net.test_bolt_driver import (  # noqa: F401  (collected here again, with this module's fixtures)
    test_a_second_writer_gets_a_retryable_error_not_a_hang, test_an_open_transaction_is_invisible_until_it_commits,
    test_counters_and_bookmarks, test_errors_are_typed_and_the_session_goes_on,
    test_every_plain_value_comes_back_equal, test_explicit_transactions_commit_and_roll_back,
    test_graph_values_keep_their_element_ids, test_nan_and_infinities_come_back,
    test_read_access_mode_refuses_writes, test_results_larger_than_one_pull_batch,
    test_temporal_and_spatial_values_come_back_equal, test_unknown_database_is_refused)

neo4j = pytest.importorskip("neo4j")
ex = pytest.importorskip("neo4j.exceptions")
pytest.importorskip("aiohttp")  # the driver's http extra


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = start_query(tmp_path_factory.mktemp("qapi"), doors=("http",))
    yield s
    assert s.stop() == 0


class _Named:
    """A driver (or session factory) whose calls name the database `neo4j` unless they name one."""

    def __init__(self, driver) -> None:
        self._d = driver

    def __getattr__(self, name):
        return getattr(self._d, name)

    def execute_query(self, *args, **kw):
        kw.setdefault("database_", "neo4j")
        return self._d.execute_query(*args, **kw)

    def session(self, **kw):
        kw.setdefault("database", "neo4j")
        return self._d.session(**kw)


def _driver(port: int, auth=(USER, PASSWORD), **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PreviewWarning: the driver's HTTP mode is a preview
        return neo4j.GraphDatabase.driver(f"http://127.0.0.1:{port}", auth=auth, max_transaction_retry_time=0.5,
                                          connection_timeout=10, connection_acquisition_timeout=10, **kw)


@pytest.fixture
def driver(server):
    d = _Named(_driver(server.port))
    yield d
    d.execute_query("MATCH (n) DETACH DELETE n")
    d.close()


def test_verify_connectivity_and_a_first_query(driver):
    driver.verify_connectivity()
    records, summary, keys = driver.execute_query("RETURN 1 AS n, 'a' AS s")
    assert keys == ["n", "s"] and records[0]["n"] == 1 and records[0]["s"] == "a"
    assert summary.query_type == "r"
    assert driver.get_server_info().agent.startswith("Neo4j/")


def test_wrong_password_is_an_auth_error(server):
    with _driver(server.port, auth=(USER, "wrong")) as d:
        with pytest.raises(ex.AuthError) as err:
            d.execute_query("RETURN 1", database_="neo4j")
        assert err.value.code == "Neo.ClientError.Security.Unauthorized"
