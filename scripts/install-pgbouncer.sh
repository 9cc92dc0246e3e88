#!/usr/bin/env bash
# The PgBouncer tests (vitest project `pgbouncer`) run Debian's pgbouncer in front of the test
# PostgreSQL. Installs it when missing; quiet and quick when it is there.
set -euo pipefail
if command -v pgbouncer >/dev/null 2>&1 || [ -x /usr/sbin/pgbouncer ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "pgbouncer is missing, so the PgBouncer tests will fail: install it with 'sudo apt-get install -y pgbouncer'." >&2
  exit 0
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pgbouncer >/dev/null
