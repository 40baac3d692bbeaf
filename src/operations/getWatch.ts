import { getWatchRoute as route } from '../../generated/routes.ts';
import type { Sql } from '../data/client.ts';
import { findWatch } from '../data/watches.ts';
import type { App } from '../http/app-env.ts';
import { registerOperation } from './operation.ts';
import { holderOf, watchBody, watchNotFound } from './watch-answers.ts';

export function registerGetWatch(app: App, { sql }: { sql: Sql }) {
  registerOperation(app, route, async (c) => {
    const { id } = c.req.valid('param');
    const watch = await findWatch(sql, holderOf(c), id);
    if (watch === null) throw watchNotFound();
    return c.json(watchBody(watch), 200);
  });
}
