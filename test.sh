#!/usr/bin/env bash
# The one test command: install if needed, type-check, lint, check import cycles, layers and file
# sizes, then run every package's tests hermetically. Ends with exactly one line: `tests: N passed, N failed[, N skipped]`.
set -uo pipefail
cd "$(dirname "$0")"
repo=$(pwd)

# Everything a test may write lives under one temp dir, which is the only thing this script deletes.
work=$(mktemp -d "${TMPDIR:-/tmp}/tau-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work"/{home,xdg-config,xdg-data,xdg-cache,xdg-state,npm-cache,tmp}

gate_failures=0
gate_count=0
failed_gates=()
gate() {
	local label=$1
	shift
	echo "== $label"
	gate_count=$((gate_count + 1))
	local log="$work/gate-$gate_count.log"
	if ! "$@" 2>&1 | tee "$log"; then
		echo "!! $label failed"
		gate_failures=$((gate_failures + 1))
		failed_gates+=("$label|$log")
		return 1
	fi
}

# CI logs keep only the tail: repeat what each failed gate said just before the closing line. The
# first lines name the root cause (tsc reports a failed dependency before its consequences).
recap_failed_gates() {
	local entry log lines
	for entry in "${failed_gates[@]}"; do
		log=${entry#*|}
		lines=$(wc -l <"$log")
		echo "!! gate failed: ${entry%%|*} ($lines lines; first 25 and last 15 follow)"
		if [ "$lines" -le 40 ]; then
			cat "$log"
		else
			head -n 25 "$log"
			echo "   ..."
			tail -n 15 "$log"
		fi
	done
}

bash scripts/install.sh || { echo "tests: 0 passed, 1 failed"; exit 1; }
bash scripts/install-test-tools.sh

# The pi 1.6 reference (optional; its interop tests skip with the reason when it cannot be installed).
pi_node=""
pi_cli=""
while IFS= read -r line; do
	case "$line" in
	TAU_PI_NODE=*) pi_node=${line#TAU_PI_NODE=} ;;
	TAU_PI_CLI=*) pi_cli=${line#TAU_PI_CLI=} ;;
	skipped:*) echo "== pi 1.6 reference ${line}" >&2 ;;
	esac
done < <(node scripts/pi-reference.mjs)

# Real MCP servers from npm (optional; the tests that use them skip with the reason when missing).
mcp_servers=""
while IFS= read -r line; do
	case "$line" in
	TAU_MCP_SERVERS=*) mcp_servers=${line#TAU_MCP_SERVERS=} ;;
	skipped:*) echo "== MCP test servers ${line}" >&2 ;;
	esac
done < <(node scripts/mcp-test-servers.mjs)

gate "project references" node scripts/check-references.mjs
gate "type-check (tsc -b)" node_modules/.bin/tsc -b
gate "bundle the CLI (esbuild)" node scripts/bundle-cli.mjs
gate "lint (biome check)" node_modules/.bin/biome check --error-on-warnings --no-errors-on-unmatched .
gate "import cycles and layers" node scripts/check-cycles.mjs
gate "source file size" node scripts/check-file-size.mjs
gate "doc citations" node scripts/check-doc-citations.mjs

# A whitelisted environment: no provider keys, no real HOME, no user config reach the tests.
echo "== tests (vitest)"
env -i \
	PATH="$PATH" \
	HOME="$work/home" \
	USER="${USER:-tau}" \
	LANG=C.UTF-8 \
	TERM=xterm-256color \
	TMPDIR="$work/tmp" \
	XDG_CONFIG_HOME="$work/xdg-config" \
	XDG_DATA_HOME="$work/xdg-data" \
	XDG_CACHE_HOME="$work/xdg-cache" \
	XDG_STATE_HOME="$work/xdg-state" \
	npm_config_cache="$work/npm-cache" \
	CI="${CI:-}" \
	TAU_TEST_REPO="$repo" \
	TAU_PI_NODE="$pi_node" \
	TAU_PI_CLI="$pi_cli" \
	TAU_MCP_SERVERS="$mcp_servers" \
	node node_modules/vitest/vitest.mjs run \
	--reporter=default --reporter=json --outputFile.json="$work/results.json" "$@"
vitest_rc=$?

recap_failed_gates
node scripts/test-summary.mjs "$work/results.json" "$gate_failures" "$vitest_rc"
