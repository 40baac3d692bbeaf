import type { Sql } from '../data/client.ts';
import { endAllSessions } from '../data/sessions.ts';
import { requireSession, stopSession } from './session.ts';
import type { Web } from './web-env.ts';

/** POST /account/sign-out and /account/sign-out-everywhere (docs/product-rules.md R12.5). */
export function registerSignOut(web: Web, { sql, secure }: { sql: Sql; secure: boolean }) {
  web.post('/sign-out', async (c) => {
    await stopSession(c, sql, secure);
    return c.redirect('/account/sign-in?done=signed-out', 303);
  });
  web.post('/sign-out-everywhere', requireSession, async (c) => {
    await endAllSessions(sql, c.get('session')!.accountId);
    await stopSession(c, sql, secure);
    return c.redirect('/account/sign-in?done=signed-out', 303);
  });
}
