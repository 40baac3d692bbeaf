"""Input for the parameter rules beyond what the schemas generate (docs/product-rules.md §3).

The schemas say what the service accepts: every `name` and every `domain` schemathesis generates
from them is accepted (200, or a charged 404), which is what positive_data_acceptance checks with
schemathesis' default settings. `name` is stated exactly (not only white space, at most
`maxLength` code points). `domain` is stated by a sound but partial pattern: the service accepts
much more (URLs, every public suffix, internationalized names; test/contract/parameters.test.ts and
root-domain.test.ts prove those), so a value the pattern refuses may still be a valid domain.

Schemathesis revalidates every case this hook changes against the schema and files it as positive
or negative accordingly, so what is sent here is judged by what the schema says about it.

Positive cases. One `domain` in four becomes a demo-dataset host in a shape the pattern allows, so
generated input also reaches real data (200), not only 404; the rest go as generated.

Negative cases. A `domain` the schema refuses but that may still name a registrable domain (say
a label longer than the pattern allows, or `example.fr`) becomes a value the rule refuses; only
blank values and ASCII without a dot or `%` (at most a single label) are certain to be refused as
generated. In the fuzzing phase, three cases in four (of those whose key header schemathesis left
alone) get instead a value that only the prose rules make invalid: a name over `maxLength` code
points, a parameter given twice, or a domain without a registrable domain (IP address, single
label, bare public suffix, unknown top-level domain, other scheme, host over 253 characters).
That is how `invalid_name` and `invalid_domain` are produced under fuzzing.

Every choice is derived from the generated value itself, so a seed always gives the same requests.
"""

from __future__ import annotations

import base64
import datetime
import re
import zlib

import jsonschema_rs
import schemathesis
from schemathesis import GenerationMode
from schemathesis.generation.meta import TestPhase

# What the contract states, read when schemathesis loads it.
_contract: dict = {}

# The `name` pattern: a character that JavaScript's `trim` would keep.
NON_BLANK = re.compile("[^\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]")

# Demo-dataset domains, in shapes the `domain` pattern allows (upper case and sub-domains included).
DEMO_HOSTS = ["acme-outdoor.com", "www.acme-outdoor.com", "WWW.Acme-Outdoor.com", "globex-retail.com", "Shop.Globex-Retail.com"]


def _resolve(document: dict, node: dict) -> dict:
    while isinstance(node, dict) and "$ref" in node:
        for part in node["$ref"].lstrip("#/").split("/"):
            document = document[part.replace("~1", "/").replace("~0", "~")]
        node = document
    return node


@schemathesis.hook
def after_load_schema(context, schema):
    raw = schema.raw_schema
    parameters = raw["components"]["parameters"]
    domain = _resolve(raw, _resolve(raw, parameters["domain"])["schema"])
    _contract["domain"] = jsonschema_rs.validator_for(domain)
    _contract["max_name"] = _resolve(raw, _resolve(raw, parameters["name"])["schema"])["maxLength"]


def _seed(value: str) -> int:
    return zlib.crc32(value.encode("utf-8", "surrogatepass"))


def _pick(options: list, seed: int, salt: int):
    return options[zlib.crc32(salt.to_bytes(2, "big"), seed) % len(options)]


def positive_domain(value: str) -> str:
    """The generated value, or (one in four) a demo-dataset host the pattern allows."""
    seed = _seed(value)
    return _pick(DEMO_HOSTS, seed, 4) if seed % 4 == 0 else value


def certainly_refused(value: str) -> bool:
    """No host with a registrable domain can come of `value`: blank, or ASCII without a dot or `%`."""
    return not NON_BLANK.search(value) or (value.isascii() and "." not in value and "%" not in value)


def refused_domain(value, seed_text: str):
    """A `domain` of a negative case, made certain to be refused when the schema's refusal is not enough."""
    if not isinstance(value, str) or _contract["domain"].is_valid(value) or certainly_refused(value):
        return value
    return invalid_domain(seed_text)


