#!/usr/bin/env bash
# What the fail-over test (`npm run test:failover`) needs beyond `npm test`: Debian's
# pg_auto_failover for PostgreSQL 15 (pg_autoctl: a monitor and two data nodes) and pgbouncer.
# Installed with apt when missing: as root, or through sudo.
set -euo pipefail
command -v pg_autoctl >/dev/null 2>&1 && command -v pgbouncer >/dev/null 2>&1 && exit 0
echo "test:failover: installing Debian's postgresql-15-auto-failover and pgbouncer" >&2
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq postgresql-15-auto-failover pgbouncer >/dev/null
