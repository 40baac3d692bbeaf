import { KeptAliveReceivers, postWebhook, type WebhookPostOptions } from '../alerts/webhook-post.ts';
import { SIGNATURE_HEADER, signatureHeader } from '../alerts/webhook-signature.ts';
import { DEFAULT_WATCH_POSTS_PER_SECOND } from '../config.ts';
import type { Sql } from '../data/client.ts';
import {
  billWatchNews,
  type DigestOutcome,
  type DueDigest,
  type DuePost,
  markHoldNoticeSent,
  type PostOutcome,
  queueWatchNews,
  recordDigests,
  recordPosts,
  takeDueDigests,
  takeDuePosts,
} from '../data/watch-news.ts';
import type { Mailer } from '../mail/mailer.ts';
import { WATCH_NEWS_PRICE, WATCH_NEWS_USER_AGENT, watchNewsEvent } from './news-payload.ts';
import { PostPacer } from './post-pacer.ts';

/** Attempts per post or digest before it is given up: the low-balance alert's policy. */
export const MAX_ATTEMPTS = 8;

/** Posts taken at once, under one lease. */
const POSTS_PER_CLAIM = 200;

/** Digests taken at once, under one lease: their outcomes are recorded together. */
const DIGESTS_PER_CLAIM = 200;

/** Digest emails one process sends at once. */
const MAILS_AT_ONCE = 20;

/** Posts one process runs at once, over kept-alive connections. */
const POSTS_IN_FLIGHT = 32;

export interface WatchNewsSenderOptions {
  sql: Sql;
  mailer: Mailer;
  /** Where the emails' links point (the account page). */
  publicUrl: () => URL;
  now?: () => Date;
  pollMs?: number;
  /** The first retry's delay; each next one doubles it (the low-balance alert's 30 s). */
  retryBaseMs?: number;
  /** How long a claim is another process's to finish before it is taken again. */
  leaseMs?: number;
  webhook?: WebhookPostOptions;
  /** The most posts this process starts per second (post-pacer.ts). */
  postsPerSecond?: number;
  log?: (line: string) => void;
}

/**
 * Delivers brand watch news (docs/product-rules.md §19, "Delivery and billing of watch news") from
 * the outbox, outside the request path: bills the deliveries (holding those the balance does not
 * cover, and telling the account once), posts each to the account's webhook, signed as the
 * low-balance alert is and retried on its policy, refunds one never accepted, and mails one digest
 * per account and load. Each step takes its rows under a lease or lock (SKIP LOCKED): several
 * processes share the outbox and one killed mid-way leaves its rows to the others.
 */
