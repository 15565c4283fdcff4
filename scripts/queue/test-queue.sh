#!/usr/bin/env bash
# The queue-mode suite: n8n 2.x as main + 2 workers + 2 webhook processors on private Postgres and Redis.
# Installs Debian's postgresql and redis-server when missing (their services are never started: the suite runs
# private instances with data in temporary folders).
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ ! -x /usr/lib/postgresql/15/bin/postgres ] || ! command -v redis-server > /dev/null; then
	echo "== installing Debian postgresql and redis-server (private instances only)"
	if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql redis-server > /dev/null
fi

exec npx jest --selectProjects queue --runInBand "$@"
