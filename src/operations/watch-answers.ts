import type { Context } from 'hono';
import { ApiError } from '../contract/errors.ts';
import { profileOf } from '../contract/response-schemas.ts';
import type { WatchEventRow, WatchHolder, WatchRow } from '../data/watches.ts';
import type { AppEnv } from '../http/app-env.ts';

/**
 * What the watches' operations share (docs/product-rules.md §19): whose watches a call reaches,
 * and a watch and its events as the contract's `Watch` and `WatchEvent`.
 */

/** The caller's account, in its key's dataset: a test key reaches only the sandbox's watches (R19.2). */
export function holderOf(c: Context<AppEnv>): WatchHolder {
  return { accountId: c.get('caller').accountId, sandbox: c.get('sandbox') };
}

export const watchNotFound = () =>
  new ApiError('watch_not_found', 'No watch of this account has this id: it may have been deleted.');

export function watchBody(watch: WatchRow) {
  return {
    id: watch.id,
    kind: watch.kind,
    target: watch.target,
    sandbox: watch.sandbox,
    created_at: watch.createdAt.toISOString(),
  };
}

export function watchEventBody(event: WatchEventRow) {
  return {
    id: event.id,
    watch_id: event.watchId,
    change: event.kind === 'domain' ? ('new_advertiser' as const) : ('new_landing_domain' as const),
    advertiser: event.advertiser,
    advertiser_id: event.advertiserId,
    landing_domain: event.landingDomain,
    first_seen: event.firstSeen,
    landing_domain_count: event.landingDomainCount,
    profile: profileOf(event.landingDomainCount),
    found_at: event.foundAt.toISOString(),
  };
}
