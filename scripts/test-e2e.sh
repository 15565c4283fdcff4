#!/usr/bin/env bash
# The real-n8n suite: both n8n lines, installed into .cache/ on first use, with this package installed from
# its packed tarball. Installs Debian's Chromium for the editor screenshot when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
	echo "== installing Debian chromium (for the editor screenshot)"
	if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium > /dev/null
fi

exec npx jest --selectProjects e2e --runInBand "$@"
