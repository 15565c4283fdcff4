#!/usr/bin/env bash
# The real-n8n suite: both n8n lines (installed once per machine, see scripts/n8n/paths.ts), with this package
# installed from its packed tarball. The editor tests need Debian's Chromium: in CI (CI set, as root) it is
# installed when missing; elsewhere nothing is installed and, without it, the editor tests are skipped with a
# message (test/e2e/support/editor.ts) — no sudo is ever asked for.
#
# The files run in BAAS_E2E_WORKERS parallel jest workers (default 2: most of a file's time is waiting for minute
# polls and for n8n to start; 3 is faster on a quiet machine but starts three n8n at once, see .ci/run).
# test/e2e/globalSetup.ts packs and installs once before any file runs, and gives each worker its own ports; the
# longest files go first (test/e2e/sequencer.js). Each file's time is printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ] && [ -n "${CI:-}" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "CI needs /usr/bin/chromium for the editor tests: install Debian's chromium package" >&2
		exit 1
	fi
	echo "== installing Debian chromium (for the editor tests)"
	# One apt at a time (.ci/run starts the queue suite, which may install Postgres, beside this one).
	flock /tmp/n8n-nodes-baas-apt.lock sh -c 'apt-get update -qq &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 chromium > /dev/null'
fi

BAAS_FILE_TIMES=1 exec npx jest --selectProjects e2e --maxWorkers="${BAAS_E2E_WORKERS:-2}" "$@"
