"""Reading a schemathesis response: headers by name, the JSON body, the key the request carried."""

from __future__ import annotations

import json
from typing import Any

from .keys import classify


def header(response, name: str) -> str | None:
    values = response.headers.get(name.lower())
    return values[0] if values else None


def body(response) -> Any:
    if response.request.method == "HEAD" or not response.content:
        return None
    try:
        return json.loads(response.content)
    except ValueError:
        return None


def key_kind(response) -> str:
    return classify(response.request.headers)


def price(case) -> int:
    return int(case.operation.definition.raw["x-credit-cost"])


def needs_no_key(case) -> bool:
    """An operation that documents `security: []` (the operations endpoints: health, readiness, metrics)."""
    return case.operation.definition.raw.get("security") == []


def takes_idempotency_key(case) -> bool:
    """The operation declares the Idempotency-Key header: the billed ones, and createWatch."""
    return any(parameter.name == "Idempotency-Key" for parameter in case.operation.headers)


_METHOD_ORDER = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]


def allowed_methods(case) -> list[str]:
    """What the service's 405 lists in Allow for the case's path: the contract's methods of the
    path, in the service's order (src/contract/operations.ts), and HEAD with GET."""
    item = case.operation.schema.raw_schema["paths"][case.operation.path]
    methods = [method.upper() for method in _METHOD_ORDER if method in item]
    if "GET" in methods and "HEAD" not in methods:
        methods.append("HEAD")
    return methods
