"""Per-response check of what the contract says about keys and credits, beyond the schemas.

openapi.yaml states the order of checks (path, method, key, parameters, Idempotency-Key reuse,
rate limit, balance, query) and who pays: 401, 400, 402, 405, 422 and 429 are free, 200 and a data
404 cost the operation's `x-credit-cost` unless they replay an earlier answer with the same
Idempotency-Key (`Idempotent-Replayed: true`, free), and the credit headers and body fields agree.
The operations endpoints (`security: []`) need no key and ignore any: never 401, never a credit
header.
Schemathesis validates the shapes; this check validates those rules on every response, knowing
which key each request carried. Generated Idempotency-Key values recur across cases with the same
query (alk_fuzz/idempotency.py keeps them from meeting another one), so the fuzzing meets replays
as well.
"""

from __future__ import annotations

import schemathesis

from .keys import REFUSED
from .responses import allowed_methods, body, header, key_kind, needs_no_key, price, takes_idempotency_key


@schemathesis.check
def keys_and_credits(ctx, response, case):
    status = response.status_code
    method = response.request.method
    kind = key_kind(response)
    cost = price(case)
    charged = header(response, "X-Credits-Charged")
    remaining = header(response, "X-Credits-Remaining")
    where = f"{method} {case.operation.path} with the {kind} key answered {status}"

    allowed = allowed_methods(case)
    if method not in allowed:
        # The method is checked before the key: whatever the key, 405 with the path's Allow, free.
        assert status == 405, f"{where}; expected 405"
        assert header(response, "Allow") == ", ".join(allowed), f"{where}: Allow is {header(response, 'Allow')!r}"
        assert charged is None and remaining is None, f"{where}: a 405 must carry no credit headers"
        payload = body(response)
        assert isinstance(payload, dict) and payload.get("error") == "method_not_allowed", f"{where}: body {payload!r}"
        return None

    if needs_no_key(case):
        assert status != 401, f"{where}; an operation without security must ignore the key"
        assert charged is None and remaining is None, f"{where}: a free operation without a key sends no credit headers"
        return None

    if kind in REFUSED:
        assert status == 401, f"{where}; a {kind} key must get 401"
    if status == 401:
        assert kind in REFUSED, f"{where}; only a refused key may get 401"
        assert header(response, "WWW-Authenticate") == "Bearer", f"{where}: WWW-Authenticate missing"
        assert charged is None and remaining is None, f"{where}: a 401 must carry no credit headers"
        return None

    # The key is valid from here on: every answer carries both credit headers.
    assert charged is not None and remaining is not None, f"{where}: credit headers missing"
    if status == 402:
        assert kind == "poor", f"{where}; only the key without credits may get 402"
    if kind == "poor" and cost > 0:
        assert status in (400, 402), f"{where}; a key without credits gets 400 (parameters come first) or 402"
    if status in (201, 204, 400, 402, 409, 415, 422, 429):
        assert charged == "0", f"{where}: X-Credits-Charged is {charged}, but {status} is free"
    if status == 422:
        assert takes_idempotency_key(case), f"{where}; only operations that take an Idempotency-Key answer 422"
    payload = body(response)
    if header(response, "Idempotent-Replayed") == "true":
        # The stored first answer, byte for byte; the headers describe the replay, which is free.
        # A billed call keeps its charged answers (200, data 404), createWatch the watch it made or found.
        kept = (200, 404) if cost > 0 else (200, 201)
        assert status in kept and takes_idempotency_key(case), f"{where}: only a kept answer is replayed"
        assert charged == "0", f"{where}: a replay charged {charged}"
        if payload is not None and "credits_charged" in payload:
            assert payload["credits_charged"] == cost, f"{where}: replayed body credits_charged {payload['credits_charged']}"
        return None
    if status == 402 and payload is not None:
        assert payload.get("required") == cost, f"{where}: required is {payload.get('required')}, the price is {cost}"
        assert payload.get("balance") == int(remaining) < cost, (
            f"{where}: balance {payload.get('balance')} vs header {remaining}"
        )
    if status in (200, 404):
        assert charged == str(cost), f"{where}: X-Credits-Charged is {charged}, the price is {cost}"
        if payload is not None and "credits_charged" in payload:
            assert payload["credits_charged"] == cost, f"{where}: body credits_charged {payload['credits_charged']}"
            assert payload["credits_remaining"] == int(remaining), f"{where}: body and header balances differ"
        if payload is not None and "balance" in payload:
            assert payload["balance"] == int(remaining), f"{where}: balance and X-Credits-Remaining differ"
    return None
