import { searchAdvertisersRoute as route } from '../../generated/routes.ts';
import * as search from '../data/search.ts';
import type { App } from '../http/app-env.ts';
import { type OperationDependencies, paidCredits, registerOperation, withDataOf } from './operation.ts';

export function registerSearchAdvertisers(app: App, { reads }: Pick<OperationDependencies, 'reads'>) {
  registerOperation(app, route, async (c) => {
    const { q } = c.req.valid('query');
    const credits = paidCredits(c);
    const found = await withDataOf(c, reads, (data) => search.searchAdvertisers(data, q));
    return c.json({ ...found, ...credits }, 200);
  });
}