def invalid_domain(value: str) -> str | list[str]:
    """A value the `domain` rules refuse with 400 invalid_domain."""
    seed = _seed(value)
    label = re.sub(r"[^a-z0-9]", "", value.lower())[:20] or "brand"
    return _pick(
        [
            [_pick(DEMO_HOSTS, seed, 11), _pick(DEMO_HOSTS, seed, 12)],
            f"{seed % 256}.{seed // 256 % 256}.0.1",
            f"https://[2001:db8::{seed % 9999}]/",
            "localhost",
            label,
            "co.uk",
            f"{label}.con",
            f"ftp://{label}.com/",
            f"{label}..com",
            f"{'a' * 63}.{'b' * 63}.{'c' * 63}.{'d' * 63}.{label}.com",
            f"{label}$shop.com",
        ],
        seed,
        9,
    )


def invalid_name(value: str) -> str | list[str]:
    """A value the `name` rules refuse with 400: too long (invalid_name) or given twice (invalid_name)."""
    seed = _seed(value)
    text = value if NON_BLANK.search(value) else f"{value}x"
    limit = _contract["max_name"]
    # Astral characters: 513 of them are 1026 UTF-16 units, so the limit must count code points.
    return _pick(
        [(text + "𝒜") * (limit // max(1, len(text) + 1) + 1), [text, text], [text, "Acme Outdoor"]],
        seed,
        10,
    )


def positive_cursor(value: str) -> str:
    """A cursor the service made: base64url of `ledger:<id>` (the schema says only its alphabet)."""
    entry = 1 + _seed(value) % 1_000_000
    return base64.urlsafe_b64encode(f"ledger:{entry}".encode()).decode().rstrip("=")


def positive_range(query: dict) -> None:
    """`from` and `to` in order and at most 366 days apart (a rule across the two the schema cannot state)."""
    today = datetime.datetime.now(datetime.timezone.utc).date()
    to = datetime.date.fromisoformat(query["to"]) if "to" in query else today
    first = datetime.date.fromisoformat(query["from"]) if "from" in query else to - datetime.timedelta(days=29)
    if first > to:
        first, to = to, first
    if (to - first).days > 365:
        first = to - datetime.timedelta(days=365)
    if "to" not in query and first > today:
        first = today
    if "from" in query:
        query["from"] = first.isoformat()
    if "to" in query:
        query["to"] = to.isoformat()


def watch_inputs(case, negative: bool) -> None:
    """The watches' inputs the schemas cannot state (docs/product-rules.md R19.4, R19.6).

    A negative createWatch body whose domain target the pattern refuses but the rule may accept (a
    URL, `example.fr`) gets a target the rule refuses; a negative watch id of `.` or `..`, which
    the client would resolve away as a path segment, gets one that stays a segment.
    """
    if negative and isinstance(case.body, dict) and case.body.get("kind") == "domain":
        target = case.body.get("target")
        if isinstance(target, str):
            refused = refused_domain(target, repr(target))
            case.body["target"] = refused if isinstance(refused, str) else "localhost"
    path_parameters = case.path_parameters
    if negative and isinstance(path_parameters, dict) and path_parameters.get("id") in (".", ".."):
        path_parameters["id"] = "not-a-watch"


@schemathesis.hook
def map_case(context, case):
    meta = case.meta
    if meta is not None and meta.phase.name != TestPhase.EXAMPLES:
        watch_inputs(case, meta.generation.mode != GenerationMode.POSITIVE)
    query = case.query
    if meta is None or not isinstance(query, dict) or meta.phase.name == TestPhase.EXAMPLES:
        return case
    if meta.generation.mode == GenerationMode.POSITIVE:
        if isinstance(query.get("domain"), str):
            query["domain"] = positive_domain(query["domain"])
        if isinstance(query.get("cursor"), str):
            query["cursor"] = positive_cursor(query["cursor"])
        if isinstance(query.get("from"), str) or isinstance(query.get("to"), str):
            positive_range(query)
        return case
    if "domain" in query:
        query["domain"] = refused_domain(query["domain"], repr(query["domain"]))
    if meta.phase.name == TestPhase.FUZZING and not case.operation.schema.is_security_param_negated(case):
        # A case whose key header schemathesis negated answers 401 before any parameter is read;
        # the coverage phase already sends each schema negation (absent, blank, wrong type) once.
        declared = {parameter.name for parameter in case.operation.query}
        for parameter, make_invalid in (("domain", invalid_domain), ("name", invalid_name)):
            seed_text = repr(query.get(parameter))
            if parameter in declared and _seed(seed_text) % 4 != 0:
                query[parameter] = make_invalid(seed_text)
    return case
