"""Tried as a new user would: a fresh `git clone` of this repository, then the getting-started page
in order -- `./run` (set-up, site and MCP server), the first query, the Python API with date
parameters on a `.rl` store read back after a reopen, the host configuration `./run` printed
(started as a host starts it), and the site's first tryout cell in Chromium.

The clone is made from the committed tree (`git clone` of this checkout), so the test sees what a
newcomer gets, not the working tree's uncommitted edits.  Set-up in the clone builds its own
venv and site, as a reader's first `./run` does; that takes minutes on a loaded machine."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import threading
from pathlib import Path

import pytest

from tests.install.test_run_script import ROOT, Running, as_a_host, assert_host_session, free_port, run_env

CHROMIUM = os.environ.get("RELATE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PAGE = (ROOT / "web" / "getting-started.md").read_text()

PYTHON_WITH_DATES = """
import datetime, relate
db = relate.connect("diary.rl")
db.execute("CREATE (:Entry {day: $day, at: $at})",
           {"day": datetime.date(2026, 3, 1), "at": datetime.datetime(2026, 3, 1, 9, 30)})
db.close()
db = relate.connect("diary.rl")
row = db.execute("MATCH (e:Entry) RETURN e.day, e.day + duration('P1D'), e.at.hour, valueType(e.day)").rows[0]
print(repr(row))
"""


def _block_after(marker: str, fence: str = "text") -> str:
    """The ```fence block that follows the first line containing `marker` on the page."""
    start = PAGE.index(marker)
    m = re.search(rf"```{fence}\n(.*?)```", PAGE[start:], re.S)
    assert m, marker
    return m.group(1)


@pytest.fixture(scope="module")
def clone(tmp_path_factory):
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.fail("the new-user walk needs a git checkout to clone")
    where = tmp_path_factory.mktemp("newcomer") / "relate"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(where)], check=True)
    if (ROOT.parent / "shared").is_dir() and not (where.parent / "shared").exists():
        (where.parent / "shared").symlink_to(ROOT.parent / "shared")  # as beside this checkout
    return where


def test_a_newcomer_walks_the_getting_started_page_from_a_fresh_clone(clone, tmp_path):
    site_port, mcp_port = free_port(), free_port()
    while mcp_port in (site_port, site_port + 1):
        mcp_port = free_port()
    run = Running(run_env({"PORT": str(site_port), "MCP_PORT": str(mcp_port)}), root=clone)
    try:
        run.wait_serving()
        relate_bin = clone / ".venv" / "bin" / "relate"
        python_bin = clone / ".venv" / "bin" / "python"
        assert relate_bin.is_file(), run.stdout

        # the first statement, as the page prints it
        first = subprocess.run([str(relate_bin), "--mode", "table",
                                "RETURN 'hello' AS greeting, 1 + 2 AS three"],
                               capture_output=True, text=True, cwd=tmp_path, timeout=120)
        assert first.returncode == 0, first.stderr
        assert first.stdout == _block_after("## A first statement"), first.stdout

        # the Python API: date parameters on a .rl store, back as dates after a reopen
        py = subprocess.run([str(python_bin), "-c", PYTHON_WITH_DATES], capture_output=True, text=True,
                            cwd=tmp_path, timeout=120)
        assert py.returncode == 0, py.stderr
        assert py.stdout.strip() == ("(datetime.date(2026, 3, 1), datetime.date(2026, 3, 2), 9, "
                                     "'DATE NOT NULL')"), py.stdout

        # the host configuration ./run printed, started the way a host starts it
        printed = re.search(r"^  Host config: (.*)$", run.stdout, re.M).group(1)
        config = json.loads(printed)
        assert Path(config["mcpServers"]["relate"]["command"]).is_absolute()
        assert_host_session(as_a_host(config, "/usr/bin:/bin"))

        # the site's first tryout cell, in Chromium, against the clone's own server
        _first_tryout(f"http://127.0.0.1:{site_port}/getting-started.html")
    finally:
        run.stop()


def _first_tryout(url: str) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    if not shutil.which(CHROMIUM):
        message = f"{CHROMIUM} is missing (apt-get install chromium; scripts/setup.sh does it as root)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    # in a thread of its own: the e2e tests' Playwright (or another test's event loop) may be
    # running in this one, and the sync API refuses to start inside a running loop
    failure: list[BaseException] = []

    def drive() -> None:
        try:
            _drive(sync_api, url)
        except BaseException as exc:  # re-raised in the test's thread
            failure.append(exc)

    worker = threading.Thread(target=drive)
    worker.start()
    worker.join()
    if failure:
        raise failure[0]


def _drive(sync_api, url: str) -> None:
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.set_default_timeout(180_000)
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(url)
            page.wait_for_function("() => window.relate !== undefined")
            page.evaluate("() => window.relate.ready")
            cells = page.locator("section.cell")
            read = cells.nth(1)  # the second cell reads what the first (autorun) one wrote
            before = read.get_attribute("data-runs") or "0"
            read.locator(".cell-run").click()
            page.wait_for_function("([e, b]) => (e.dataset.runs || '0') !== b",
                                   arg=[read.element_handle(), before])
            shown = read.locator(".cell-result").inner_text()
            for name in ("Ada", "Grace", "Noor"):
                assert name in shown, shown
            assert errors == [], errors
        finally:
            browser.close()
