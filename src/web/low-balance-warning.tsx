import { alertSettingsOf } from '../data/alerts.ts';
import type { Sql } from '../data/client.ts';
import { formatNumber } from './format.ts';

/**
 * The warning shown while the balance is below the alert threshold (docs/product-rules.md R14.15):
 * the alert fires once per crossing, so without it a holder who set a threshold above the
 * balance, or missed the alert, would see nothing of it.
 */
export function LowBalanceNotice({ balance, threshold }: { balance: number; threshold: number | null }) {
  if (threshold === null || balance >= threshold) return null;
  return (
    <div class="notice warning" role="status" data-testid="low-balance-warning">
      Your balance, <strong>{formatNumber(balance)}</strong> credits, is below your alert threshold of{' '}
      {formatNumber(threshold)} credits. Calls stop with <code>402</code> when it runs out.{' '}
      <a href="/account/credits">Buy more credits</a> · <a href="/account/alerts">Change the alert</a>
    </div>
  );
}

/** The same warning for a page that has not read the threshold: it reads balance and threshold itself. */
export async function LowBalanceWarning({ sql, accountId }: { sql: Sql; accountId: number }) {
  const { balance, threshold } = await alertSettingsOf(sql, accountId);
  return <LowBalanceNotice balance={balance} threshold={threshold} />;
}
