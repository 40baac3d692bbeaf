import { getApiV1AdvertiserHistoryRoute as route } from '../../generated/routes.ts';
import type { App, RouteDependencies } from '../app.ts';
import { advertiserHistory } from '../db/lookups.ts';
import { notFound } from '../errors.ts';
import { nameParameter } from '../params.ts';

export function registerAdvertiserHistory(app: App, { sql, now }: RouteDependencies) {
  app.openapi(route, async (c) => {
    const name = nameParameter(c);
    const { key_prefix, ...credits } = await c.var.debit({ name });
    const history = await advertiserHistory(sql, name, now());
    if (history === null) throw notFound(`No advertiser is named ${JSON.stringify(name)}.`);
    return c.json({ ...history, ...credits }, 200);
  });
}
