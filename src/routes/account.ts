import { getApiV1AccountRoute as route } from '../../generated/routes.ts';
import type { App, RouteDependencies } from '../app.ts';

export function registerAccount(app: App, _deps: RouteDependencies) {
  app.openapi(route, async (c) => {
    // The price of this operation is 0: the debit only checks the key and reads the balance.
    const { key_prefix, credits_remaining } = await c.var.debit();
    return c.json({ key_prefix, balance: credits_remaining }, 200);
  });
}
