"""One generated Idempotency-Key, one request: a recurring key never meets another query.

Generated keys recur across cases (`0`, `!`, the parameter's example), and the service answers
the same key with another operation or query `422 idempotency_key_reused`, which is right but is
no acceptance of well-formed input: with it, positive_data_acceptance could not run with its
default settings. So a key that an earlier case sent with another operation or query is made
distinct here (a prefix of hex digits and a dot derived from the operation and query, the length kept,
so the key stays within the schema); a key that recurs with the same operation and query stays as it is, so the fuzzing still
meets replays (`Idempotent-Replayed: true`, free). 422 is produced on every billed operation by
scripts/contract/retries-and-limits.ts instead.

Registered after alk_fuzz.inputs (see __init__), so it sees each case's final query; the cases of
the examples phase, which take no map_case, are made distinct before they are added.
"""

from __future__ import annotations

import json
import threading
import zlib

import jsonschema_rs
import schemathesis

HEADER = "idempotency-key"
_first_use: dict[str, str] = {}
_lock = threading.Lock()
_key_schema: list = []


@schemathesis.hook
def after_load_schema(context, schema):
    parameter = schema.raw_schema["components"]["parameters"]["Idempotency-Key"]
    _key_schema[:] = [jsonschema_rs.validator_for(parameter["schema"])]


def _request(case) -> str:
    # The body too: createWatch's body is what the key stands for (docs/product-rules.md R19.8).
    request = [case.operation.label, case.query, getattr(case, "body", None)]
    return json.dumps(request, sort_keys=True, default=repr, ensure_ascii=False)


def _well_formed(key) -> bool:
    """A key the service takes (the header parameter's schema); it refuses any other with 400."""
    return isinstance(key, str) and _key_schema[0].is_valid(key)


@schemathesis.hook
def before_add_examples(context, examples):
    # The examples phase takes no map_case; its cases share the parameter's example key.
    for case in examples:
        map_case(context, case)


@schemathesis.hook
def map_case(context, case):
    headers = case.headers or {}
    name = next((header for header in headers if header.lower() == HEADER), None)
    if name is None or not _well_formed(headers[name]):
        return case
    key = headers[name]
    request = _request(case)
    with _lock:
        salt = 0
        while _first_use.setdefault(key, request) != request:
            salt += 1
            prefix = f"{zlib.crc32(f'{salt}:{request}'.encode('utf-8', 'surrogatepass')):08x}."
            key = prefix + headers[name][len(prefix) :] if len(headers[name]) > len(prefix) else prefix + headers[name]
            key = key[:255]
    if key != headers[name]:
        case.headers[name] = key
    return case
