import { getAccountRoute as route } from '../../generated/routes.ts';
import type { App } from '../http/app-env.ts';
import { registerOperation } from './operation.ts';

export function registerGetAccount(app: App) {
  registerOperation(app, route, async (c) => {
    // The price of this operation is 0: the debit only checks the key and reads the balance.
    const { credits_remaining } = await c.get('debit')();
    return c.json({ key_prefix: c.get('keyPrefix'), balance: credits_remaining }, 200);
  });
}
