"""Records every response of the run, and fails the run when a documented status never came back.

Schemathesis checks that each status it sees is documented; this check adds the converse: every
status code openapi.yaml documents for an operation must actually be produced. The records
(`responses.jsonl`) feed the per-operation report of scripts/contract/coverage.ts, which also
asserts each documented error code and each reason for 401.
"""

from __future__ import annotations

import json
import threading
from collections import defaultdict

import schemathesis

from .responses import body, header, key_kind
from .state import OUTPUT

HTTP_METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}

_documented: dict[str, set[str]] = {}
# Module-level, not per instance: with --workers each worker may hold its own check instance.
_seen: dict[str, set[str]] = defaultdict(set)
_lock = threading.Lock()


@schemathesis.hook
def after_load_schema(context, schema):
    for path, item in schema.raw_schema["paths"].items():
        for method, operation in item.items():
            if method in HTTP_METHODS:
                _documented[f"{method.upper()} {path}"] = set(operation["responses"])


def _record(response, case) -> None:
    payload = body(response)
    meta = case.meta
    line = {
        "operation": case.operation.label,
        "method": response.request.method,
        "status": response.status_code,
        "error": payload.get("error") if isinstance(payload, dict) else None,
        "key": key_kind(response),
        "mode": str(meta.generation.mode) if meta else None,
        "phase": str(meta.phase.name) if meta else None,
        "request_id": header(response, "X-Request-Id"),
        "charged": header(response, "X-Credits-Charged"),
        "replayed": header(response, "Idempotent-Replayed") == "true",
    }
    with _lock, (OUTPUT / "responses.jsonl").open("a", encoding="utf-8") as out:
        _seen[case.operation.label].add(str(response.status_code))
        out.write(json.dumps(line) + "\n")


@schemathesis.check
class DocumentedStatusCoverage:
    """Every documented status code of every operation is produced during the run."""

    def __init__(self, produced_elsewhere: list[str] | None = None) -> None:
        # Codes a healthy service cannot give (500, 503); the orchestrator produces them by fault injection.
        self.produced_elsewhere = {str(code) for code in produced_elsewhere or []}

    def after_response(self, ctx, response, case):
        _record(response, case)

    def after_run(self, ctx):
        assert _documented, "the schema was never loaded"
        # An entry is a status of every operation (`402`), or of one (`GET /api/v1/watches/{id} 200`).
        missing = {
            operation: sorted(
                code
                for code in codes - _seen[operation] - self.produced_elsewhere
                if f"{operation} {code}" not in self.produced_elsewhere
            )
            for operation, codes in sorted(_documented.items())
        }
        missing = {operation: codes for operation, codes in missing.items() if codes}
        lines = [f"{operation}: never answered {', '.join(codes)}" for operation, codes in missing.items()]
        assert not missing, "documented status codes never produced:\n" + "\n".join(lines)
