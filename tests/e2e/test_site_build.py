"""The built site without a browser: what build/site.py wrote, how server/serve.py serves it,
and the Markdown subset the pages are written in."""
from __future__ import annotations

import json
import re
import sys
import threading
import urllib.request
import zipfile

import pytest

from conftest import ROOT, SITE, _serve_module

sys.path.insert(0, str(ROOT / "build"))
from markdown import render  # noqa: E402

PYODIDE_FILES = {"pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"}


@pytest.fixture(scope="module")
def manifest():
    path = SITE / "wheels" / "manifest.json"
    if not path.is_file():
        pytest.fail("dist/site is not built: run `python build/site.py` (./run-tests does it first)")
    return json.loads(path.read_text())


def test_vendored_runtime_is_exactly_the_pinned_pyodide(manifest):
    assert {p.name for p in (SITE / "vendor" / "pyodide").iterdir()} == PYODIDE_FILES
    pinned = json.loads((ROOT / "package.json").read_text())["devDependencies"]["pyodide"]
    assert manifest["pyodide"] == pinned
    assert manifest["module"] == "relate.browser"


def test_vendored_graph_library_is_exactly_the_pinned_cytoscape(manifest):
    """The graph view's library ships with the site (one ES module and its licence), at the
    version package.json and package-lock.json pin."""
    folder = SITE / "vendor" / "cytoscape"
    assert {p.name for p in folder.iterdir()} == {"cytoscape.esm.min.mjs", "LICENSE"}
    pinned = json.loads((ROOT / "package.json").read_text())["devDependencies"]["cytoscape"]
    locked = json.loads((ROOT / "package-lock.json").read_text())["packages"]["node_modules/cytoscape"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", pinned) and locked["version"] == pinned
    assert f'version="{pinned}"' in (folder / "cytoscape.esm.min.mjs").read_text()
    assert "The Cytoscape Consortium" in (folder / "LICENSE").read_text()
    graph_js = (SITE / "tryout" / "graph.js").read_text()
    assert '"../vendor/cytoscape/cytoscape.esm.min.mjs"' in graph_js


def test_manifest_lists_every_wheel_and_only_pyodide_installable_ones(manifest):
    on_disk = sorted(p.name for p in (SITE / "wheels").glob("*.whl"))
    assert manifest["wheels"] == on_disk
    assert any(n.startswith("relate-") for n in on_disk) and any(n.startswith("lark-") for n in on_disk)
    for name in on_disk:
        assert name.endswith("-none-any.whl") or "pyemscripten" in name, name


def test_native_only_dependencies_stay_out_of_the_page(manifest):
    """h11 and websockets come with a native `pip install .` (their markers say so in the
    wheel), but the page's Python is emscripten: the site ships neither."""
    ours = next(n for n in manifest["wheels"] if n.startswith("relate-"))
    with zipfile.ZipFile(SITE / "wheels" / ours) as wheel:
        metadata = next(wheel.read(n).decode() for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
    for name in ("h11", "websockets"):
        assert f"Requires-Dist: {name}; sys_platform != 'emscripten'" in metadata
        assert not any(n.startswith(name + "-") for n in manifest["wheels"]), manifest["wheels"]
    for name in ("lark", "tzdata"):
        assert any(n.startswith(name + "-") for n in manifest["wheels"]), manifest["wheels"]


def test_relate_wheel_carries_the_browser_entry(manifest):
    ours = next(n for n in manifest["wheels"] if n.startswith("relate-"))
    with zipfile.ZipFile(SITE / "wheels" / ours) as wheel:
        names = set(wheel.namelist())
    assert "relate/browser.py" in names and "relate/values/__init__.py" in names


def test_every_module_of_every_wheel_has_the_pages_bytecode(manifest):
    """The page's Python would otherwise compile each module from source at every page load: each
    wheel carries, beside every .py, an unchecked-hash .pyc of the page's Python version."""
    major, minor = manifest["python"].split(".")[:2]
    for name in manifest["wheels"]:
        with zipfile.ZipFile(SITE / "wheels" / name) as wheel:
            names = set(wheel.namelist())
            record = wheel.read(next(n for n in names if n.endswith(".dist-info/RECORD"))).decode()
            for source in (n for n in names if n.endswith(".py")):
                folder, _, file = source.rpartition("/")
                pyc = f"{folder}/__pycache__/{file[:-3]}.cpython-{major}{minor}.pyc".lstrip("/")
                assert pyc in names, (name, pyc)
                # flags 0b01: hash-based, not checked against the source (PEP 552)
                assert int.from_bytes(wheel.read(pyc)[4:8], "little") == 0b01, (name, pyc)
                assert f"\n{pyc},sha256=" in record, (name, pyc)


def test_index_page_has_its_tryouts():
    page = (SITE / "index.html").read_text()
    assert page.count('class="cell"') == 2 and page.count("data-autorun") == 1
    assert 'class="mcp"' in page and 'class="terminal"' in page
    for tool in ("get_schema", "read_cypher", "write_cypher"):
        assert f'data-tool="{tool}"' in page
    assert '<script type="module" src="tryout/tryout.js"></script>' in page
    # the MCP host configuration block (HTML-escaped inside <pre>)
    assert ("&quot;serve&quot;, &quot;--mcp&quot;, &quot;stdio&quot;, "
            "&quot;--database&quot;, &quot;:memory:&quot;") in page


def test_no_page_or_script_names_a_remote_host():
    """The site must work offline: nothing it ships may point the browser elsewhere."""
    for path in list(SITE.glob("*.html")) + list((SITE / "tryout").glob("*")):
        text = path.read_text()
        assert "cdn.jsdelivr" not in text and "pypi.org" not in text, path
        assert "src=\"http" not in text and "href=\"http" not in text, path


def test_server_sends_module_and_wasm_types():
    server = _serve_module().make_server(SITE, 0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        for path, mime in [("vendor/pyodide/pyodide.asm.wasm", "application/wasm"),
                           ("vendor/pyodide/pyodide.mjs", "text/javascript"),
                           ("tryout/relate.js", "text/javascript"),
                           ("wheels/manifest.json", "application/json"),
                           ("index.html", "text/html")]:
            with urllib.request.urlopen(base + path) as reply:
                assert reply.headers.get_content_type() == mime, path
    finally:
        server.shutdown()
        server.server_close()


def test_markdown_subset():
    seen = []
    page = render("# Title `x`\n\nSome *em* and **strong** `a<b` [link](x.html).\n\n"
                  "- one\n- two `t`\n\n## Sub\n\n```cypher run name=n\nRETURN 1\n```\n\n```sh\na < b\n```\n",
                  lambda fence: seen.append(fence) or ("<div>cell</div>" if "run" in fence.flags else None))
    assert page.title == "Title x"
    html = page.html
    assert '<h1 id="title-x">Title <code>x</code></h1>' in html
    assert "<em>em</em>" in html and "<strong>strong</strong>" in html and "<code>a&lt;b</code>" in html
    assert '<a href="x.html">link</a>' in html
    assert "<ul><li>one</li><li>two <code>t</code></li></ul>" in html
    assert "<div>cell</div>" in html and '<pre><code class="language-sh">a &lt; b</code></pre>' in html
    assert seen[0].lang == "cypher" and seen[0].options == {"name": "n"} and seen[0].body == "RETURN 1"


def test_markdown_rejects_an_unclosed_fence():
    with pytest.raises(ValueError, match="never closed"):
        render("```cypher run\nRETURN 1\n")


def test_every_page_is_built_with_the_navigation_and_the_loader():
    from docs import PAGES

    for name, label in PAGES:
        html = (SITE / f"{name}.html").read_text()
        for other, other_label in PAGES:
            assert f'href="{other}.html"' in html and other_label in html, (name, other)
        assert f'<a href="{name}.html" aria-current="page">{label}</a>' in html
        # every page has tryouts, so every page loads the engine and shows its progress
        assert '<script type="module" src="tryout/tryout.js"></script>' in html, name
        assert 'id="relate-status"' in html and "<progress" in html, name


def test_errors_page_is_generated_from_the_error_catalog():
    from relate.errors import E

    html = (SITE / "errors.html").read_text()
    assert 'id="class-cyphersyntaxerror"' in html and 'data-kind="ParseError"' in html
    rows = re.findall(r'<tr id="[a-z]+-(\w+)" data-kind="\w+">', html)
    assert rows == [k.name for k in E.kinds()]  # every declared kind, in the catalog's order
    # a kind's row: the code its error object carries (its phase decides the TCK type) and what it means
    assert ('<td><code>Relate.SemanticError.IndexNotFound</code></td><td>runtime</td>'
            '<td>DROP INDEX names an index that does not exist.</td>') in html
    assert '<code>Relate.SyntaxError.UndefinedVariable</code></td><td>compile</td>' in html


def test_markdown_tables_and_ordered_lists():
    page = render("| a | b |\n|---|---|\n| `x\\|y` | **2** |\n\n1. one\n2. two\n")
    assert ('<table class="doc-table"><thead><tr><th scope="col">a</th><th scope="col">b</th></tr></thead>'
            "<tbody><tr><td><code>x|y</code></td><td><strong>2</strong></td></tr></tbody></table>") in page.html
    assert "<ol><li>one</li><li>two</li></ol>" in page.html


def test_a_verify_block_takes_the_next_text_block_as_its_output():
    from verify import verify_cases

    cases = verify_cases("```bash verify\nrelate --version\n```\n\nSome prose.\n\n```text\nrelate 1\n```\n\n"
                         "```bash verify exit=6\nrelate 'RETURN'\n```\n\n```bash verify\ntrue\n```\n")
    assert [(c.command, c.expected, c.exit_code) for c in cases] == [
        ("relate --version", "relate 1\n", 0), ("relate 'RETURN'", "", 6), ("true", "", 0)]


def test_serve_runs_the_native_mcp_server_beside_the_site(tmp_path):
    """server/serve.py (what ./run starts): the site, plus `relate serve --mcp PORT` next to it,
    answering a tool call with the credential it printed, and stopped with the site."""
    import base64
    import re
    import signal
    import socket
    import subprocess

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        mcp_port = probe.getsockname()[1]
    proc = subprocess.Popen([sys.executable, str(ROOT / "server" / "serve.py"), "0", str(SITE),
                             "--mcp-port", str(mcp_port)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = []
        while not any("listening" in line for line in lines):
            line = proc.stderr.readline()
            assert line, f"serve.py ended early: {lines}"
            lines.append(line)
        token = re.search(r"generated token for user relate: (\S+)", "".join(lines)).group(1)
        request = urllib.request.Request(
            f"http://127.0.0.1:{mcp_port}/mcp", method="POST",
            data=b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_cypher",'
                 b'"arguments":{"statement":"RETURN 1 AS one"}}}',
            headers={"Content-Type": "application/json",
                     "Authorization": "Basic " + base64.b64encode(f"relate:{token}".encode()).decode()})
        with urllib.request.urlopen(request, timeout=30) as reply:
            assert '\\"rows\\":[{\\"one\\":1}]' in reply.read().decode()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", mcp_port), timeout=5).close()
