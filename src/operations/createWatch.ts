import { createWatchRoute as route } from '../../generated/routes.ts';
import { ApiError } from '../contract/errors.ts';
import type { Sql } from '../data/client.ts';
import { createWatch } from '../data/watches.ts';
import type { App } from '../http/app-env.ts';
import { registerOperation } from './operation.ts';
import { holderOf, watchBody } from './watch-answers.ts';

export function registerCreateWatch(app: App, { sql, watchLimit }: { sql: Sql; watchLimit: number }) {
  registerOperation(app, route, async (c) => {
    // Checked and normalized before billing (http/parameters.ts, contract/watch-request.ts).
    const { kind, target } = c.req.valid('json');
    const made = await createWatch(sql, holderOf(c), { keyId: c.get('caller').keyId, kind, target, limit: watchLimit });
    if (made.outcome === 'limit_reached')
      throw new ApiError(
        'watch_limit_reached',
        `This account already has ${made.limit} live watches, the most it may hold; delete one first.`,
        { limit: made.limit },
      );
    // The same live watch again is that watch, 200 (docs/product-rules.md R19.9).
    if (made.outcome === 'existing') return c.json(watchBody(made.watch), 200);
    c.header('Location', `/api/v1/watches/${made.watch.id}`);
    return c.json(watchBody(made.watch), 201);
  });
}
