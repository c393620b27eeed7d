#!/usr/bin/env bash
# Fresh clone or old checkout -> everything ./run and ./run-tests need; safe to run again.
#   .venv (system python3) with the project editable + native and test extras, pinned by constraints.txt
#   node_modules/pyodide, cytoscape and neo4j-driver (browser tests only) from the committed package-lock.json (npm ci)
#   Debian's chromium for the browser tests, when /usr/bin/chromium is missing and we are root
set -euo pipefail
cd "$(dirname "$0")/.."
export PIP_DISABLE_PIP_VERSION_CHECK=1

as_root() { [ "$(id -u)" = 0 ]; }
apt_updated=""
apt_install() {
  if [ -z "$apt_updated" ]; then apt-get update -qq; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv with $(command -v python3) ($(python3 --version))"
  python3 -m venv .venv
fi
echo "setup: installing the project into .venv (constraints.txt)"
# hatchling too: build/site.py then builds the wheel without an isolated build env.
.venv/bin/python -m pip install -q -c constraints.txt -e '.[native,test]' hatchling

if ! command -v npm >/dev/null 2>&1; then
  if as_root; then echo "setup: installing nodejs and npm (apt)"; apt_install nodejs npm
  else echo "setup: npm is missing; install Node.js and npm" >&2; exit 1; fi
fi
echo "setup: npm ci (pyodide, cytoscape and neo4j-driver, pinned in package-lock.json)"
npm ci --no-audit --no-fund --loglevel=error

if [ ! -x /usr/bin/chromium ]; then
  if as_root; then echo "setup: installing chromium (apt)"; apt_install chromium
  else echo "setup: /usr/bin/chromium is missing and we are not root: browser tests will skip (fail under CI)" >&2; fi
fi
