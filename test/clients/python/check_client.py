"""Calls every operation of the live service through the Python client generated from openapi.yaml.

Run by scripts/contract/python-client.ts after `openapi-python-client generate` wrote the package
`alk_client`; the base URL and the keys come from the environment. Each call checks the status and
that the client parsed the body into the model the contract documents for it, so a document the
generator misreads fails here. Prints one line per call and a closing `N passed, N failed`.
"""

from __future__ import annotations

import datetime
import json
import os
import sys
from collections.abc import Callable
from typing import Any

from alk_client import AuthenticatedClient, Client
from alk_client.api.account import get_account
from alk_client.api.advertisers import (
    get_advertiser_history,
    get_advertiser_landing_domains,
    get_advertiser_summary,
    search_advertisers,
)
from alk_client.api.domains import get_brand_bid_report, get_domain_summary
from alk_client.api.operations import get_health, get_metrics, get_readiness
from alk_client.api.watches import create_watch, delete_watch, get_watch, list_watch_events, list_watches
from alk_client.models import (
    Account,
    AdvertiserHistory,
    AdvertiserLandingDomains,
    AdvertiserSearch,
    AdvertiserSummary,
    AdvertiserType,
    BrandBidReport,
    DomainParameterError,
    DomainSummary,
    Health,
    InsufficientCreditsError,
    NameParameterError,
    NotAcceptableError,
    NotFoundError,
    Profile,
    Readiness,
    UnauthorizedError,
    AdvertiserWatchRequest,
    DomainWatchRequest,
    Watch,
    WatchEventList,
    WatchList,
    WatchNotFoundError,
    WatchRequestError,
)
from alk_client.types import Response

BASE_URL = os.environ["ALK_BASE_URL"]
KEYS = json.loads(os.environ["ALK_FUZZ_KEYS"])

bearer = AuthenticatedClient(base_url=BASE_URL, token=KEYS["funded"], raise_on_unexpected_status=True)
# The same key in the other documented header, `x-api-key`, which takes no prefix.
api_key_header = AuthenticatedClient(
    base_url=BASE_URL, token=KEYS["funded"], prefix="", auth_header_name="x-api-key", raise_on_unexpected_status=True
)
poor = AuthenticatedClient(base_url=BASE_URL, token=KEYS["poor"], raise_on_unexpected_status=True)
revoked = AuthenticatedClient(base_url=BASE_URL, token=KEYS["revoked"], raise_on_unexpected_status=True)
anonymous = Client(base_url=BASE_URL, raise_on_unexpected_status=True)

results: list[bool] = []


def check(
    what: str, response: Response[Any], status: int, model: type, holds: Callable[[Any], bool] = lambda _: True
) -> None:
    parsed = response.parsed
    ok = response.status_code == status and isinstance(parsed, model) and holds(parsed)
    results.append(ok)
    print(f"{'ok  ' if ok else 'FAIL'} {what}: {response.status_code} {type(parsed).__name__}")
    if not ok:
        print(f"     expected {status} {model.__name__}; body: {response.content[:300]!r}")


def charged(response: Response[Any], price: int) -> bool:
    return response.headers.get("X-Credits-Charged") == str(price)


r = get_account.sync_detailed(client=bearer)
check("account (Authorization: Bearer)", r, 200, Account, lambda a: a.key_prefix.startswith("alk_") and charged(r, 0))
r = get_account.sync_detailed(client=api_key_header)
check("account (x-api-key)", r, 200, Account, lambda a: a.balance > 0)

r = get_advertiser_summary.sync_detailed(client=bearer, name="Globex Retail")
check(
    "advertiser summary",
    r,
    200,
    AdvertiserSummary,
    lambda s: len(s.advertiser_ids) == 3 and s.advertiser_type is None and s.credits_charged == 3,
)
r = get_advertiser_summary.sync_detailed(client=bearer, name="Acme Outdoor")
check("advertiser summary, labelled", r, 200, AdvertiserSummary, lambda s: s.advertiser_type == AdvertiserType.DIRECT)
r = get_advertiser_history.sync_detailed(client=bearer, name="Acme Outdoor")
check(
    "advertiser history",
    r,
    200,
    AdvertiserHistory,
    lambda h: (
        isinstance(h.window_start, datetime.date)
        and 1 <= len(h.months) <= 36
        and h.months[0].month == h.window_start.isoformat()[:7]
        and h.credits_charged == 9
    ),
)
r = get_advertiser_landing_domains.sync_detailed(client=bearer, name="Northwind Media Group")
check(
    "landing domains, truncated",
    r,
    200,
    AdvertiserLandingDomains,
    lambda d: d.truncated and len(d.landing_domains) == 500 and d.landing_domain_count == 621,
)
r = get_domain_summary.sync_detailed(client=bearer, domain="https://www.Acme-Outdoor.com/shop")
check(
    "domain summary", r, 200, DomainSummary, lambda d: d.domain == "acme-outdoor.com" and d.has_data and charged(r, 3)
)
r = get_brand_bid_report.sync_detailed(client=bearer, domain="acme-outdoor.com")
check(
    "brand-bid report",
    r,
    200,
    BrandBidReport,
    lambda b: b.advertiser_count == 130 and len(b.advertisers) == 100 and isinstance(b.advertisers[0].profile, Profile),
)

