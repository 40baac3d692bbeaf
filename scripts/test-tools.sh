#!/usr/bin/env bash
# What `npm test` needs beyond npm: Debian's Chromium, which the browser tests drive (nothing is
# downloaded by playwright-core). Installed with apt when missing: as root, or through sudo.
set -euo pipefail
command -v chromium >/dev/null 2>&1 && exit 0
echo "npm test: installing Debian's chromium for the browser tests" >&2
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq chromium >/dev/null
