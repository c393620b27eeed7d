"""The repository -> the complete static documentation site in dist/site/.

    node_modules/pyodide/ (npm ci)     -> dist/site/vendor/pyodide/   the 5 runtime files
    node_modules/cytoscape/ (npm ci)   -> dist/site/vendor/cytoscape/ its one ES-module file + LICENSE
                                                                     (the result graph view, loaded
                                                                     when a reader asks for it)
    this project (pip wheel, hatchling) -> dist/site/wheels/relate-*.whl  (with the parser's image,
                                                                     relate/syntax/cypher.lark.bin)
    its runtime deps, Pyodide platform  -> dist/site/wheels/*.whl      (pip download, -c constraints.txt;
                                                                     markers read as Pyodide's, so the
                                                                     native-only h11/websockets stay out)
    every wheel, under Node's Pyodide    -> the page's bytecode added to each wheel (bytecode.py)
                                        -> dist/site/wheels/manifest.json
    web/*.md + web/template.html        -> dist/site/*.html            (cells pre-rendered natively,
                                                                     the errors reference generated,
                                                                     one navigation bar, PAGES' order)
    web/tryout/, web/favicon.svg        -> dist/site/tryout/, dist/site/favicon.svg

Usage: python build/site.py [--out DIR] [--no-prerender]

Nothing is fetched at page time: the page loads only these files (no CDN, no micropip).  The
Pyodide wheel platform and Python version are read from the vendored pyodide-lock.json, so a
Pyodide upgrade (package.json) carries the download target along with it.
"""
from __future__ import annotations

import argparse
import email.parser
import json
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))  # sibling modules: markdown, blocks

from blocks import Blocks  # noqa: E402
from bytecode import BytecodeError, add_bytecode  # noqa: E402
from markdown import render  # noqa: E402

PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
CYTOSCAPE_FILES = ("dist/cytoscape.esm.min.mjs", "LICENSE")
BROWSER_MODULE = "relate.browser"
STATUS = ('<div id="relate-status" class="status" role="status"><span class="status-text">The tryouts '
          'on this page start once relate has loaded in your browser (JavaScript and WebAssembly '
          'needed).</span> <progress max="4" value="0" aria-label="loading relate"></progress></div>')
# The site's pages in reading order: (web/<name>.md, the navigation label).  Every page in web/
# must be listed, so none is built without a way to reach it.
PAGES = (
    ("index", "Overview"),
    ("getting-started", "Getting started"),
    ("cypher", "Cypher guide"),
    ("temporal", "Dates, times and places"),
    ("time-travel", "Time travel"),
    ("cli", "CLI and output modes"),
    ("agent-mode", "Agent mode"),
    ("serve-mcp", "Serving over MCP"),
    ("mcp-reference", "MCP server reference"),
    ("serve-neo4j", "Serving to Neo4j clients"),
    ("mcp-tools", "MCP tool groups"),
    ("search", "Search"),
    ("stores", "Stores and durability"),
    ("errors", "Errors reference"),
)
SCRIPTS = '<script type="module" src="tryout/tryout.js"></script>'


class BuildError(Exception):
    pass


def vendor_npm(out: Path, package: str, files: tuple[str, ...]) -> str:
    """Copy `files` of node_modules/<package> (flat) into vendor/<package>/; return its version,
    which must be the one package.json pins."""
    src = ROOT / "node_modules" / package
    missing = [f for f in files if not (src / f).is_file()]
    if missing:
        raise BuildError(f"node_modules/{package} lacks {', '.join(missing)}: run `npm ci` first")
    wanted = json.loads((ROOT / "package.json").read_text())["devDependencies"][package]
    have = json.loads((src / "package.json").read_text())["version"]
    if have != wanted:
        raise BuildError(f"node_modules has {package} {have}, package.json pins {wanted}: run `npm ci`")
    dest = out / "vendor" / package
    dest.mkdir(parents=True)
    for name in files:
        shutil.copy2(src / name, dest / Path(name).name)
    return have


def vendor_pyodide(out: Path) -> dict:
    """Copy the runtime files; return pyodide-lock.json's `info` plus the npm version."""
    version = vendor_npm(out, "pyodide", PYODIDE_FILES)
    info = json.loads((ROOT / "node_modules" / "pyodide" / "pyodide-lock.json").read_text())["info"]
    return {**info, "version": version}