r = search_advertisers.sync_detailed(client=bearer, q="acme outdoor")
check(
    "advertiser search",
    r,
    200,
    AdvertiserSearch,
    lambda s: s.advertisers[0].advertiser == "Acme Outdoor"
    and s.advertisers[0].match.value == "case_insensitive"
    and charged(r, 1),
)
r = get_advertiser_summary.sync_detailed(client=bearer, name="acme outdoor")
check(
    "advertiser not found, with suggestions (404, charged)",
    r,
    404,
    NotFoundError,
    lambda e: e.credits_charged == 3 and "Acme Outdoor" in e.suggestions,
)
# A client of its own: with_headers also changes the headers of the client it copies.
xml = AuthenticatedClient(
    base_url=BASE_URL, token=KEYS["funded"], headers={"Accept": "application/xml"}, raise_on_unexpected_status=True
)
r = get_advertiser_history.sync_detailed(client=xml, name="Acme Outdoor")
check(
    "an Accept the operation cannot answer (406, free)",
    r,
    406,
    NotAcceptableError,
    lambda e: [m.value for m in e.supported] == ["application/json", "text/csv"] and charged(r, 0),
)
r = get_advertiser_summary.sync_detailed(client=bearer, name="No Such Advertiser Anywhere")
check("advertiser not found (404, charged)", r, 404, NotFoundError, lambda e: e.credits_charged == 3 and charged(r, 3))
r = get_brand_bid_report.sync_detailed(client=bearer, domain="never-seen-anywhere.com")
check("domain not found (404, charged)", r, 404, NotFoundError, lambda e: e.credits_charged == 60)
r = get_advertiser_history.sync_detailed(client=bearer, name="   ")
check("blank name (400)", r, 400, NameParameterError, lambda e: e.error.value == "missing_name" and charged(r, 0))
r = get_domain_summary.sync_detailed(client=bearer, domain="localhost")
check("not a registrable domain (400)", r, 400, DomainParameterError, lambda e: e.error.value == "invalid_domain")
r = get_brand_bid_report.sync_detailed(client=poor, domain="acme-outdoor.com")
check(
    "too few credits (402, free)",
    r,
    402,
    InsufficientCreditsError,
    lambda e: e.required == 60 and e.balance == 0 and charged(r, 0),
)
r = get_advertiser_landing_domains.sync_detailed(client=revoked, name="Acme Outdoor")
check("revoked key (401)", r, 401, UnauthorizedError, lambda _: r.headers.get("WWW-Authenticate") == "Bearer")
r = get_account.sync_detailed(client=anonymous)
check("no key (401)", r, 401, UnauthorizedError)

# The watches (docs/product-rules.md §19): created, found again, read, listed, deleted; all free.
r = create_watch.sync_detailed(client=bearer, body=DomainWatchRequest(kind="domain", target="WWW.Python-Client.com"))
check("create a domain watch (201)", r, 201, Watch, lambda w: w.target == "python-client.com" and charged(r, 0))
watch = r.parsed
r = create_watch.sync_detailed(client=bearer, body=DomainWatchRequest(kind="domain", target="python-client.com"))
check("the same watch again (200)", r, 200, Watch, lambda w: w.id == watch.id)
r = create_watch.sync_detailed(client=bearer, body=AdvertiserWatchRequest(kind="advertiser", target="   "))
check("a blank advertiser (400)", r, 400, WatchRequestError, lambda e: e.error.value == "missing_name")
r = get_watch.sync_detailed(watch.id, client=bearer)
check("read the watch", r, 200, Watch, lambda w: w.kind.value == "domain")
r = list_watches.sync_detailed(client=api_key_header, limit=200)
check("list the watches", r, 200, WatchList, lambda page: any(w.id == watch.id for w in page.watches))
r = list_watch_events.sync_detailed(watch.id, client=bearer)
check("its events", r, 200, WatchEventList, lambda page: page.events == [] and page.next_cursor is None)
r = delete_watch.sync_detailed(watch.id, client=bearer)
results.append(r.status_code == 204 and r.content == b"")
print(f"{'ok  ' if results[-1] else 'FAIL'} delete the watch: {r.status_code}")
r = get_watch.sync_detailed(watch.id, client=bearer)
check("the deleted watch (404)", r, 404, WatchNotFoundError, lambda e: e.error == "watch_not_found")

r = get_health.sync_detailed(client=anonymous)
check("health, no key", r, 200, Health, lambda h: h.status == "ok")
r = get_readiness.sync_detailed(client=anonymous)
check("readiness, no key", r, 200, Readiness, lambda h: h.status == "ready")
r = get_metrics.sync_detailed(client=anonymous)
check("metrics, no key", r, 200, str, lambda m: "alk_http_requests_total{" in m)

passed = sum(results)
failed = len(results) - passed
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
