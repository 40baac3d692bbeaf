"""positive_data_acceptance, narrowed to the answers openapi.yaml documents for well-formed input.

Schemathesis' own positive_data_acceptance runs with its default settings (any 2xx or 3xx, 401,
403, 404, 409, 429 or 5xx accepts the input): every value the schemas allow must be accepted.
This check applies the same test to the same cases with the contract run's narrower list
(`expected_statuses` in schemathesis.toml): only the documented answers to well-formed input.
"""

from __future__ import annotations

import schemathesis
from schemathesis.specs.openapi.checks import is_unexpected_http_status_case


@schemathesis.check
class DocumentedPositiveAnswers:
    """Every case schemathesis files as positive (after the hooks' changes) gets one of `expected_statuses`."""

    def __init__(self, expected_statuses: list[str] | None = None) -> None:
        if not expected_statuses:
            raise ValueError("DocumentedPositiveAnswers needs expected_statuses (schemathesis.toml)")
        self.expected = {int(status) for status in expected_statuses}

    def after_response(self, ctx, response, case):
        meta = case.meta
        # As the built-in check: cases with metadata only, and not the coverage phase's request-shape probes.
        if meta is None or not meta.generation.mode.is_positive or is_unexpected_http_status_case(case):
            return None
        assert response.status_code in self.expected, (
            f"Valid data should have been accepted with one of {sorted(self.expected)}, "
            f"got {response.status_code} for {response.request.method} {case.operation.path}"
        )
        return None
