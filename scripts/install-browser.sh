#!/usr/bin/env bash
# The browser tests use Debian's Chromium (Playwright's own download cannot reach its host).
# Installs it when missing; quiet and quick when it is there.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "Chromium is missing, so the browser tests will fail: install it with 'sudo apt-get install -y chromium'." >&2
  exit 0
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
