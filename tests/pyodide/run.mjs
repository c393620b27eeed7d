// The site's own wheels inside Pyodide under Node, fully offline -> the verdicts JSON of
// tests/pyodide/verdicts.py, computed in there.
//
//   node tests/pyodide/run.mjs --site dist/site --tests tests --shared ../shared/tck \
//        --module .venv/.../gherkin --module .venv/.../typing_extensions.py --out OUT.json -- [verdicts.py args]
//
// Pyodide comes from node_modules (npm ci, the version package.json pins); the wheels are the
// ones build/site.py wrote and lists in wheels/manifest.json, installed with loadPackage from
// local files (a failed or missing wheel fails the run).  The test tree is mounted read-only in
// spirit at /src/tests (NODEFS; no bytecode written back), the TCK at /shared/tck, and the
// test-only pure-Python modules (--module: gherkin and what it imports) are copied to /extra.
// relate itself is imported from the installed wheel, never from the working tree.
import fs from "node:fs";
import path from "node:path";
import { loadPyodide } from "pyodide";

function parseArgs(argv) {
  const opts = { modules: [], rest: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") { opts.rest = argv.slice(i + 1); break; }
    const value = argv[++i];
    if (value === undefined) throw new Error(`${a} needs a value`);
    if (a === "--module") opts.modules.push(value);
    else if (["--site", "--tests", "--shared", "--out"].includes(a)) opts[a.slice(2)] = value;
    else throw new Error(`unknown option ${a}`);
  }
  for (const need of ["site", "tests", "out"]) if (!opts[need]) throw new Error(`--${need} is required`);
  return opts;
}

function copyInto(FS, source, target) {
  const stat = fs.statSync(source);
  if (stat.isDirectory()) {
    if (path.basename(source) === "__pycache__") return;
    FS.mkdirTree(target);
    for (const name of fs.readdirSync(source)) copyInto(FS, path.join(source, name), `${target}/${name}`);
  } else if (!source.endsWith(".pyc")) {
    FS.writeFile(target, fs.readFileSync(source));
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const t0 = performance.now();
  const stderr = (line) => process.stderr.write(line + "\n");
  const pyodide = await loadPyodide({ stdout: stderr, stderr });
  const booted = performance.now();

  const wheelsDir = path.resolve(opts.site, "wheels");
  const manifest = JSON.parse(fs.readFileSync(path.join(wheelsDir, "manifest.json"), "utf8"));
  const files = manifest.wheels.map((name) => path.join(wheelsDir, name));
  const errors = [];
  const loaded = await pyodide.loadPackage(files, {
    messageCallback: () => {}, errorCallback: (m) => errors.push(m),
  });
  if (errors.length || loaded.length !== files.length) {
    throw new Error(`installing wheels failed (${loaded.length}/${files.length}): ${errors.join("; ")}`);
  }
  const installed = performance.now();

  const FS = pyodide.FS;
  FS.mkdirTree("/src/tests");
  FS.mount(FS.filesystems.NODEFS, { root: path.resolve(opts.tests) }, "/src/tests");
  if (opts.shared) {
    FS.mkdirTree("/shared/tck");
    FS.mount(FS.filesystems.NODEFS, { root: path.resolve(opts.shared) }, "/shared/tck");
  }
  FS.mkdirTree("/extra");
  for (const m of opts.modules) copyInto(FS, path.resolve(m), `/extra/${path.basename(m)}`);

  pyodide.globals.set("ARGV", pyodide.toPy(["/tmp/verdicts.json", ...opts.rest]));
  pyodide.runPython(`
import sys
sys.dont_write_bytecode = True
sys.path[:0] = ["/src", "/extra"]
from tests.pyodide.verdicts import inside
inside(list(ARGV))
`);
  const doc = JSON.parse(FS.readFile("/tmp/verdicts.json", { encoding: "utf8" }));
  doc.meta.node = { boot_s: (booted - t0) / 1000, install_s: (installed - booted) / 1000,
                    total_s: (performance.now() - t0) / 1000, wheels: manifest.wheels };
  fs.writeFileSync(opts.out, JSON.stringify(doc) + "\n");
}

main().then(() => process.exit(0), (error) => {
  process.stderr.write(`tests/pyodide/run.mjs: ${error?.stack ?? error}\n`);
  process.exit(1);
});