export class WatchNewsSender {
  readonly #options: Required<Omit<WatchNewsSenderOptions, 'webhook' | 'postsPerSecond'>> & {
    webhook: WebhookPostOptions;
  };
  readonly #agent: KeptAliveReceivers;
  readonly #pacer: PostPacer;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | null = null;
  #stopped = false;

  constructor({
    now = () => new Date(),
    pollMs = 1_000,
    retryBaseMs = 30_000,
    leaseMs = 60_000,
    webhook = {},
    postsPerSecond = DEFAULT_WATCH_POSTS_PER_SECOND,
    log = () => {},
    ...rest
  }: WatchNewsSenderOptions) {
    this.#options = { now, pollMs, retryBaseMs, leaseMs, webhook, log, ...rest };
    this.#agent = new KeptAliveReceivers(webhook);
    this.#pacer = new PostPacer(postsPerSecond, POSTS_IN_FLIGHT);
  }

  /** Queues what earlier runs left unqueued (a load that ended without it), then polls. */
  async start(): Promise<void> {
    this.#stopped = false;
    await queueWatchNews(this.#options.sql).catch((error: unknown) =>
      this.#options.log(`watches: queueing leftovers failed and is retried at the next start: ${String(error)}`),
    );
    this.#schedule();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
    this.#agent.destroy();
  }

  /** One pass: bill, post and mail everything due now. Returns the posts and digests attempted. */
  async sendDue(): Promise<number> {
    const { sql } = this.#options;
    for (;;) {
      const pass = await billWatchNews(sql, WATCH_NEWS_PRICE);
      for (const account of pass.newlyHeld) await this.#tellHeld(account);
      if (pass.charged + pass.held === 0) break;
    }
    let attempts = 0;
    for (;;) {
      const due = await takeDuePosts(sql, POSTS_PER_CLAIM, this.#options.leaseMs);
      if (due.length === 0) break;
      const outcomes = await this.#pacer.each(due, (post) => this.#post(post));
      await recordPosts(sql, outcomes);
      attempts += due.length;
    }
    for (;;) {
      const digests = await takeDueDigests(sql, DIGESTS_PER_CLAIM, this.#options.leaseMs);
      if (digests.length === 0) break;
      const outcomes: DigestOutcome[] = [];
      for (let i = 0; i < digests.length; i += MAILS_AT_ONCE)
        outcomes.push(...(await Promise.all(digests.slice(i, i + MAILS_AT_ONCE).map((digest) => this.#mail(digest)))));
      await recordDigests(sql, outcomes);
      attempts += digests.length;
    }
    return attempts;
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#running = this.sendDue()
        .then(
          () => {},
          (error: unknown) => this.#options.log(`watches: a pass failed and is retried: ${String(error)}`),
        )
        .finally(() => {
          this.#running = null;
          this.#schedule();
        });
    }, this.#options.pollMs);
    this.#timer.unref();
  }

  #retryAt(attempt: number, ok: boolean): Date | null {
    if (ok || attempt >= MAX_ATTEMPTS) return null;
    return new Date(this.#options.now().getTime() + this.#options.retryBaseMs * 2 ** (attempt - 1));
  }

  async #post(post: DuePost): Promise<PostOutcome> {
    const attempt = post.attempts + 1;
    if (post.secret === null) {
      const error = 'the webhook was removed or changed since the news was queued';
      return { id: post.id, ok: false, status: null, error, retryAt: this.#retryAt(attempt, false) };
    }
    const body = JSON.stringify(watchNewsEvent({ ...post, charged: post.billing === 'paid' ? WATCH_NEWS_PRICE : 0 }));
    const answer = await postWebhook(
      post.url,
      body,
      {
        [SIGNATURE_HEADER]: signatureHeader(post.secret, body, this.#options.now()),
        'User-Agent': WATCH_NEWS_USER_AGENT,
      },
      { ...this.#options.webhook, agent: this.#agent },
    ).catch((error: unknown) => ({ status: null, error: String(error).slice(0, 500) }));
    const ok = answer.error === null;
    return { id: post.id, ok, status: answer.status, error: answer.error, retryAt: this.#retryAt(attempt, ok) };
  }

  async #mail(digest: DueDigest): Promise<DigestOutcome> {
    const { mailer, publicUrl } = this.#options;
    if (digest.email === null || digest.deliveries.length === 0)
      return { id: digest.id, ok: true, error: digest.email === null ? 'no verified address' : null, retryAt: null };
    const outcome = await mailer.send(digestEmail(digest, publicUrl())).then(
      () => ({ ok: true, error: null }),
      (error: unknown) => ({ ok: false, error: String(error).slice(0, 500) }),
    );
    return { id: digest.id, ...outcome, retryAt: this.#retryAt(digest.attempts + 1, outcome.ok) };
  }

  async #tellHeld(account: { accountId: number; email: string | null }): Promise<void> {
    if (account.email === null) return;
    const url = this.#options.publicUrl();
    try {
      await this.#options.mailer.send({
        to: account.email,
        subject: 'Your watch news is held: your balance is out of credits',
        text:
          `A load found news for your brand watches, but your balance does not cover their delivery ` +
          `(${WATCH_NEWS_PRICE} credits per watch per load with news). The news is held, not lost: it goes ` +
          'out as soon as credits arrive.\n\n' +
          `Buy credits:\n${new URL('/account/credits', url)}\n`,
      });
      await markHoldNoticeSent(this.#options.sql, account.accountId);
    } catch (error) {
      this.#options.log(`watches: the held-news email to account ${account.accountId} failed: ${String(error)}`);
    }
  }
}

/** One account's email of one load's news: every watch with news, every change. */
export function digestEmail(digest: DueDigest, publicUrl: URL) {
  const changes = digest.deliveries.reduce((sum, d) => sum + d.events.length, 0);
  const lines: string[] = [];
  for (const { watch, events } of digest.deliveries) {
    lines.push(
      `${watch.kind === 'domain' ? 'Domain' : 'Advertiser'} watch "${watch.target}"` +
        `${watch.sandbox ? ' (sandbox)' : ''}:`,
    );
    for (const event of events)
      lines.push(
        watch.kind === 'domain'
          ? `  - new advertiser ${event.advertiser} (${event.advertiserId}), first seen ${event.firstSeen}, ` +
              `${event.landingDomainCount} landing domain(s)`
          : `  - new landing domain ${event.landingDomain} for ${event.advertiserId}, first seen ${event.firstSeen}`,
      );
  }
  return {
    to: digest.email as string,
    subject: `Brand watch: ${changes} new change${changes === 1 ? '' : 's'} found`,
    text: `The latest load found:\n\n${lines.join('\n')}\n\nYour watches:\n${new URL('/account/watches', publicUrl)}\n`,
  };
}
