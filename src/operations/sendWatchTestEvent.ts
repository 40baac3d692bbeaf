import { sendWatchTestEventRoute as route } from '../../generated/routes.ts';
import type { WebhookPostOptions } from '../alerts/webhook-post.ts';
import { ApiError } from '../contract/errors.ts';
import type { Sql } from '../data/client.ts';
import type { App } from '../http/app-env.ts';
import { sendWatchTestEvent } from '../watches/test-event.ts';
import { registerOperation } from './operation.ts';
import { holderOf, watchNotFound } from './watch-answers.ts';

/** The contract's bound on the answer's `failure` (a receiver's failure may quote a long host name). */
const FAILURE_MAX = 1000;

export function registerSendWatchTestEvent(app: App, { sql, webhooks }: { sql: Sql; webhooks: WebhookPostOptions }) {
  registerOperation(app, route, async (c) => {
    const { id } = c.req.valid('param');
    const outcome = await sendWatchTestEvent(sql, { ...holderOf(c), watchId: id }, { webhook: webhooks });
    if ('refused' in outcome) {
      if (outcome.refused === 'watch not found') throw watchNotFound();
      if (outcome.refused === 'no webhook')
        throw new ApiError('no_webhook', 'This account has no webhook: set one on the account page, under Alerts.');
      // The alert test events' hourly limits, shared (docs/product-rules.md R19.29).
      const whose = outcome.refused === 'account limit' ? 'this account' : 'the receiving host';
      throw new ApiError(
        'test_event_limit_reached',
        `The hourly limit of test events of ${whose} is spent; try later.`,
      );
    }
    const { eventId, status, error } = outcome.sent;
    return c.json(
      { event_id: eventId, delivered: error === null, status, failure: error?.slice(0, FAILURE_MAX) ?? null },
      200,
    );
  });
}
