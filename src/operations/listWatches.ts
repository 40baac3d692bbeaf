import { listWatchesRoute as route } from '../../generated/routes.ts';
import { entryAfter, ledgerCursor } from '../contract/ledger-cursor.ts';
import type { Sql } from '../data/client.ts';
import { watchesPage } from '../data/watches.ts';
import type { App } from '../http/app-env.ts';
import { registerOperation } from './operation.ts';
import { holderOf, watchBody } from './watch-answers.ts';

export function registerListWatches(app: App, { sql }: { sql: Sql }) {
  registerOperation(app, route, async (c) => {
    const { limit, cursor } = c.req.valid('query');
    // The page cursor names the last watch's place in the order of creation (docs/product-rules.md R19.11).
    const before = cursor === undefined ? undefined : (entryAfter(cursor) ?? undefined);
    const page = await watchesPage(sql, holderOf(c), { before, limit });
    const last = page.rows.at(-1);
    return c.json(
      {
        watches: page.rows.map(watchBody),
        next_cursor: page.more && last ? ledgerCursor(last.position) : null,
      },
      200,
    );
  });
}
