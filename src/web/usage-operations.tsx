import { formatCredits, formatNumber } from './format.ts';
import { BILLED_OPERATIONS, operationName } from './operation-names.ts';
import type { UsageSeries } from './usage-period.ts';

interface OperationUsage {
  operationId: string;
  name: string;
  /** Credits a call, from the contract; null for an operation it no longer bills. */
  price: number | null;
  calls: number;
  refundedCalls: number;
  credits: number;
}

/**
 * Every billed operation with its price beside the period's usage (docs/product-rules.md R12.51),
 * the used ones first (most credits first), then the others in the contract's order, so the prices
 * show before the first call too.
 */
export function operationsWithPrices(usage: UsageSeries): OperationUsage[] {
  const used = new Map(usage.operations.map((row) => [row.operation, row]));
  const rows: OperationUsage[] = BILLED_OPERATIONS.map((op) => ({
    operationId: op.operationId,
    name: op.name,
    price: op.price,
    calls: used.get(op.operationId)?.calls ?? 0,
    refundedCalls: used.get(op.operationId)?.refundedCalls ?? 0,
    credits: used.get(op.operationId)?.credits ?? 0,
  }));
  for (const row of usage.operations)
    if (!BILLED_OPERATIONS.some((op) => op.operationId === row.operation))
      rows.push({ ...row, operationId: row.operation, name: operationName(row.operation), price: null });
  // A stable sort: unused operations keep the contract's order.
  return rows.sort((a, b) => b.credits - a.credits || b.calls - a.calls);
}

/** The period's usage per operation, with each operation's price. */
export function OperationsTable({ usage }: { usage: UsageSeries }) {
  return (
    <div class="table-wrap">
      <table data-testid="usage-operations" class="stack">
        <thead>
          <tr>
            <th>Operation</th>
            <th class="number">Price a call</th>
            <th class="number">Calls</th>
            <th class="number">Refunded</th>
            <th class="number">Credits</th>
          </tr>
        </thead>
        <tbody>
          {operationsWithPrices(usage).map((row) => (
            <tr>
              <td data-label="Operation">{row.name}</td>
              <td data-label="Price a call" class="number">
                {row.price === null ? <span class="muted">—</span> : formatCredits(row.price)}
              </td>
              <td data-label="Calls" class="number">
                {formatNumber(row.calls)}
              </td>
              <td data-label="Refunded" class="number">
                {formatNumber(row.refundedCalls)}
              </td>
              <td data-label="Credits" class="number">
                {formatNumber(row.credits)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
