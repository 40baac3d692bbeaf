import { LEDGER_KINDS, type LedgerFilter } from '../accounts/ledger.ts';
import { utcDay } from '../accounts/usage-days.ts';

const DAY = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;

function dayOf(value: string | undefined): string | undefined {
  if (value === undefined || !DAY.test(value)) return undefined;
  const at = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(at.getTime()) || utcDay(at) !== value ? undefined : value;
}

/**
 * The ledger page's filter from its query (docs/product-rules.md R12.52): a key id, a kind, a first
 * and a last UTC day. A value that is none of these is left out, as the form's "All" is.
 */
export function ledgerFilterOf(query: (name: string) => string | undefined): LedgerFilter {
  const key = query('key');
  const kind = query('kind');
  const filter: LedgerFilter = {
    keyId: key && /^[1-9][0-9]{0,14}$/.test(key) ? Number(key) : undefined,
    kind: LEDGER_KINDS.find((known) => known === kind),
    from: dayOf(query('from')),
    to: dayOf(query('to')),
  };
  return Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined));
}

/** The filter as a query string (with its `?`, empty for none), for links that keep it. */
export function ledgerFilterQuery(filter: LedgerFilter, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  if (filter.keyId !== undefined) params.set('key', String(filter.keyId));
  if (filter.kind !== undefined) params.set('kind', filter.kind);
  if (filter.from !== undefined) params.set('from', filter.from);
  if (filter.to !== undefined) params.set('to', filter.to);
  for (const [name, value] of Object.entries(extra)) params.set(name, value);
  const query = params.toString();
  return query ? `?${query}` : '';
}

/**
 * The CSV's file name: the account and the range it covers, e.g.
 * `ledger-account-12-2026-11-01-to-2026-11-26.csv`; without a first day, from its start.
 */
export function ledgerCsvFileName(accountId: number, filter: LedgerFilter, today: Date): string {
  const to = filter.to ?? utcDay(today);
  const kind = filter.kind ? `-${filter.kind}` : '';
  const key = filter.keyId !== undefined ? `-key-${filter.keyId}` : '';
  return `ledger-account-${accountId}${key}${kind}-${filter.from ?? 'start'}-to-${to}.csv`;
}
