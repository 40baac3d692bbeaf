"""The MCP endpoint through a second, independent MCP client: the Python SDK `mcp` from PyPI.

Run by the contract step (scripts/contract/run.ts) against the live service, with the keys it
prepared in ALK_FUZZ_KEYS: it lists the tools, calls a billed one and a free one with the funded
key, checks that the balance moved by the tool's price and nothing else, and that the poor and
revoked key is refused by the endpoint itself (docs/product-rules.md R21.1, R21.3, R21.4).
Exits non-zero on the first disagreement.
"""

import asyncio
import json
import os
import sys
import urllib.error
import urllib.request

from mcp import ClientSession
from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client

BASE_URL = os.environ["ALK_BASE_URL"]
KEYS = json.loads(os.environ["ALK_FUZZ_KEYS"])
TOOLS = {
    "getAdvertiserSummary",
    "getDomainSummary",
    "getAdvertiserHistory",
    "getAdvertiserLandingDomains",
    "getBrandBidReport",
    "searchAdvertisers",
    "getAccount",
    "getAccountUsage",
    "getAccountLedger",
    "listWatches",
}


def check(condition, what):
    if not condition:
        print(f"MCP (Python SDK): FAILED: {what}")
        sys.exit(1)
    print(f"MCP (Python SDK): ok: {what}")


async def session_calls(key, calls):
    """Opens an MCP session with `key` as its Bearer token and runs `calls(session)`."""
    async with (
        create_mcp_http_client(headers={"Authorization": f"Bearer {key}"}) as http,
        streamable_http_client(f"{BASE_URL}/mcp", http_client=http) as (read, write, *_),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        return await calls(session)


async def funded(session):
    listed = await session.list_tools()
    names = {tool.name for tool in listed.tools}
    check(names == TOOLS, f"tools/list names the {len(TOOLS)} operations a key calls")
    search = next(tool for tool in listed.tools if tool.name == "searchAdvertisers")
    check("Price: 1 credit per call" in search.description, "searchAdvertisers states its price")
    check(search.input_schema["required"] == ["q"], "searchAdvertisers requires q, as the contract does")
    check(search.output_schema["type"] == "object", "searchAdvertisers has its output schema")

    before = (await session.call_tool("getAccount", {})).structured_content["balance"]
    found = await session.call_tool("searchAdvertisers", {"q": "acme"})
    check(not found.is_error, "searchAdvertisers answers")
    check(found.structured_content["credits_charged"] == 1, "searchAdvertisers charged 1 credit")
    after = (await session.call_tool("getAccount", {})).structured_content["balance"]
    check(after == before - 1, f"the balance moved by the price only ({before} -> {after})")

    bad = await session.call_tool("getDomainSummary", {"domain": "not a domain"})
    bad_code = bad.structured_content["error"]
    check(bad.is_error and bad_code == "invalid_domain", "bad input: invalid_domain, a tool error")
    check(bad.structured_content["credits_charged"] == 0, "bad input is free")


async def poor(session):
    refused = await session.call_tool("getAdvertiserSummary", {"name": "Acme Outdoor"})
    code = refused.structured_content["error"]
    check(refused.is_error and code == "insufficient_credits", "poor key: 402 as a tool error")


def revoked(key):
    """A key that is not live gets the endpoint's 401 before any MCP work (R21.1)."""
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).encode()
    request = urllib.request.Request(
        f"{BASE_URL}/mcp",
        data=body,
        method="POST",
        headers={
            "Authorization": f"Bearer {key}",
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
        },
    )
    try:
        urllib.request.urlopen(request)
        check(False, "revoked key: 401 from the endpoint")
    except urllib.error.HTTPError as error:
        code = json.loads(error.read())["error"]
        check(error.code == 401 and code == "unauthorized", "revoked key: 401 from the endpoint")


async def main():
    await session_calls(KEYS["funded"], funded)
    await session_calls(KEYS["poor"], poor)
    revoked(KEYS["revoked"])


asyncio.run(main())
