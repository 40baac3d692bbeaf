"""Input for the parameter rules that JSON Schema cannot state (product-decisions sections 3 and 8).

Positive cases. The `domain` parameter is valid when it names a host with a registrable domain
under the ICANN section of the Public Suffix List. No JSON Schema pattern can express that list,
so a generated string (`type: string` with a non-blank pattern) is almost never a real domain,
and the service rightly answers 400 invalid_domain. Positive cases therefore get the generated
value turned into a registrable domain, in one of the many shapes the parameter accepts (scheme,
user info, `www.` and other sub-domains, upper case, internationalized labels, port, path, query,
fragment, trailing dot, surrounding white space), with the generated text kept as label and path.
The `name` limit of 512 code points is stated in prose, not as maxLength (.spectral.yaml says
why), so positive names are cut to it.

Negative cases. The coverage phase sends each negation of what the schema states (absent, white
space only, wrong type); in the fuzzing phase three cases in four (of those whose key header
schemathesis left alone) get instead a value that only
the prose rules make invalid:
a name over 512 code points, a parameter given twice, or a domain without a registrable domain
(IP address, single label, bare public suffix, unknown top-level domain, other scheme, host over
253 characters). That is how `invalid_name` and `invalid_domain` are produced under fuzzing.

Every choice is derived from the generated value itself, so a seed always gives the same requests.
"""

from __future__ import annotations

import re
import zlib
from urllib.parse import quote

import schemathesis
from schemathesis import GenerationMode
from schemathesis.generation.meta import TestPhase

MAX_NAME_CODE_POINTS = 512
# The parameters' pattern: a character that JavaScript's `trim` would keep.
NON_BLANK = re.compile("[^\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]")

SUFFIXES = ["com", "net", "org", "de", "co.uk", "com.au", "fr", "io", "jp", "ch", "xn--p1ai"]
IDN_LABELS = ["bücher", "müller-shop", "пример", "例え", "ÆRØ"]
SUBDOMAINS = ["", "", "www.", "WWW.", "shop.", "a.b."]
SCHEMES = ["", "", "http://", "https://", "HTTPS://", "https://user:secret@"]
PORTS = ["", "", ":443", ":8080"]
# Demo-dataset domains, so generated positive input also reaches real data (200), not only 404.
DEMO_DOMAINS = ["acme-outdoor.com", "globex-retail.com"]


def _seed(value: str) -> int:
    return zlib.crc32(value.encode("utf-8", "surrogatepass"))


def _pick(options: list, seed: int, salt: int):
    return options[zlib.crc32(salt.to_bytes(2, "big"), seed) % len(options)]


def registrable(value: str) -> str:
    """A value of the `domain` parameter that has a registrable domain."""
    raw = value.encode("utf-8", "surrogatepass")
    seed = _seed(value)
    label = re.sub(r"[^a-z0-9]", "", value.lower())[:40] or f"d{seed % 1_000_000}"
    if seed % 5 == 0:
        label = _pick(IDN_LABELS, seed, 1)
    host = f"{_pick(SUBDOMAINS, seed, 2)}{label}.{_pick(SUFFIXES, seed, 3)}"
    if seed % 7 == 0:
        host = _pick(DEMO_DOMAINS, seed, 4)
    if seed % 3 == 0:
        host = host.upper()
    if seed % 11 == 0:
        host += "."
    tail = _pick(
        ["", "", "/", "/" + quote(raw, safe="/"), "?q=" + quote(raw, safe=""), "#" + quote(raw, safe="")], seed, 5
    )
    padding = _pick(["", "", "", " ", "\t", "\u3000"], seed, 6)
    return f"{padding}{_pick(SCHEMES, seed, 7)}{host}{_pick(PORTS, seed, 8)}{tail}{padding}"


def invalid_domain(value: str) -> str | list[str]:
    """A value the `domain` rules refuse with 400 invalid_domain."""
    seed = _seed(value)
    label = re.sub(r"[^a-z0-9]", "", value.lower())[:20] or "brand"
    return _pick(
        [
            [registrable(value), registrable(value + "x")],
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
    # Astral characters: 513 of them are 1026 UTF-16 units, so the limit must count code points.
    return _pick(
        [(text + "𝒜") * (MAX_NAME_CODE_POINTS // max(1, len(text) + 1) + 1), [text, text], [text, "Acme Outdoor"]],
        seed,
        10,
    )


@schemathesis.hook
def map_case(context, case):
    meta = case.meta
    query = case.query
    if meta is None or not isinstance(query, dict) or meta.phase.name == TestPhase.EXAMPLES:
        return case
    if meta.generation.mode == GenerationMode.POSITIVE:
        if isinstance(query.get("domain"), str):
            query["domain"] = registrable(query["domain"])
        name = query.get("name")
        if isinstance(name, str) and len(name) > MAX_NAME_CODE_POINTS:
            name = name[:MAX_NAME_CODE_POINTS]
            query["name"] = name if NON_BLANK.search(name) else name[:-1] + "x"
    elif meta.phase.name == TestPhase.FUZZING and not case.operation.schema.is_security_param_negated(case):
        # A case whose key header schemathesis negated answers 401 before any parameter is read;
        # the coverage phase already sends each schema negation (absent, blank, wrong type) once.
        declared = {parameter.name for parameter in case.operation.query}
        for parameter, make_invalid in (("domain", invalid_domain), ("name", invalid_name)):
            seed_text = repr(query.get(parameter))
            if parameter in declared and _seed(seed_text) % 4 != 0:
                query[parameter] = make_invalid(seed_text)
    return case
