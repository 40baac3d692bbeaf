import { getApiV1AdvertiserRoute as route } from '../../generated/routes.ts';
import type { App, RouteDependencies } from '../app.ts';
import { advertiserSummary } from '../db/lookups.ts';
import { notFound } from '../errors.ts';
import { nameParameter } from '../params.ts';

export function registerAdvertiserSummary(app: App, { sql }: RouteDependencies) {
  app.openapi(route, async (c) => {
    const name = nameParameter(c);
    const { key_prefix, ...credits } = await c.var.debit({ name });
    const summary = await advertiserSummary(sql, name);
    if (summary === null) throw notFound(`No advertiser is named ${JSON.stringify(name)}.`);
    return c.json({ ...summary, ...credits }, 200);
  });
}
