import type { Sql } from '../data/client.ts';
import { ledgerPage } from '../data/ledger.ts';
import { formatAmount, formatNumber, formatTime } from './format.ts';
import { Page } from './layout.tsx';
import { LEDGER_CSV_HEADER, ledgerCsvRecord } from './ledger-csv.ts';
import { operationName } from './operation-names.ts';
import { requireSession } from './session.ts';
import type { Web } from './web-env.ts';

/** Rows per page of the ledger, and per read while the CSV is written. */
export const LEDGER_PAGE_ROWS = 50;
const CSV_BATCH_ROWS = 1_000;

/** GET /account/ledger (paged, newest first) and GET /account/ledger.csv (docs/product-rules.md R12.39, R12.40). */
export function registerLedger(web: Web, { sql }: { sql: Sql }) {
  web.get('/ledger', requireSession, async (c) => {
    const session = c.get('session')!;
    const beforeText = c.req.query('before');
    const before = beforeText && /^[1-9][0-9]{0,14}$/.test(beforeText) ? Number(beforeText) : undefined;
    const page = await ledgerPage(sql, session.accountId, { before, limit: LEDGER_PAGE_ROWS });
    const last = page.rows.at(-1);
    return c.html(
      <Page title="Ledger" email={session.email} csrfToken={session.csrfToken} current="ledger">
        <div class="section-head">
          <h1>Ledger</h1>
          <a class="button secondary" href="/account/ledger.csv" download>
            Download CSV
          </a>
        </div>
        <p class="muted">Every change of your balance, newest first. Times are UTC.</p>
        <div class="table-wrap card flush">
          <table data-testid="ledger" class="stack">
            <thead>
              <tr>
                <th>Time</th>
                <th>Kind</th>
                <th class="number">Credits</th>
                <th class="number">Balance</th>
                <th>Operation</th>
                <th>Key</th>
                <th>Reference</th>
              </tr>
            </thead>
            <tbody>
              {page.rows.length === 0 && (
                <tr>
                  <td colspan={7} class="muted">
                    Nothing yet.
                  </td>
                </tr>
              )}
              {page.rows.map((row) => (
                <tr>
                  <td data-label="Time">{formatTime(row.createdAt)}</td>
                  <td data-label="Kind">{row.kind}</td>
                  <td data-label="Credits" class={`number ${row.amount < 0 ? 'debit' : 'credit'}`}>
                    {formatAmount(row.amount)}
                  </td>
                  <td data-label="Balance" class="number">
                    {formatNumber(row.balanceAfter)}
                  </td>
                  <td data-label="Operation">{row.operation && operationName(row.operation)}</td>
                  <td data-label="Key">
                    {row.keyPrefix && (
                      <>
                        {row.keyName && <span class="key-name">{row.keyName} </span>}
                        <code>{row.keyPrefix}…</code>
                      </>
                    )}
                  </td>
                  <td data-label="Reference" class="reference">
                    <code>{row.paymentReference ?? row.requestId ?? ''}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <nav aria-label="Ledger pages" class="pager">
          {before !== undefined && <a href="/account/ledger">Newest</a>}
          {page.more && last && <a href={`/account/ledger?before=${last.id}`}>Older entries</a>}
        </nav>
      </Page>,
    );
  });

  web.get('/ledger.csv', requireSession, (c) => {
    const { accountId } = c.get('session')!;
    const encoder = new TextEncoder();
    let before: number | undefined;
    let headerSent = false;
    // Read and written a batch at a time, so a long ledger never sits in memory whole.
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (!headerSent) {
          headerSent = true;
          controller.enqueue(encoder.encode(`${LEDGER_CSV_HEADER.join(',')}\r\n`));
        }
        const page = await ledgerPage(sql, accountId, { before, limit: CSV_BATCH_ROWS });
        if (page.rows.length > 0) controller.enqueue(encoder.encode(page.rows.map(ledgerCsvRecord).join('')));
        if (!page.more) controller.close();
        else before = page.rows.at(-1)!.id;
      },
    });
    return c.body(body, 200, {
      'Content-Type': 'text/csv; charset=utf-8; header=present',
      'Content-Disposition': `attachment; filename="ledger-${accountId}.csv"`,
    });
  });
}
