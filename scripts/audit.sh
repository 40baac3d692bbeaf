#!/usr/bin/env bash
# `npm audit` gate for CI: fails when any installed package, dev dependencies included, has a
# high or critical advisory. Dev dependencies count because `npm start` runs a plain
# `npm install`, so they are installed on every machine that serves the API, and CI runs them
# with the source and the database at hand.
#
# npm audit needs the registry's advisory endpoint (a POST). Where the registry does not offer
# it (a mirror or proxy that serves only package downloads), the audit cannot run at all: that is
# reported loudly and, unless AUDIT_REQUIRED=1, does not fail the build, because it says nothing
# about the dependencies. Findings always fail it.
set -uo pipefail
cd "$(dirname "$0")/.."

report="$(npm audit --json 2>/dev/null)"
summary="$(printf '%s' "$report" | node -e '
  let input = "";
  process.stdin.on("data", (chunk) => (input += chunk)).on("end", () => {
    let parsed;
    try { parsed = JSON.parse(input); } catch { parsed = {}; }
    const counts = parsed.metadata?.vulnerabilities;
    if (!counts) {
      console.log(`unavailable ${parsed.message ?? parsed.error?.summary ?? "no report"}`);
      return;
    }
    const blocking = (counts.high ?? 0) + (counts.critical ?? 0);
    console.log(`${blocking > 0 ? "blocking" : "clean"} critical ${counts.critical ?? 0}, high ${counts.high ?? 0}, moderate ${counts.moderate ?? 0}, low ${counts.low ?? 0}`);
  });
')"

case "$summary" in
  clean*)
    echo "npm audit: no high or critical advisory (${summary#clean })"
    ;;
  blocking*)
    echo "npm audit: high or critical advisories (${summary#blocking }):"
    npm audit --audit-level=high
    exit 1
    ;;
  *)
    echo "npm audit: DID NOT RUN: the registry refused the advisory request (${summary#unavailable })."
    if [ "${AUDIT_REQUIRED:-0}" = "1" ]; then exit 1; fi
    echo "npm audit: continuing without an audit result (set AUDIT_REQUIRED=1 to make this fatal)."
    ;;
esac
