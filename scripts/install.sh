#!/usr/bin/env bash
# Installs dependencies when node_modules is missing or older than the lockfile.
set -euo pipefail
cd "$(dirname "$0")/.."
marker=node_modules/.package-lock.json
if [ ! -f "$marker" ] || [ package-lock.json -nt "$marker" ]; then
	echo "== installing dependencies (npm ci --ignore-scripts)" >&2
	npm ci --ignore-scripts --no-audit --no-fund >&2
fi
