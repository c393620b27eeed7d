"""Neo4j's own JavaScript driver (`neo4j-driver` from npm, pinned in package-lock.json, its
browser bundle unmodified) in Chromium against a real `relate serve --bolt` process: in a page
the driver speaks Bolt over WebSocket, on the same port Python's driver reaches over TCP.

The page is served by a tiny static server of this module (the bundle and one empty page); it is
not part of the docs site.  The web page example of web/serve-neo4j.md runs here too, as written,
against a server holding what the page says.  Each test runs an async function in the page and checks what the
driver handed back, described as JSON by `DESCRIBE` (Integers as strings, temporals as their
ISO text, graph values with their element ids).
Chromium missing: fail under CI, else skip (as every browser test).
"""
from __future__ import annotations

import functools
import http.server
import os
import shutil
import sys
import threading
from pathlib import Path

import pytest

from tests.net.bolt_server import PASSWORD, USER, BoltServed, start_bolt

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "build"))
from markdown import fences  # noqa: E402
BUNDLE = ROOT / "node_modules" / "neo4j-driver" / "lib" / "browser" / "neo4j-web.min.js"
CHROMIUM = os.environ.get("RELATE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
TIMEOUT_MS = 60_000

# In the page: a driver value -> plain JSON, so that the test can compare it exactly.
DESCRIBE = """
window.describe = function describe(v) {
  if (v === null || v === undefined) return null;
  if (neo4j.isInt(v)) return {Integer: v.toString()};
  if (typeof v === 'number') return {Float: Number.isFinite(v) ? v : String(v)};
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (v instanceof Int8Array) return {Bytes: Array.from(v)};
  if (Array.isArray(v)) return v.map(describe);
  if (neo4j.isNode(v)) return {Node: {elementId: v.elementId, labels: v.labels, properties: describe(v.properties)}};
  if (neo4j.isRelationship(v)) return {Relationship: {elementId: v.elementId, type: v.type,
      start: v.startNodeElementId, end: v.endNodeElementId, properties: describe(v.properties)}};
  if (neo4j.isPath(v)) return {Path: v.segments.map(s => [s.start.elementId, s.relationship.elementId,
      s.relationship.startNodeElementId, s.end.elementId])};
  if (neo4j.isPoint(v)) return {Point: [v.srid.toString(), v.x, v.y, v.z === undefined ? null : v.z]};
  for (const kind of ['Date', 'DateTime', 'LocalDateTime', 'LocalTime', 'Time', 'Duration']) {
    if (neo4j['is' + kind](v)) return {[kind]: v.toString()};
  }
  const out = {};
  for (const k of Object.keys(v).sort()) out[k] = describe(v[k]);
  return {Map: out};
};
window.connect = (port, password, scheme) =>
  neo4j.driver(`${scheme || 'bolt'}://127.0.0.1:${port}`, neo4j.auth.basic('neo4j', password),
               {maxTransactionRetryTime: 500, connectionTimeout: 10000});
"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def static_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("bolt-js-page")


@pytest.fixture(scope="module")
def static_url(static_dir):
    """`index.html` (loads the bundle) and `neo4j-web.min.js`, served from 127.0.0.1 (a page
    Chromium fills from a route instead counts as public, and may not reach loopback)."""
    if not BUNDLE.is_file():
        pytest.fail(f"{BUNDLE} is missing: run `npm ci` (scripts/setup.sh does it)")
    root = static_dir
    shutil.copy(BUNDLE, root / BUNDLE.name)
    (root / "index.html").write_text('<!doctype html><meta charset="utf-8"><title>bolt-js</title>'
                                     f'<script src="{BUNDLE.name}"></script>\n')
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/index.html"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def server(tmp_path_factory, static_url):
    # the test page's origin is listed: a browser connects only from the pages --origin names
    origin = static_url.rsplit("/", 1)[0]
    s = start_bolt(tmp_path_factory.mktemp("bolt-js"), "--origin", origin)
    yield s
    assert s.stop() == 0


@pytest.fixture(scope="module")
def page(static_url):
    sync_api = pytest.importorskip("playwright.sync_api")
    if not shutil.which(CHROMIUM):
        message = f"{CHROMIUM} is missing (apt-get install chromium; scripts/setup.sh does it as root)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(static_url)
        page.wait_for_function("() => typeof neo4j !== 'undefined'")
        page.evaluate(DESCRIBE)
        page.js_errors = errors
        yield page
        browser.close()


def js(page, server, body: str, password: str = PASSWORD):
    """Run `body` (an async function body with `driver` open on the server) in the page."""
    return page.evaluate(
        "async ([port, password, body]) => {"
        "  const driver = connect(port, password);"
        "  try { return await (new Function('driver', 'neo4j', 'describe',"
        "                     `return (async () => { ${body} })()`))(driver, neo4j, describe); }"
        "  finally { await driver.close(); } }",
        [server.port, password, body])


def test_verify_connectivity_negotiates_bolt_5_4_over_websocket(page, server):
    info = js(page, server, "const i = await driver.getServerInfo(); await driver.verifyConnectivity();"
                            "return {agent: i.agent, version: i.protocolVersion};")
    assert info["version"] == {"major": 5, "minor": 4} and info["agent"].startswith("Neo4j/")


# parameters of every value type the driver sends, built in the page; each comes back equal
PARAMS = """
const I = neo4j.int;
return {
  null: null, true: true, false: false, zero: I(0), small: I(-17), big: I('9223372036854775807'),
  min: I('-9223372036854775808'), float: 1.5, negFloat: -0.25, huge: 1e300, string: 'é日本 text',
  empty: '', bytes: new Int8Array([0, 1, -1]), list: [I(1), 'a', null, [2.5]], emptyList: [],
  map: {k: {nested: [I(1), I(2)]}, e: {}},
  date: new neo4j.Date(2024, 2, 29), oldDate: new neo4j.Date(1, 1, 1),
  localTime: new neo4j.LocalTime(12, 30, 15, 123456789),
  time: new neo4j.Time(23, 59, 59, 4, -18000),
  localDateTime: new neo4j.LocalDateTime(2020, 1, 2, 3, 4, 5, 600000000),
  dateTime: new neo4j.DateTime(2020, 1, 2, 3, 4, 5, 0, 9000),
  utc: new neo4j.DateTime(1950, 6, 1, 12, 0, 0, 0, 0),
  zoned: new neo4j.DateTime(2021, 7, 1, 12, 0, 0, 42, undefined, 'Europe/Stockholm'),
  duration: new neo4j.Duration(14, 3, 14706, 7),
  negDuration: new neo4j.Duration(0, 0, -1, 5),
  cartesian: new neo4j.Point(I(7203), 1.5, -2.0), cartesian3d: new neo4j.Point(I(9157), 1, 2, 3),
  wgs: new neo4j.Point(I(4326), 12.5, 55.7), wgs3d: new neo4j.Point(I(4979), 12.5, 55.7, 100),
};
"""


def test_every_value_type_comes_back_equal(page, server):
    out = js(page, server, "const params = (() => {" + PARAMS + "})();"
             "const names = Object.keys(params);"
             "const q = 'RETURN ' + names.map(n => `$${n} AS ${n}`).join(', ');"
             "const {records} = await driver.executeQuery(q, params);"
             "const back = {}; for (const n of names) back[n] = describe(records[0].get(n));"
             "const sent = {}; for (const n of names) sent[n] = describe(params[n]);"
             "return {sent, back};")
    # a zoned datetime built in the page has no offset yet; the one read back has the zone's
    zoned = out["back"].pop("zoned")
    assert zoned == {"DateTime": "2021-07-01T12:00:00.000000042+02:00[Europe/Stockholm]"}
    del out["sent"]["zoned"]
    assert out["back"] == out["sent"]


# what the server made of the page's parameters: each compared there with the same value in Cypher
SERVER_SIDE = {
    "big": "9223372036854775807", "date": "date('2024-02-29')", "oldDate": "date('0001-01-01')",
    "localTime": "localtime('12:30:15.123456789')", "time": "time('23:59:59.000000004-05:00')",
    "localDateTime": "localdatetime('2020-01-02T03:04:05.6')", "dateTime": "datetime('2020-01-02T03:04:05+02:30')",
    "utc": "datetime('1950-06-01T12:00Z')",
    "zoned": "datetime('2021-07-01T12:00:00.000000042[Europe/Stockholm]')",
    "duration": "duration('P1Y2M3DT4H5M6.000000007S')", "negDuration": "duration({seconds: -1, nanoseconds: 5})",
    "cartesian": "point({x: 1.5, y: -2.0})", "cartesian3d": "point({x: 1, y: 2, z: 3})",
    "wgs": "point({longitude: 12.5, latitude: 55.7})", "wgs3d": "point({longitude: 12.5, latitude: 55.7, height: 100})",
    "map": "{k: {nested: [1, 2]}, e: {}}", "string": "'é日本 text'",
}


def test_the_server_reads_each_parameter_as_the_value_it_is(page, server):
    checks = SERVER_SIDE
    q = "RETURN " + ", ".join(f"${k} = {v} AS {k}" for k, v in checks.items())
    out = js(page, server, "const params = (() => {" + PARAMS + "})();"
             f"const {{records}} = await driver.executeQuery({q!r}, params);"
             "return describe(records[0].toObject());")
    assert out == {"Map": {k: True for k in checks}}


def test_nodes_relationships_and_paths_match_what_the_python_driver_sees(page, server):
    out = js(page, server, """
      await driver.executeQuery("MATCH (n) DETACH DELETE n");
      const {records, summary} = await driver.executeQuery(
        "CREATE (a:Person {name: 'Ada'})-[r:KNOWS {since: 1843}]->(b:Person:Math {name: 'Charles'}) " +
        "RETURN a, r, b, elementId(a) AS ea, elementId(r) AS er");
      const path = await driver.executeQuery(
        "MATCH p = (:Person {name: 'Charles'})<-[:KNOWS]-(x) RETURN p");
      return {created: describe(records[0].toObject()), counters: summary.counters.updates(),
              type: summary.queryType, path: describe(path.records[0].get('p'))};
    """)
    created = out["created"]["Map"]
    a, r, b = created["a"]["Node"], created["r"]["Relationship"], created["b"]["Node"]
    assert a["elementId"] == created["ea"] and r["elementId"] == created["er"]
    assert a["labels"] == ["Person"] and sorted(b["labels"]) == ["Math", "Person"]
    assert a["properties"] == {"Map": {"name": "Ada"}} and r["properties"] == {"Map": {"since": {"Integer": "1843"}}}
    assert (r["type"], r["start"], r["end"]) == ("KNOWS", a["elementId"], b["elementId"])
    assert out["counters"]["nodesCreated"] == 2 and out["counters"]["relationshipsCreated"] == 1
    assert out["type"] == "w"  # as the Python driver sees it (tests/net/test_bolt_driver.py)
    # the path walked against the relationship's direction: the driver takes its start from the sign
    assert out["path"] == {"Path": [[b["elementId"], r["elementId"], a["elementId"], a["elementId"]]]}
    neo4j = pytest.importorskip("neo4j")
    with neo4j.GraphDatabase.driver(f"bolt://127.0.0.1:{server.port}", auth=(USER, PASSWORD)) as d:
        records, _, _ = d.execute_query("MATCH (a {name: 'Ada'})-[r]->(b) RETURN a, r, b")
    pa, pr, pb = records[0]["a"], records[0]["r"], records[0]["b"]
    assert (pa.element_id, pr.element_id, pb.element_id) == (a["elementId"], r["elementId"], b["elementId"])
    assert dict(pa) == {"name": "Ada"} and pr["since"] == 1843 and pb.labels == set(b["labels"])


def test_explicit_transactions_commit_and_roll_back(page, server):
    out = js(page, server, """
      await driver.executeQuery("MATCH (n:Tx) DELETE n");
      const count = async () => (await driver.executeQuery("MATCH (n:Tx) RETURN count(n) AS c"))
        .records[0].get('c').toNumber();
      const session = driver.session();
      const seen = [];
      try {
        let tx = session.beginTransaction();
        await tx.run("CREATE (:Tx {v: $v})", {v: neo4j.int(1)});  // a JS number would be a Float
        seen.push((await tx.run("MATCH (n:Tx) RETURN count(n) AS c")).records[0].get('c').toNumber());
        seen.push(await count());  // another connection: the last commit
        await tx.commit();
        seen.push(await count());
        tx = session.beginTransaction();
        await tx.run("CREATE (:Tx {v: 2})");
        await tx.rollback();
        seen.push(await count());
        const v = await session.executeWrite(t => t.run("MATCH (n:Tx) SET n.v = n.v + 10 RETURN n.v AS v"));
        seen.push(v.records[0].get('v').toNumber());
      } finally { await session.close(); }
      return seen;
    """)
    assert out == [1, 0, 1, 1, 11]


def test_a_result_larger_than_one_fetch_batch_streams_whole(page, server):
    out = js(page, server, """
      const session = driver.session({fetchSize: 100});
      try {
        const values = [];
        const result = session.run("UNWIND range(1, 2500) AS i RETURN i");
        for await (const record of result) values.push(record.get('i').toNumber());
        const tx = session.beginTransaction();
        const first = tx.run("UNWIND range(1, 20) AS i RETURN i");
        const second = await tx.run("UNWIND range(1, 30) AS j RETURN j");
        const firstValues = (await first).records.map(r => r.get('i').toNumber());
        await tx.commit();
        return {n: values.length, sum: values.reduce((s, v) => s + v, 0), last: values[2499],
                first: firstValues.length, second: second.records.length};
      } finally { await session.close(); }
    """)
    assert out == {"n": 2500, "sum": 2500 * 2501 // 2, "last": 2500, "first": 20, "second": 30}


def test_a_syntax_error_is_typed_and_the_connection_goes_on(page, server):
    out = js(page, server, """
      let code = null, message = null;
      try { await driver.executeQuery("RETURN 1 +"); }
      catch (e) { code = e.code; message = e.message; }
      const after = (await driver.executeQuery("RETURN 2 AS n")).records[0].get('n').toNumber();
      return {code, message, after};
    """)
    assert out["code"] == "Neo.ClientError.Statement.SyntaxError" and out["message"]
    assert out["after"] == 2


def test_a_wrong_password_is_unauthorized(page, server):
    out = js(page, server, """
      try { await driver.verifyConnectivity(); return null; }
      catch (e) { return e.code; }
    """, password="not-the-password")
    assert out == "Neo.ClientError.Security.Unauthorized"


def test_the_routing_scheme_works_over_websocket(page, server):
    out = page.evaluate("""async (port) => {
      const driver = connect(port, %r, 'neo4j');
      try {
        await driver.verifyConnectivity();
        const w = await driver.executeQuery("UNWIND [1, 2, 3] AS x RETURN sum(x) AS s");
        const r = await driver.executeQuery("RETURN 2 AS n", {}, {routing: neo4j.routing.READ});
        return [w.records[0].get('s').toNumber(), r.records[0].get('n').toNumber(), w.summary.database.name];
      } finally { await driver.close(); }
    }""" % PASSWORD, server.port)
    assert out == [6, 2, "neo4j"]


def test_a_page_whose_origin_is_not_listed_cannot_connect(page, server, static_url):
    other = page.context.browser.new_page()  # the same page under another origin: localhost, not 127.0.0.1
    said: list[str] = []
    other.on("console", lambda message: said.append(message.text))
    try:
        other.goto(static_url.replace("127.0.0.1", "localhost"))
        other.wait_for_function("() => typeof neo4j !== 'undefined'")
        other.evaluate(DESCRIBE)
        out = other.evaluate("""async ([port, password]) => {
          const driver = connect(port, password);
          try { await driver.verifyConnectivity(); return null; }
          catch (e) { return e.code; }
          finally { await driver.close(); }
        }""", [server.port, PASSWORD])
    finally:
        other.close()
    assert out == "ServiceUnavailable"
    assert any("403" in line for line in said), said  # refused by the server, not by the browser


def test_no_script_errors(page):
    assert page.js_errors == []


def _page_example() -> tuple[str, str]:
    """web/serve-neo4j.md's web page (its one `html` block) and what the page says it shows."""
    blocks = fences((ROOT / "web" / "serve-neo4j.md").read_text(encoding="utf-8"))
    (n,) = [i for i, f in enumerate(blocks) if f.lang == "html"]
    assert blocks[n + 1].lang == "text"
    return blocks[n].body, blocks[n + 1].body


def test_the_docs_page_example_shows_what_it_says(page, static_url, static_dir, tmp_path):
    html, shown = _page_example()
    assert "bolt://127.0.0.1:7687" in html and "'s3cret'" in html
    origin = static_url.rsplit("/", 1)[0]
    # the page's own port and password: port 7687 may be taken, so the page is pointed at ours
    s = BoltServed(["--bolt", "0", "--database", ":memory:", "--auth", "neo4j:s3cret", "--origin", origin],
                   tmp_path).wait_listening()
    try:
        neo4j = pytest.importorskip("neo4j")
        with neo4j.GraphDatabase.driver(f"bolt://127.0.0.1:{s.port}", auth=("neo4j", "s3cret")) as d:
            d.execute_query("CREATE (:Person {name: 'Lin'}), (:Person {name: 'Ada'})")
        (static_dir / "people.html").write_text(html.replace("127.0.0.1:7687", f"127.0.0.1:{s.port}"))
        other = page.context.browser.new_page()
        try:
            other.goto(static_url.replace("index.html", "people.html"))
            other.wait_for_function("() => document.getElementById('people').textContent !== 'loading...'")
            assert other.inner_text("#people") == shown
        finally:
            other.close()
    finally:
        assert s.stop() == 0