def pip(*args: str) -> None:
    cmd = [sys.executable, "-m", "pip", *args]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if proc.returncode != 0:
        raise BuildError(f"`{' '.join(cmd)}` failed:\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}")


def write_parser_tables() -> None:
    """relate/syntax/cypher.lark.bin: the parser tables, serialized here so the page loads them
    instead of building them (about 0.6 s in Pyodide)."""
    code = "from relate.syntax.parser import write_prebuilt; write_prebuilt()"
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def pyodide_markers(pyodide: dict) -> dict[str, str]:
    """The PEP 508 marker environment of the page's Python.  pip evaluates a wheel's markers for
    the machine it runs on even with --platform, so the browser's dependency set is chosen here:
    `h11; sys_platform != 'emscripten'` stays out of the page."""
    version = pyodide["python"]
    return {"sys_platform": "emscripten", "platform_system": "Emscripten", "os_name": "posix",
            "platform_machine": pyodide["arch"], "platform_release": "", "platform_version": "",
            "implementation_name": "cpython", "platform_python_implementation": "CPython",
            "implementation_version": version, "python_full_version": version,
            "python_version": ".".join(version.split(".")[:2]), "extra": ""}


def browser_requirements(wheel: Path, markers: dict[str, str]) -> list:
    """A wheel's Requires-Dist lines that apply in the page (no extras), as packaging Requirements."""
    try:
        from packaging.requirements import Requirement
    except ImportError:  # no hatchling (and so no packaging) here: pip carries its own copy
        from pip._vendor.packaging.requirements import Requirement

    with zipfile.ZipFile(wheel) as archive:
        metadata = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        fields = email.parser.Parser().parsestr(archive.read(metadata).decode("utf-8"), headersonly=True)
    wanted = []
    for line in fields.get_all("Requires-Dist") or []:
        requirement = Requirement(line)
        if requirement.marker is None or requirement.marker.evaluate(markers):
            requirement.marker = None
            wanted.append(requirement)
    return wanted


