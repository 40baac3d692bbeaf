import { getAdvertiserSummaryRoute as route } from '../../generated/routes.ts';
import * as lookups from '../data/lookups.ts';
import type { App } from '../http/app-env.ts';
import { advertiserNotFound } from './not-found.ts';
import { type OperationDependencies, paidCredits, registerOperation, withDataOf } from './operation.ts';

export function registerGetAdvertiserSummary(app: App, { reads }: Pick<OperationDependencies, 'reads'>) {
  registerOperation(app, route, async (c) => {
    const { name } = c.req.valid('query');
    const credits = paidCredits(c);
    const summary = await withDataOf(c, reads, async (data) => {
      const found = await lookups.getAdvertiserSummary(data, name);
      if (found === null) throw await advertiserNotFound(data, name);
      return found;
    });
    return c.json({ ...summary, ...credits }, 200);
  });
}
