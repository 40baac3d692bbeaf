import { listWatchEventsRoute as route } from '../../generated/routes.ts';
import { entryAfter, ledgerCursor } from '../contract/ledger-cursor.ts';
import type { Sql } from '../data/client.ts';
import { findWatch, watchEventsPage } from '../data/watches.ts';
import type { App } from '../http/app-env.ts';
import { registerOperation } from './operation.ts';
import { holderOf, watchEventBody, watchNotFound } from './watch-answers.ts';

export function registerListWatchEvents(app: App, { sql }: { sql: Sql }) {
  registerOperation(app, route, async (c) => {
    const { id } = c.req.valid('param');
    const { limit, cursor } = c.req.valid('query');
    const watch = await findWatch(sql, holderOf(c), id);
    if (watch === null) throw watchNotFound();
    const before = cursor === undefined ? undefined : (entryAfter(cursor) ?? undefined);
    const page = await watchEventsPage(sql, watch, { before, limit });
    const last = page.rows.at(-1);
    return c.json(
      {
        events: page.rows.map(watchEventBody),
        next_cursor: page.more && last ? ledgerCursor(last.id) : null,
      },
      200,
    );
  });
}
