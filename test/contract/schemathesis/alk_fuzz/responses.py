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
