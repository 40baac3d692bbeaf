import { deleteWatchRoute as route } from '../../generated/routes.ts';
import type { Sql } from '../data/client.ts';
import { deleteWatch } from '../data/watches.ts';
import type { App } from '../http/app-env.ts';
import { registerOperation } from './operation.ts';
import { holderOf, watchNotFound } from './watch-answers.ts';

export function registerDeleteWatch(app: App, { sql }: { sql: Sql }) {
  registerOperation(app, route, async (c) => {
    const { id } = c.req.valid('param');
    if (!(await deleteWatch(sql, holderOf(c), id))) throw watchNotFound();
    return c.body(null, 204);
  });
}
