#!/usr/bin/env bash
# Optional tools some tests use when present (ripgrep, fd, tmux, Chromium for the HTML export
# viewer's browser tests, driven by playwright-core without downloading a browser, and openssl, which
# makes the throwaway CA of the TLS-inspecting proxy tests). tau itself never needs them;
# tests that need one skip with a stated reason when it cannot be installed here.
set -uo pipefail
missing=()
command -v rg >/dev/null 2>&1 || missing+=(ripgrep)
command -v fd >/dev/null 2>&1 || command -v fdfind >/dev/null 2>&1 || missing+=(fd-find)
command -v tmux >/dev/null 2>&1 || missing+=(tmux)
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || missing+=(chromium)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "== installing optional test tools: ${missing[*]}" >&2
	(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}") >/dev/null 2>&1 ||
		echo "== could not install ${missing[*]}; tests that need them will skip with a reason" >&2
else
	echo "== optional test tools missing (${missing[*]}); tests that need them will skip with a reason" >&2
fi
exit 0
