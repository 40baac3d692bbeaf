import { type ApiKey, keysOf } from '../accounts/keys.ts';
import { LEDGER_KINDS, type LedgerFilter, ledgerPage } from '../accounts/ledger.ts';
import type { Sql } from '../data/client.ts';
import { formatAmount, formatNumber, formatTime } from './format.ts';
import { Page } from './layout.tsx';
import { LEDGER_CSV_HEADER, ledgerCsvRecord } from './ledger-csv.ts';
import { ledgerCsvFileName, ledgerFilterOf, ledgerFilterQuery } from './ledger-filter.ts';
import { operationName } from './operation-names.ts';
import { requireSession } from './session.ts';
import type { Web } from './web-env.ts';

/** Rows per page of the ledger, and per read while the CSV is written. */
export const LEDGER_PAGE_ROWS = 50;
const CSV_BATCH_ROWS = 1_000;

const ENTRY_ID = /^[1-9][0-9]{0,14}$/;

/** The filter form: a GET form, so a filtered page has its own address. */
function FilterForm({ filter, keys }: { filter: LedgerFilter; keys: ApiKey[] }) {
  return (
    <form method="get" action="/account/ledger" class="filters" aria-label="Filter the ledger">
      <div class="field">
        <label for="filter-key">Key</label>
        <select id="filter-key" name="key">
          <option value="">All keys</option>
          {keys.map((key) => (
            <option value={String(key.id)} selected={filter.keyId === key.id}>
              {key.name ? `${key.name} (${key.displayPrefix}…)` : `${key.displayPrefix}…`}
              {key.revokedAt ? ', revoked' : ''}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="filter-kind">Kind</label>
        <select id="filter-kind" name="kind">
          <option value="">All kinds</option>
          {LEDGER_KINDS.map((kind) => (
            <option value={kind} selected={filter.kind === kind}>
              {kind}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="filter-from">From (UTC)</label>
        <input id="filter-from" name="from" type="date" value={filter.from ?? ''} />
      </div>
      <div class="field">
        <label for="filter-to">To (UTC)</label>
        <input id="filter-to" name="to" type="date" value={filter.to ?? ''} />
      </div>
      <div class="field filter-actions">
        <button type="submit" class="secondary">
          Filter
        </button>
        {Object.keys(filter).length > 0 && <a href="/account/ledger">Clear</a>}
      </div>
    </form>
  );
}

/**
 * GET /account/ledger (paged, newest first, filtered) and GET /account/ledger.csv (the same filter,
 * every page) (docs/product-rules.md R12.39, R12.40, R12.52).
 */
export function registerLedger(web: Web, { sql, now }: { sql: Sql; now: () => Date }) {
  web.get('/ledger', requireSession, async (c) => {
    const session = c.get('session')!;
    const filter = ledgerFilterOf((name) => c.req.query(name));
    const beforeText = c.req.query('before');
    const afterText = c.req.query('after');
    const before = beforeText && ENTRY_ID.test(beforeText) ? Number(beforeText) : undefined;
    const after = before === undefined && afterText && ENTRY_ID.test(afterText) ? Number(afterText) : undefined;
    const [page, keys] = await Promise.all([
      ledgerPage(sql, session.accountId, { before, after, limit: LEDGER_PAGE_ROWS, filter, askNewer: true }),
      keysOf(sql, session.accountId),
    ]);
    const [first, last] = [page.rows[0], page.rows.at(-1)];
    return c.html(
      <Page title="Ledger" email={session.email} csrfToken={session.csrfToken} current="ledger">
        <div class="section-head">
          <h1>Ledger</h1>
          <a class="button secondary" href={`/account/ledger.csv${ledgerFilterQuery(filter)}`} download>
            Download CSV
          </a>
        </div>
        <p class="muted">
          Every change of your balance, newest first. Times are UTC. The CSV holds every entry the filter selects.
        </p>
        <FilterForm filter={filter} keys={keys} />
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
                    {Object.keys(filter).length > 0 ? 'No entry matches this filter.' : 'Nothing yet.'}
                  </td>
                </tr>
              )}
              {page.rows.map((row) => (
                <tr>
                  <td data-label="Time" class="time">
                    {formatTime(row.createdAt)}
                  </td>
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
          {page.newer && <a href={`/account/ledger${ledgerFilterQuery(filter)}`}>Newest</a>}
          {page.newer && first && (
            <a href={`/account/ledger${ledgerFilterQuery(filter, { after: String(first.id) })}`} rel="prev">
              Newer entries
            </a>
          )}
          {page.more && last && (
            <a href={`/account/ledger${ledgerFilterQuery(filter, { before: String(last.id) })}`} rel="next">
              Older entries
            </a>
          )}
        </nav>
      </Page>,
    );
  });

  web.get('/ledger.csv', requireSession, (c) => {
    const { accountId } = c.get('session')!;
    const filter = ledgerFilterOf((name) => c.req.query(name));
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
        const page = await ledgerPage(sql, accountId, { before, limit: CSV_BATCH_ROWS, filter });
        if (page.rows.length > 0) controller.enqueue(encoder.encode(page.rows.map(ledgerCsvRecord).join('')));
        if (!page.more) controller.close();
        else before = page.rows.at(-1)!.id;
      },
    });
    return c.body(body, 200, {
      'Content-Type': 'text/csv; charset=utf-8; header=present',
      'Content-Disposition': `attachment; filename="${ledgerCsvFileName(accountId, filter, now())}"`,
    });
  });
}
