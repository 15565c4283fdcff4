#!/usr/bin/env bash
# The real-n8n suite: both n8n lines (installed once per machine, see scripts/n8n/paths.ts), with this package
# installed from its packed tarball. The editor tests need Debian's Chromium: in CI (CI set, as root) it is
# installed when missing; elsewhere nothing is installed and, without it, the editor tests are skipped with a
# message (test/e2e/support/editor.ts) — no sudo is ever asked for.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ] && [ -n "${CI:-}" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "CI needs /usr/bin/chromium for the editor tests: install Debian's chromium package" >&2
		exit 1
	fi
	echo "== installing Debian chromium (for the editor tests)"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium > /dev/null
fi

exec npx jest --selectProjects e2e --runInBand "$@"
