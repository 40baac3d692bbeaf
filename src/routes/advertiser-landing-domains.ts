import { getApiV1AdvertiserDomainsRoute as route } from '../../generated/routes.ts';
import type { App, RouteDependencies } from '../app.ts';
import { LANDING_DOMAINS_CAP, advertiserLandingDomains } from '../db/lookups.ts';
import { notFound } from '../errors.ts';
import { nameParameter } from '../params.ts';

export function registerAdvertiserLandingDomains(app: App, { sql }: RouteDependencies) {
  app.openapi(route, async (c) => {
    const name = nameParameter(c);
    const { key_prefix, ...credits } = await c.var.debit({ name });
    const landingDomains = await advertiserLandingDomains(sql, name, LANDING_DOMAINS_CAP);
    if (landingDomains === null) throw notFound(`No advertiser is named ${JSON.stringify(name)}.`);
    return c.json({ ...landingDomains, ...credits }, 200);
  });
}
