import { getAdvertiserLandingDomainsRoute as route } from '../../generated/routes.ts';
import { itemFieldsOf } from '../contract/response-schemas.ts';
import * as lookups from '../data/lookups.ts';
import type { App } from '../http/app-env.ts';
import { CSV, csvAnswer } from '../http/csv.ts';
import { advertiserNotFound } from './not-found.ts';
import { type OperationDependencies, paidCredits, registerOperation, withDataOf } from './operation.ts';

const COLUMNS = itemFieldsOf('AdvertiserLandingDomains', 'landing_domains');

export function registerGetAdvertiserLandingDomains(app: App, { reads }: Pick<OperationDependencies, 'reads'>) {
  registerOperation(app, route, async (c) => {
    const { name } = c.req.valid('query');
    const credits = paidCredits(c);
    const landingDomains = await withDataOf(c, reads, async (data) => {
      const found = await lookups.getAdvertiserLandingDomains(data, name);
      if (found === null) throw await advertiserNotFound(data, name);
      return found;
    });
    if (c.get('mediaType') === CSV)
      return csvAnswer(c, COLUMNS, landingDomains.landing_domains, {
        'X-Total-Count': String(landingDomains.landing_domain_count),
        'X-Truncated': String(landingDomains.truncated),
      });
    return c.json({ ...landingDomains, ...credits }, 200);
  });
}
