import { AccountSettings } from '../accounts/account-settings.ts';
import { TwoFactor } from '../accounts/two-factor.ts';
import { registerAlerts } from './alerts.tsx';
import { registerCredits } from './credits.tsx';
import { registerKeys } from './keys.tsx';
import { registerLedger } from './ledger.tsx';
import { registerOverview } from './overview.tsx';
import { registerSettings } from './settings.tsx';
import { registerWatches } from './watches.tsx';
import type { Web, WebDependencies } from './web-env.ts';

/**
 * The signed-in pages: overview (balance, usage chart), API keys and their caps, ledger and its
 * CSV, buying credits, alerts, watches, the account's settings.
 */
export function registerDashboardPages(web: Web, deps: WebDependencies) {
  const { sql, now, payments, operator, webhooks } = deps;
  registerOverview(web, { sql, now, payments, operator });
  registerKeys(web, { sql, publicUrl: deps.publicUrl });
  registerLedger(web, { sql, now });
  registerCredits(web, { sql, payments, operator });
  registerAlerts(web, { sql, webhooks });
  registerWatches(web, { sql, watchLimit: deps.watchLimit, webhooks });
  registerSettings(web, {
    settings: new AccountSettings(deps),
    twoFactor: new TwoFactor(sql),
    secure: deps.secureCookies,
  });
}
