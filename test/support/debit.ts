import { randomUUID } from 'node:crypto';
import { type DebitRequest, type DebitResult, debitCalls } from '../../src/data/billing.ts';
import type { Sql } from '../../src/data/client.ts';

/** The run the tests' own debits belong to: never registered, so no recovery pass ends it. */
export const TEST_RUN_ID = '00000000-0000-4000-8000-000000000000';

/** A call as the billing edge (http/billing.ts) sends it, with the ids the service would make. */
export function debitRequest(request: Omit<DebitRequest, 'callId' | 'runId'> & Partial<DebitRequest>): DebitRequest {
  return { callId: randomUUID(), runId: TEST_RUN_ID, ...request };
}

/** One call's debit on its own, through the statement the service uses. */
export async function debit(
  sql: Sql,
  request: Omit<DebitRequest, 'callId' | 'runId'> & Partial<DebitRequest>,
): Promise<DebitResult> {
  const [result] = await debitCalls(sql, [debitRequest(request)]);
  return result;
}
