import type { Context } from 'hono';
import { ApiError } from '../contract/errors.ts';
import type { WatchHolder } from '../data/watches.ts';
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

/** A watch and its events as the contract's Watch and WatchEvent: the payloads' own mapping. */
export { watchEventOf as watchEventBody, watchOf as watchBody } from '../watches/news-payload.ts';
