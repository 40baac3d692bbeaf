import { getAdvertiserHistoryRoute as route } from '../../generated/routes.ts';
import { itemFieldsOf } from '../contract/response-schemas.ts';
import * as lookups from '../data/lookups.ts';
import type { App } from '../http/app-env.ts';
import { CSV, csvAnswer } from '../http/csv.ts';
import { advertiserNotFound } from './not-found.ts';
import { type OperationDependencies, paidCredits, registerOperation, withDataOf } from './operation.ts';

const COLUMNS = itemFieldsOf('AdvertiserHistory', 'months');

export function registerGetAdvertiserHistory(app: App, { reads, now }: Pick<OperationDependencies, 'reads' | 'now'>) {
  registerOperation(app, route, async (c) => {
    const { name } = c.req.valid('query');
    const credits = paidCredits(c);
    const history = await withDataOf(c, reads, async (data) => {
      const found = await lookups.getAdvertiserHistory(data, name, now());
      if (found === null) throw await advertiserNotFound(data, name);
      return found;
    });
    if (c.get('mediaType') === CSV) return csvAnswer(c, COLUMNS, history.months);
    return c.json({ ...history, ...credits }, 200);
  });
}
