import { getApiV1DomainRoute as route } from '../../generated/routes.ts';
import type { App, RouteDependencies } from '../app.ts';
import { domainSummary } from '../db/lookups.ts';
import { notFound } from '../errors.ts';
import { domainParameter } from '../params.ts';

export function registerDomainSummary(app: App, { sql }: RouteDependencies) {
  app.openapi(route, async (c) => {
    const domain = domainParameter(c);
    const { key_prefix, ...credits } = await c.var.debit({ domain });
    const summary = await domainSummary(sql, domain);
    if (summary === null) throw notFound(`The service has no data on the domain ${JSON.stringify(domain)}.`);
    return c.json({ ...summary, ...credits }, 200);
  });
}
