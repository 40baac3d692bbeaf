"""Schemathesis hooks for the contract fuzzing of openapi.yaml (loaded with SCHEMATHESIS_HOOKS=alk_fuzz).

Registering happens on import: the key rotation (keys), the inputs the schemas cannot state
(inputs), one Idempotency-Key per request (idempotency, registered after inputs: hooks run in the
order they were registered), the per-response billing and key checks (billing), the documented
answers to positive input (acceptance), the record of every response with the documented-status
coverage check (coverage), and the request counter (wire).
"""

from . import inputs  # noqa: F401  (first: idempotency's map_case must see the query inputs made)
from . import acceptance, billing, coverage, idempotency, keys, wire  # noqa: F401
