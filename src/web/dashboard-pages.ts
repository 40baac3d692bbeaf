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
export function registerDashboardPages(web: Web, { sql, now, payments, operator, webhooks }: WebDependencies) {
  registerOverview(web, { sql, now, payments, operator });
  registerKeys(web, { sql });
  registerLedger(web, { sql });
  registerCredits(web, { sql, payments, operator });
  registerAlerts(web, { sql, webhooks });
}
