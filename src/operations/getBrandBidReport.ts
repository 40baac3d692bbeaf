import { getBrandBidReportRoute as route } from '../../generated/routes.ts';
import { itemFieldsOf } from '../contract/response-schemas.ts';
import * as lookups from '../data/lookups.ts';
import type { App } from '../http/app-env.ts';
import { CSV, csvAnswer } from '../http/csv.ts';
import { domainNotFound } from './not-found.ts';
import { type OperationDependencies, paidCredits, registerOperation, withDataOf } from './operation.ts';

const COLUMNS = itemFieldsOf('BrandBidReport', 'advertisers');

export function registerGetBrandBidReport(app: App, { reads }: Pick<OperationDependencies, 'reads'>) {
  registerOperation(app, route, async (c) => {
    const { domain } = c.req.valid('query');
    const credits = paidCredits(c);
    const report = await withDataOf(c, reads, async (data) => {
      const found = await lookups.getBrandBidReport(data, domain);
      if (found === null) throw await domainNotFound(data, domain);
      return found;
    });
    if (c.get('mediaType') === CSV)
      return csvAnswer(c, COLUMNS, report.advertisers, {
        'X-Total-Count': String(report.advertiser_count),
        'X-Truncated': String(report.advertisers.length < report.advertiser_count),
      });
    return c.json({ ...report, ...credits }, 200);
  });
}
