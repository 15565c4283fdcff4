#!/usr/bin/env bash
# The queue-mode suite: n8n 2.x as main + 2 workers + 2 webhook processors on private Postgres and Redis.
# Installs Debian's postgresql and redis-server when missing (their services are never started: the suite runs
# private instances with data in temporary folders).
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ ! -x /usr/lib/postgresql/15/bin/postgres ] || ! command -v redis-server > /dev/null; then
	echo "== installing Debian postgresql and redis-server (private instances only)"
	if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
	# One apt at a time (.ci/run runs the e2e suite, which may install Chromium, beside this one).
	$SUDO flock /tmp/n8n-nodes-baas-apt.lock sh -c 'apt-get update -qq &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 postgresql redis-server > /dev/null'
fi

BAAS_FILE_TIMES=1 exec npx jest --selectProjects queue --runInBand "$@"
