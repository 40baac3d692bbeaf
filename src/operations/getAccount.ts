import { getAccountRoute as route } from '../../generated/routes.ts';
import type { App } from '../http/app-env.ts';
import { paidCredits, registerOperation } from './operation.ts';

export function registerGetAccount(app: App) {
  registerOperation(app, route, async (c) => {
    // The price of this operation is 0: paying only checked the key and read the balance.
    return c.json({ key_prefix: c.get('caller').keyPrefix, balance: paidCredits(c).credits_remaining }, 200);
  });
}
