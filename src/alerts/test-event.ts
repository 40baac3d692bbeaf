import { randomBytes } from 'node:crypto';
import { recordTestEvent, type TestEventLimits, takeTestEvent } from '../data/alert-test-events.ts';
import { alertSettingsOf } from '../data/alerts.ts';
import type { Sql } from '../data/client.ts';
import { ALERT_USER_AGENT, alertEvent } from './alert-sender.ts';
import { canonicalAddress, receiverAddresses } from './receiver-addresses.ts';
import { postWebhook, type WebhookPostOptions } from './webhook-post.ts';
import { SIGNATURE_HEADER, signatureHeader } from './webhook-signature.ts';

/**
 * At most this many test events an hour from one account, and to one host from all accounts
 * together: enough to try a receiver while setting it up, too few for the button to flood anyone.
 */
export const TEST_EVENT_LIMITS: TestEventLimits = { perAccount: 10, perHost: 100 };

/** How long a test event waits for its host name to resolve before it counts the name itself. */
const RESOLVE_TIMEOUT_MS = 5_000;

/** What `lookup` found, or null when it failed or took longer than `ms`. */
async function resolvedWithin<T>(lookup: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  try {
    return await Promise.race([lookup.catch(() => null), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The threshold a test event carries when the account's alert is off. */
const SAMPLE_THRESHOLD = 50;

/** What sending a test event came to. */
export type TestEventOutcome =
  | { sent: { status: number | null; error: string | null } }
  | { refused: 'no webhook' | 'account limit' | 'host limit' };

/**
 * Posts a signed test event to the account's webhook now (docs/product-rules.md R14.16): an alert
 * as the sender posts it, with `test: true` and an id of its own (`test_…`), the account's
 * balance and threshold of now. Checked, signed and posted exactly as an alert is.
 */
export async function sendTestEvent(
  sql: Sql,
  accountId: number,
  {
    webhook = {},
    now = () => new Date(),
    limits = TEST_EVENT_LIMITS,
  }: { webhook?: WebhookPostOptions; now?: () => Date; limits?: TestEventLimits },
): Promise<TestEventOutcome> {
  const settings = await alertSettingsOf(sql, accountId);
  if (!settings.webhook) return { refused: 'no webhook' };
  const { url, secret } = settings.webhook;
  const eventId = `test_${randomBytes(12).toString('hex')}`;
  // The receiving host is counted by the address the post connects to, so many names for one
  // address share its limit; the post then goes to the addresses resolved here (checked again).
  const hostname = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const found = await resolvedWithin(receiverAddresses(hostname, webhook), RESOLVE_TIMEOUT_MS);
  const reachable = found?.reachable ?? [];
  const taken = await takeTestEvent(
    sql,
    { accountId, url, host: canonicalAddress(reachable[0]?.address ?? hostname), eventId },
    limits,
  );
  if ('limited' in taken) return { refused: taken.limited === 'account' ? 'account limit' : 'host limit' };
  const at = now();
  const body = JSON.stringify({
    ...alertEvent({
      alertId: 0,
      accountId,
      balance: settings.balance,
      threshold: settings.threshold ?? SAMPLE_THRESHOLD,
      alertedAt: at,
    }),
    id: eventId,
    test: true,
  });
  const answer = await postWebhook(
    url,
    body,
    { [SIGNATURE_HEADER]: signatureHeader(secret, body, at), 'User-Agent': ALERT_USER_AGENT },
    reachable.length > 0 ? { ...webhook, resolve: async () => reachable } : webhook,
  );
  await recordTestEvent(sql, taken.id, answer);
  return { sent: answer };
}
