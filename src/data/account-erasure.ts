import type { Sql } from './client.ts';

/**
 * Deletes an account (docs/product-rules.md R12.19), in one transaction: its keys are revoked,
 * its sessions and links end, and every piece of personal data is erased: the sign-in (address,
 * password hash, two-factor secret and recovery codes), the contact address, the webhook (URL and
 * secret), the key names, the addresses and errors of its alert deliveries, test events and watch
 * posts; its watches end. What accounting
 * needs stays, tied to nobody: the ledger, the purchases (amounts, Stripe references) and the
 * alerts' balances. The account's row stays disabled, so nothing of it can be used again.
 */
export async function eraseAccount(sql: Sql, accountId: number): Promise<void> {
  await sql.begin(async (tx) => {
    // The account's row first, as a debit locks it: no call of its keys is charged meanwhile.
    await tx`SELECT 1 FROM accounts WHERE id = ${accountId} FOR UPDATE`;
    await tx`
      UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()), name = NULL WHERE account_id = ${accountId}`;
    await tx`UPDATE account_sessions SET ended_at = now() WHERE account_id = ${accountId} AND ended_at IS NULL`;
    await tx`DELETE FROM account_tokens WHERE account_id = ${accountId}`;
    await tx`DELETE FROM alert_webhooks WHERE account_id = ${accountId}`;
    await tx`
      UPDATE alert_attempts t SET error = NULL
      FROM alert_deliveries d WHERE d.id = t.delivery_id AND d.account_id = ${accountId}`;
    await tx`
      UPDATE alert_deliveries
      SET target = 'erased', last_error = NULL,
          given_up_at = CASE WHEN delivered_at IS NULL THEN coalesce(given_up_at, now()) ELSE given_up_at END
      WHERE account_id = ${accountId}`;
    // Test events keep their receiving address and time: the hourly limit per address counts them.
    await tx`UPDATE alert_test_events SET url = 'erased', error = NULL WHERE account_id = ${accountId}`;
    // Its watches end (nothing more is found or charged for it), and their posts forget the URL.
    await tx`UPDATE watches SET deleted_at = coalesce(deleted_at, now()) WHERE account_id = ${accountId}`;
    await tx`UPDATE watch_deliveries SET webhook_url = NULL, last_error = NULL WHERE account_id = ${accountId}`;
    await tx`DELETE FROM account_recovery_codes WHERE account_id = ${accountId}`;
    await tx`DELETE FROM sign_in_challenges WHERE account_id = ${accountId}`;
    await tx`DELETE FROM account_logins WHERE account_id = ${accountId}`;
    await tx`
      UPDATE accounts
      SET email = NULL, disabled_at = coalesce(disabled_at, now()), deleted_at = now(), low_balance_armed = false
      WHERE id = ${accountId}`;
  });
}
