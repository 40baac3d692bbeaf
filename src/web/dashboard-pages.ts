import { registerAlerts } from './alerts.tsx';
import { registerCredits } from './credits.tsx';
import { registerKeys } from './keys.tsx';
import { registerLedger } from './ledger.tsx';
import { registerOverview } from './overview.tsx';
import type { Web, WebDependencies } from './web-env.ts';

/**
 * The signed-in pages: overview (balance, usage chart), API keys and their caps, ledger and its
 * CSV, buying credits, alerts.
 */
export function registerDashboardPages(web: Web, { sql, now, payments }: WebDependencies) {
  registerOverview(web, { sql, now });
  registerKeys(web, { sql });
  registerLedger(web, { sql, now });
  registerCredits(web, { sql, payments });
  registerAlerts(web, { sql });
}
