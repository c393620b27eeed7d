// The site's wheels, installed into the vendored Pyodide under Node -> the bytecode that Pyodide's
// own Python compiles from their modules (build/bytecode.py writes it into the wheels).
//
//   node build/precompile.mjs PYODIDE_DIR/ REQUEST.json ANSWER.json
//
// REQUEST: {"wheels": [path, ...], "sources": [path of a .py inside site-packages, ...]}
// ANSWER:  {"<path of its .pyc inside site-packages>": "<base64>", ...}
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [indexURL, requestPath, answerPath] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
const request = JSON.parse(readFileSync(requestPath, "utf8"));
const pyodide = await loadPyodide({ indexURL });
await pyodide.loadPackage(request.wheels, { messageCallback: () => {} });
pyodide.globals.set("sources", pyodide.toPy(request.sources));
const answer = pyodide.runPython(`
import base64, importlib.util, json, py_compile, site
root = site.getsitepackages()[0]
out = {}
for source in sources:
    path = f"{root}/{source}"
    # unchecked: the page's unpacked files carry no times the .pyc could be checked against
    pyc = py_compile.compile(path, doraise=True, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    with open(pyc, "rb") as f:
        out[pyc[len(root) + 1:]] = base64.b64encode(f.read()).decode("ascii")
json.dumps(out)
`);
writeFileSync(answerPath, answer);
