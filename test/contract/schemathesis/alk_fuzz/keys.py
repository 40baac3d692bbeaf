"""Which API key each request carries, and how a request's key is classified afterwards.

Examples and coverage cases carry the funded key, so their documented answers (200, 400, 404)
are reached. In the fuzzing phase every second positive case of an operation carries, in turn, a
key the service must refuse: that is how 401 (for each reason) is produced under generated input,
with every check still applied to those responses. Every third negative case of a billed
operation in the fuzzing phase carries the key without credits, whose invalid parameters must
answer 400 all the same (parameters are checked before the balance). The key without credits
never carries positive input: its 402 is no acceptance of well-formed input, so
positive_data_acceptance could not keep schemathesis' default settings;
scripts/contract/retries-and-limits.ts produces 402 on every billed operation instead.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Mapping

import schemathesis
from schemathesis import GenerationMode
from schemathesis.generation.meta import TestPhase

from .state import KEYS, KIND_BY_KEY

SPECIAL = ["revoked", "disabled", "none", "unknown", "malformed", "conflicting"]
REFUSED = frozenset({"none", "malformed", "unknown", "revoked", "disabled", "conflicting"})
"""Kinds the service must answer with 401 (after the path and method checks)."""

BEARER = re.compile(r"^Bearer +(\S+) *$", re.IGNORECASE)

_lock = threading.Lock()
_calls: Counter[tuple[str, str]] = Counter()


def _next(counter_key: tuple[str, str]) -> int:
    with _lock:
        index = _calls[counter_key]
        _calls[counter_key] += 1
    return index


def choose(case) -> tuple[str, bool]:
    """The key kind for this case, and whether it goes in `Authorization: Bearer` (else `x-api-key`)."""
    label = case.operation.label
    # Alternate the two equivalent headers, so both security schemes are exercised everywhere.
    use_bearer = _next((label, "header")) % 2 == 0
    meta = case.meta
    if meta is None or meta.phase.name != TestPhase.FUZZING:
        return "funded", use_bearer
    if meta.generation.mode != GenerationMode.POSITIVE:
        # Negative cases carry a valid key, so that their 400 (parameters come after the key) shows.
        billed = int(case.operation.definition.raw["x-credit-cost"]) > 0
        if not billed or case.operation.schema.is_security_param_negated(case):
            return "funded", use_bearer
        return ("poor" if _next((label, "negative")) % 3 == 2 else "funded"), use_bearer
    index = _next((label, "fuzzing"))
    kind = SPECIAL[(index // 2) % len(SPECIAL)] if index % 2 == 1 else "funded"
    return kind, use_bearer


@schemathesis.auth(refresh_interval=None)
class RotatingKeys:
    def get(self, case, ctx):
        return choose(case)

    def set(self, case, choice, ctx):
        kind, use_bearer = choice
        if case.headers is None:
            case.headers = {}
        for name in list(case.headers):
            if name.lower() in ("authorization", "x-api-key"):
                del case.headers[name]
        if kind == "none":
            return
        if kind == "conflicting":
            case.headers["Authorization"] = f"Bearer {KEYS['funded']}"
            case.headers["x-api-key"] = KEYS["poor"]
        elif use_bearer:
            case.headers["Authorization"] = f"Bearer {KEYS[kind]}"
        else:
            case.headers["x-api-key"] = KEYS[kind]


def _first(headers: Mapping, name: str) -> str | None:
    for key, value in headers.items():
        if key.lower() == name:
            return value[0] if isinstance(value, list) else value
    return None


def classify(request_headers: Mapping) -> str:
    """The kind of key a request carried, read from the headers as they were sent."""
    authorization = _first(request_headers, "authorization")
    header_key = _first(request_headers, "x-api-key")
    if authorization is None and header_key is None:
        return "none"
    bearer = None
    if authorization is not None:
        match = BEARER.match(authorization)
        if match is None:
            return "malformed"
        bearer = match.group(1)
    if bearer is not None and header_key is not None and bearer != header_key:
        return "conflicting"
    # A value the orchestrator did not issue (one schemathesis generated) cannot be a valid key.
    return KIND_BY_KEY.get(bearer or header_key, "malformed")
