#!/usr/bin/env bash
# The browser tests use Debian's Chromium headless shell (Playwright's own download cannot reach
# its host): the same engine without the windowed browser's compositor, a sixth less time for
# the browser suite on 2 cores. Installs it when missing; quiet and quick when it is there.
set -euo pipefail
if command -v chromium-headless-shell >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "Chromium's headless shell is missing, so the browser tests will use 'chromium' if there is one: install it with 'sudo apt-get install -y chromium-headless-shell'." >&2
  exit 0
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >/dev/null