def build_wheels(out: Path, pyodide: dict) -> list[str]:
    """Our wheel plus the Pyodide wheels of its runtime dependency closure (markers evaluated for
    Pyodide), pinned by constraints.txt; resolved here, so the page needs no resolver."""
    def canonicalize_name(name: str) -> str:  # PEP 503
        return re.sub(r"[-_.]+", "-", name).lower()

    wheels = out / "wheels"
    wheels.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as tmp:
        try:
            import hatchling  # noqa: F401  (present: build offline with it, no isolated env)
            isolation = ["--no-build-isolation"]
        except ImportError:
            isolation = []
        write_parser_tables()
        pip("wheel", "--no-deps", *isolation, "-q", "-w", tmp, str(ROOT))
        ours = sorted(Path(tmp).glob("relate-*.whl"))
        if len(ours) != 1:
            raise BuildError(f"expected one relate wheel, got {[p.name for p in ours]}")
        shutil.copy2(ours[0], wheels / ours[0].name)
    major, minor = pyodide["python"].split(".")[:2]
    target = ["--only-binary=:all:", "--no-deps", "--python-version", f"{major}.{minor}",
              "--implementation", "cp", "--abi", f"cp{major}{minor}", "--abi", "none",
              "--platform", f"pyemscripten_{pyodide['abi_version']}_{pyodide['arch']}",
              "--platform", "any", "-c", str(ROOT / "constraints.txt"), "-d", str(wheels)]
    markers = pyodide_markers(pyodide)
    # breadth first over Requires-Dist: each round downloads the wheels the last round asked for
    seen = {"relate"}
    todo = [wheels / ours[0].name]
    while todo:
        asked = []
        for wheel in todo:
            for requirement in browser_requirements(wheel, markers):
                if canonicalize_name(requirement.name) not in seen:
                    seen.add(canonicalize_name(requirement.name))
                    asked.append(str(requirement))
        before = set(wheels.glob("*.whl"))
        if asked:
            pip("download", "-q", *target, *asked)
        todo = sorted(set(wheels.glob("*.whl")) - before)
    try:
        add_bytecode(sorted(wheels.glob("*.whl")), out / "vendor" / "pyodide")
    except BytecodeError as e:
        raise BuildError(str(e)) from None
    names = sorted(p.name for p in wheels.glob("*.whl"))
    manifest = {"module": BROWSER_MODULE, "pyodide": pyodide["version"],
                "python": pyodide["python"], "wheels": names}
    (wheels / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return names


def cell_runner(prerender: bool):
    """A fresh page database per page, as the browser has: cells run in page order."""
    if not prerender:
        return lambda: None
    sys.path.insert(0, str(ROOT))
    from relate.browser import Page

    def new_page():
        page = Page()
        return page.cell
    return new_page


def nav_html(current: str) -> str:
    here = ' aria-current="page"'
    links = "".join(f'<li><a href="{name}.html"{here if name == current else ""}>{label}</a></li>'
                    for name, label in PAGES)
    return f'<nav class="site" aria-label="Pages"><ul>{links}</ul></nav>'


def page_sources(web: Path) -> list[Path]:
    on_disk = {p.stem for p in web.glob("*.md")}
    listed = [name for name, _ in PAGES]
    if on_disk != set(listed):
        raise BuildError(f"web/*.md and build/site.py PAGES differ: unlisted {sorted(on_disk - set(listed))}, "
                         f"missing {sorted(set(listed) - on_disk)}")
    return [web / f"{name}.md" for name in listed]


def render_pages(out: Path, prerender: bool) -> list[str]:
    web = ROOT / "web"
    template = (web / "template.html").read_text()
    # the one source of the version (pyproject.toml reads it too, through hatch)
    version = re.search(r'__version__ = "([^"]+)"', (ROOT / "relate" / "version.py").read_text()).group(1)
    new_page = cell_runner(prerender)
    written = []
    for source in page_sources(web):
        blocks = Blocks(new_page())
        try:
            page = render(source.read_text(), blocks)
        except ValueError as exc:
            raise BuildError(f"{source.relative_to(ROOT)}: {exc}") from None
        # Only pages with tryouts load the engine (13 MB of Pyodide is no price for prose).
        status, scripts = (STATUS, SCRIPTS) if blocks.count else ("", "")
        html = (template.replace("{{title}}", page.title or "relate")
                .replace("{{version}}", version).replace("{{status}}", status)
                .replace("{{nav}}", nav_html(source.stem))
                .replace("{{scripts}}", scripts).replace("{{content}}", page.html))
        target = out / (source.stem + ".html")
        target.write_text(html)
        written.append(target.name)
    shutil.copytree(web / "tryout", out / "tryout")
    shutil.copy2(web / "favicon.svg", out / "favicon.svg")  # named by the template: no 404 for the icon
    return written


def build(out: Path, prerender: bool = True) -> None:
    # Build beside the target, then swap it in: a server (or a test run) reading the old site
    # never sees it half deleted, and a failed build leaves the old one in place.  The old site
    # goes as a whole, so no stale wheel or page survives next to fresh ones.
    fresh = out.with_name(out.name + ".new")
    if fresh.exists():
        shutil.rmtree(fresh)
    fresh.mkdir(parents=True)
    try:
        pyodide = vendor_pyodide(fresh)
        cytoscape = vendor_npm(fresh, "cytoscape", CYTOSCAPE_FILES)
        wheels = build_wheels(fresh, pyodide)
        pages = render_pages(fresh, prerender)
    except BaseException:
        shutil.rmtree(fresh, ignore_errors=True)
        raise
    old = out.with_name(out.name + ".old")
    if old.exists():
        shutil.rmtree(old)
    if out.exists():
        out.rename(old)
    fresh.rename(out)
    shutil.rmtree(old, ignore_errors=True)
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    print(f"site: {out} ({size / 1e6:.1f} MB): pages {', '.join(pages)}; "
          f"Pyodide {pyodide['version']} (Python {pyodide['python']}); cytoscape {cytoscape}; wheels {', '.join(wheels)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the static site into dist/site/.")
    parser.add_argument("--out", type=Path, default=ROOT / "dist" / "site")
    parser.add_argument("--no-prerender", action="store_true",
                        help="leave Cypher cells empty instead of running them with the native engine")
    args = parser.parse_args(argv)
    try:
        build(args.out.resolve(), prerender=not args.no_prerender)
    except BuildError as exc:
        print(f"build/site.py: error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
