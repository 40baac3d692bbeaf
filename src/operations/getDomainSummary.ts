import { getDomainSummaryRoute as route } from '../../generated/routes.ts';
import * as lookups from '../data/lookups.ts';
import type { App } from '../http/app-env.ts';
import { domainNotFound } from './not-found.ts';
import { type OperationDependencies, paidCredits, registerOperation, withDataOf } from './operation.ts';

export function registerGetDomainSummary(app: App, { reads }: Pick<OperationDependencies, 'reads'>) {
  registerOperation(app, route, async (c) => {
    const { domain } = c.req.valid('query');
    const credits = paidCredits(c);
    const summary = await withDataOf(c, reads, async (data) => {
      const found = await lookups.getDomainSummary(data, domain);
      if (found === null) throw await domainNotFound(data, domain);
      return found;
    });
    return c.json({ ...summary, ...credits }, 200);
  });
}
