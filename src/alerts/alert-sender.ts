import {
  type AttemptOutcome,
  type DueDelivery,
  expandAlerts,
  recordAttempt,
  takeDueDeliveries,
} from '../data/alerts.ts';
import type { Sql } from '../data/client.ts';
import type { Mailer } from '../mail/mailer.ts';
import { postWebhook, type WebhookPostOptions } from './webhook-post.ts';
import { SIGNATURE_HEADER, signatureHeader } from './webhook-signature.ts';

/** Who posts the alerts, as the receiver sees it. */
export const ALERT_USER_AGENT = 'advertiser-lookup-api-alerts/1';

/** Attempts per delivery before it is given up: about an hour of retries with the default backoff. */
export const MAX_ATTEMPTS = 8;

export interface AlertSenderOptions {
  sql: Sql;
  mailer: Mailer;
  /** Where the email's links point (the account page). */
  publicUrl: () => URL;
  now?: () => Date;
  /** How often the sender looks for new alerts and due retries. */
  pollMs?: number;
  /** The first retry's delay; each next one doubles it. */
  retryBaseMs?: number;
  webhook?: WebhookPostOptions;
  log?: (line: string) => void;
}

/**
 * Sends the low-balance alerts (docs/product-rules.md §14) outside the request path: the debit
 * only writes the alert row; this loop turns it into deliveries (email, webhook) and makes them,
 * retrying failures with exponential backoff and recording every attempt. Several instances may
 * run it on one database: each takes deliveries under a lease (SKIP LOCKED).
 */
export class AlertSender {
  readonly #options: Required<Omit<AlertSenderOptions, 'webhook'>> & { webhook: WebhookPostOptions };
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | null = null;
  #stopped = false;

  constructor({
    now = () => new Date(),
    pollMs = 1_000,
    retryBaseMs = 30_000,
    webhook = {},
    log = () => {},
    ...rest
  }: AlertSenderOptions) {
    this.#options = { now, pollMs, retryBaseMs, webhook, log, ...rest };
  }

  start(): void {
    this.#stopped = false;
    this.#schedule();
  }

  /** Stops polling and waits for the pass in progress. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  /** One pass: new alerts into deliveries, then every delivery due now. Returns the attempts made. */
  async sendDue(): Promise<number> {
    const { sql } = this.#options;
    await expandAlerts(sql);
    let attempts = 0;
    for (;;) {
      const due = await takeDueDeliveries(sql, 20, 60_000);
      if (due.length === 0) return attempts;
      await Promise.all(due.map((delivery) => this.#attempt(delivery)));
      attempts += due.length;
    }
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#running = this.sendDue()
        .then(
          () => {},
          (error: unknown) => this.#options.log(`alerts: a pass failed and is retried: ${String(error)}`),
        )
        .finally(() => {
          this.#running = null;
          this.#schedule();
        });
    }, this.#options.pollMs);
    this.#timer.unref();
  }

  async #attempt(delivery: DueDelivery): Promise<void> {
    const outcome = await this.#send(delivery).catch(
      (error: unknown): AttemptOutcome => ({
        ok: false,
        status: null,
        error: (error instanceof Error ? error.message : String(error)).slice(0, 500),
      }),
    );
    const attempt = delivery.attempts + 1;
    const retryAt =
      outcome.ok || attempt >= MAX_ATTEMPTS
        ? null
        : new Date(this.#options.now().getTime() + this.#options.retryBaseMs * 2 ** (attempt - 1));
    await recordAttempt(this.#options.sql, delivery, outcome, retryAt);
  }

  async #send(delivery: DueDelivery): Promise<AttemptOutcome> {
    if (delivery.channel === 'email') {
      await this.#options.mailer.send(alertEmail(delivery, this.#options.publicUrl()));
      return { ok: true, status: null, error: null };
    }
    if (delivery.secret === null)
      return { ok: false, status: null, error: 'the webhook was removed or changed since the alert' };
    const body = JSON.stringify(alertEvent(delivery));
    const answer = await postWebhook(
      delivery.target,
      body,
      {
        [SIGNATURE_HEADER]: signatureHeader(delivery.secret, body, this.#options.now()),
        'User-Agent': ALERT_USER_AGENT,
      },
      this.#options.webhook,
    );
    return { ok: answer.error === null, status: answer.status, error: answer.error };
  }
}

/**
 * The webhook's JSON: `id` is the same on every retry of one alert, so a receiver can drop repeats;
 * `test` is true only in the test events the holder sends from the alerts page.
 */
export function alertEvent(
  delivery: Pick<DueDelivery, 'alertId' | 'accountId' | 'balance' | 'threshold' | 'alertedAt'>,
) {
  return {
    id: `alert_${delivery.alertId}`,
    type: 'balance.low',
    created_at: delivery.alertedAt.toISOString(),
    account_id: delivery.accountId,
    balance: delivery.balance,
    threshold: delivery.threshold,
    test: false,
  };
}

function alertEmail(delivery: DueDelivery, publicUrl: URL) {
  return {
    to: delivery.target,
    subject: `Your balance is below ${delivery.threshold} credits`,
    text:
      `Your Advertiser Lookup API balance is down to ${delivery.balance} credits, below the alert threshold of ` +
      `${delivery.threshold} credits you set. Calls stop with 402 when it runs out.\n\n` +
      `Buy credits:\n${new URL('/account/credits', publicUrl)}\n\n` +
      `Change or turn off this alert:\n${new URL('/account/alerts', publicUrl)}\n`,
  };
}
