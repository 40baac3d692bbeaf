import { getApiV1BrandbidRoute as route } from '../../generated/routes.ts';
import type { App, RouteDependencies } from '../app.ts';
import { BRAND_BID_CAP, brandBid } from '../db/lookups.ts';
import { notFound } from '../errors.ts';
import { domainParameter } from '../params.ts';

export function registerBrandBidReport(app: App, { sql }: RouteDependencies) {
  app.openapi(route, async (c) => {
    const domain = domainParameter(c);
    const { key_prefix, ...credits } = await c.var.debit({ domain });
    const report = await brandBid(sql, domain, BRAND_BID_CAP);
    if (report === null) throw notFound(`The service has no data on the domain ${JSON.stringify(domain)}.`);
    return c.json({ ...report, ...credits }, 200);
  });
}
