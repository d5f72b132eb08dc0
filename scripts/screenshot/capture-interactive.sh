#!/usr/bin/env bash
# Runs tau's interactive UI in a real terminal (a detached tmux server, 100×32) with the offline
# demo model, sends one prompt, captures the screen with its colours and renders it to SVG with
# ansi-to-svg.mjs. The README's picture comes from here: rerun it when the UI changes.
# Usage: bash scripts/screenshot/capture-interactive.sh [out.svg]   (needs tmux and a built CLI)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${1:-$repo/docs/images/interactive.svg}"
cli="$repo/packages/coding-agent/dist/bundle/cli.js"
[ -f "$cli" ] || { echo "capture-interactive: build first (npm run build)" >&2; exit 1; }
command -v tmux >/dev/null || { echo "capture-interactive: tmux is required" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/tau-screenshot.XXXXXX")"
socket="tau-screenshot-$$"
cleanup() {
	tmux -L "$socket" kill-server 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

# A home of its own (no personal settings) with a small project for the demo model to look at;
# the footer shows it as ~/widgets, so the picture does not change from run to run.
project="$work/home/widgets"
mkdir -p "$project/src"
printf '# Widget Factory\n\nMakes widgets from a YAML description.\n' >"$project/README.md"
printf 'export function makeWidget(name: string) {\n\treturn { name };\n}\n' >"$project/src/widget.ts"
printf '{ "name": "widgets", "private": true }\n' >"$project/package.json"

tmux -L "$socket" -f /dev/null new-session -d -s shot -x 100 -y 32 -c "$project" \
	env -i PATH="$PATH" HOME="$work/home" TERM=xterm-256color COLORTERM=truecolor LANG=C.UTF-8 \
	TAU_OFFLINE=1 node "$cli" --offline-demo

# Polls the screen (this is a script, not a test): up to 20 s for the text to appear.
wait_for() {
	for _ in $(seq 1 100); do
		if tmux -L "$socket" capture-pane -p -t shot | grep -q -- "$1"; then return 0; fi
		sleep 0.2
	done
	echo "capture-interactive: timed out waiting for \"$1\"" >&2
	tmux -L "$socket" capture-pane -p -t shot >&2
	exit 1
}

wait_for "offline"
tmux -L "$socket" send-keys -t shot -l "What is this project?"
tmux -L "$socket" send-keys -t shot Enter
wait_for "README.md starts with"
sleep 1 # the last frames (footer totals) settle
tmux -L "$socket" capture-pane -e -N -p -t shot >"$work/screen.ansi"
node "$repo/scripts/screenshot/ansi-to-svg.mjs" "$work/screen.ansi" "$out" --cols 100 --title "tau --offline-demo"
echo "wrote $out"
