import { getAccountLedgerRoute as route } from '../../generated/routes.ts';
import { ledgerPage } from '../accounts/ledger.ts';
import { entryAfter, ledgerCursor } from '../contract/ledger-cursor.ts';
import type { Sql } from '../data/client.ts';
import type { App } from '../http/app-env.ts';
import { registerOperation } from './operation.ts';

export function registerGetAccountLedger(app: App, { sql }: { sql: Sql }) {
  registerOperation(app, route, async (c) => {
    const { limit, cursor } = c.req.valid('query');
    // A test key sees only the sandbox's entries (R17.7), and its calls write none (R17.2).
    if (c.get('sandbox')) return c.json({ entries: [], next_cursor: null }, 200);
    const before = cursor === undefined ? undefined : (entryAfter(cursor) ?? undefined);
    const page = await ledgerPage(sql, c.get('caller').accountId, { before, limit });
    const last = page.rows.at(-1);
    return c.json(
      {
        entries: page.rows.map((row) => ({
          id: row.id,
          kind: row.kind,
          amount: row.amount,
          balance_after: row.balanceAfter,
          key_prefix: row.keyPrefix,
          operation: row.operation,
          request_id: row.requestId,
          payment_reference: row.paymentReference,
          refund_of: row.refundOf,
          channel: row.channel,
          created_at: row.createdAt.toISOString(),
        })),
        next_cursor: page.more && last ? ledgerCursor(last.id) : null,
      },
      200,
    );
  });
}
