import { randomBytes } from 'node:crypto';
import { canonicalAddress, receiverAddresses } from '../alerts/receiver-addresses.ts';
import { TEST_EVENT_LIMITS } from '../alerts/test-event.ts';
import { postWebhook, type WebhookPostOptions } from '../alerts/webhook-post.ts';
import { SIGNATURE_HEADER, signatureHeader } from '../alerts/webhook-signature.ts';
import { recordTestEvent, type TestEventLimits, takeTestEvent } from '../data/alert-test-events.ts';
import { alertSettingsOf } from '../data/alerts.ts';
import type { Sql } from '../data/client.ts';
import { liveWatchOf } from '../data/watch-news.ts';
import { WATCH_NEWS_USER_AGENT, watchNewsEvent } from './news-payload.ts';

/** What sending a watch's test event came to. */
export type WatchTestOutcome =
  | { sent: { eventId: string; status: number | null; error: string | null } }
  | { refused: 'watch not found' | 'no webhook' | 'account limit' | 'host limit' };

/**
 * Posts a sample `watch.news` for one of the account's watches to the account's webhook now
 * (docs/product-rules.md R19.29), marked `test: true`, free: signed, checked and posted as real
 * news is, and counted in the same hourly limits as the alert test events (per account and per
 * receiving host, one table), so neither button floods a receiver. The watch must be a live watch
 * of the account in the dataset of the caller's key.
 */
export async function sendWatchTestEvent(
  sql: Sql,
  caller: { accountId: number; watchId: string; sandbox: boolean },
  {
    webhook = {},
    now = () => new Date(),
    limits = TEST_EVENT_LIMITS,
  }: { webhook?: WebhookPostOptions; now?: () => Date; limits?: TestEventLimits } = {},
): Promise<WatchTestOutcome> {
  const watch = await liveWatchOf(sql, caller);
  if (watch === null) return { refused: 'watch not found' };
  const settings = await alertSettingsOf(sql, caller.accountId);
  if (!settings.webhook) return { refused: 'no webhook' };
  const { url, secret } = settings.webhook;
  const token = `test_${randomBytes(12).toString('hex')}`;
  const hostname = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const found = await receiverAddresses(hostname, webhook).catch(() => null);
  const reachable = found?.reachable ?? [];
  const eventId = `watch_news_${token}`;
  const taken = await takeTestEvent(
    sql,
    { accountId: caller.accountId, url, host: canonicalAddress(reachable[0]?.address ?? hostname), eventId },
    limits,
  );
  if ('limited' in taken) return { refused: taken.limited === 'account' ? 'account limit' : 'host limit' };
  const at = now();
  const body = JSON.stringify(
    watchNewsEvent(
      {
        id: token,
        createdAt: at,
        watch,
        charged: 0,
        events: [
          {
            id: 1,
            watchId: watch.id,
            deliveryId: 0,
            kind: watch.kind,
            advertiserId: 'AR10000000000000000001',
            advertiser: watch.kind === 'advertiser' ? watch.target : 'Sample Advertiser',
            landingDomain: watch.kind === 'domain' ? watch.target : 'example.com',
            firstSeen: at.toISOString().slice(0, 10),
            landingDomainCount: 1,
            foundAt: at,
          },
        ],
      },
      { test: true },
    ),
  );
  const answer = await postWebhook(
    url,
    body,
    { [SIGNATURE_HEADER]: signatureHeader(secret, body, at), 'User-Agent': WATCH_NEWS_USER_AGENT },
    reachable.length > 0 ? { ...webhook, resolve: async () => reachable } : webhook,
  );
  await recordTestEvent(sql, taken.id, answer);
  return { sent: { eventId, ...answer } };
}
