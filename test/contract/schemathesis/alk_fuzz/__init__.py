"""Schemathesis hooks for the contract fuzzing of openapi.yaml (loaded with SCHEMATHESIS_HOOKS=alk_fuzz).

Registering happens on import: the key rotation (keys), the generation of registrable domains for
positive cases (inputs), the per-response billing and key checks (billing), the record of every
response with the documented-status coverage check (coverage), and the request counter (wire).
"""

from . import billing, coverage, inputs, keys, wire  # noqa: F401
