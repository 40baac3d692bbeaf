import { openapiDocument } from '../contract/document.ts';
import { profileOf } from '../contract/response-schemas.ts';
import type { NewsEvent, NewsWatch } from '../data/watch-news.ts';

/**
 * Credits a watch delivery with news costs: the `x-credit-cost` of the webhook `watchNews` in
 * openapi.yaml (docs/product-rules.md R19.22, docs/watches.md says why 5).
 */
export const WATCH_NEWS_PRICE: number = readPrice();

function readPrice(): number {
  const webhooks = (openapiDocument as unknown as { webhooks?: Record<string, { post?: Record<string, unknown> }> })
    .webhooks;
  const price = webhooks?.watchNews?.post?.['x-credit-cost'];
  if (!Number.isSafeInteger(price) || (price as number) < 0)
    throw new Error('openapi.yaml: the webhook watchNews needs a non-negative integer x-credit-cost');
  return price as number;
}

/** Who posts watch news, as the receiver sees it. */
export const WATCH_NEWS_USER_AGENT = 'advertiser-lookup-api-watches/1';

/** A watch as the payload's `watch` (the contract's Watch). */
export function watchOf(watch: NewsWatch) {
  return {
    id: watch.id,
    kind: watch.kind,
    target: watch.target,
    sandbox: watch.sandbox,
    created_at: watch.createdAt.toISOString(),
  };
}

/** An event as the contract's WatchEvent, in a post and in the events listing alike. */
export function watchEventOf(event: Omit<NewsEvent, 'deliveryId'>) {
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

/**
 * The webhook's JSON for one watch's news of one load (the contract's webhook watchNews): `id` is
 * the same on every retry, so a receiver drops repeats; `test` is true only for the sample that
 * POST /api/v1/watches/{id}/test sends; `credits_charged` what the delivery cost (0 in the sandbox).
 */
export function watchNewsEvent(
  delivery: { id: number | string; createdAt: Date; watch: NewsWatch; events: NewsEvent[]; charged: number },
  { test = false }: { test?: boolean } = {},
) {
  return {
    id: `watch_news_${delivery.id}`,
    type: 'watch.news' as const,
    created_at: delivery.createdAt.toISOString(),
    test,
    watch: watchOf(delivery.watch),
    events: delivery.events.map(watchEventOf),
    credits_charged: delivery.charged,
  };
}
