import { DEFAULT_HTTP_LIMITS } from '../../src/config.ts';
import { contractOperations } from '../../src/contract/operations.ts';
import type { Sql } from '../../src/data/client.ts';
import { validateResponse } from '../../test/support/contract.ts';
import { asResponse, rawRequest } from '../../test/support/http.ts';
import { type FaultRecord, SOME_WATCH_ID } from './faults.ts';

/**
 * The two documented refusals that generated input never reaches, produced on the same live
 * service for every operation: 414 for a URL over the limit, 431 for a request line and headers
 * over the limit (sent on a raw socket: the HTTP server answers it before any operation). Each
 * answer is validated against openapi.yaml, and neither may charge anything.
 */
export async function produceLimitRefusals(
  sql: Sql,
  baseUrl: string,
  { key, accountId }: { key: string; accountId: number },
  log: (line: string) => void,
): Promise<FaultRecord[]> {
  const { hostname, port } = new URL(baseUrl);
  const records: FaultRecord[] = [];
  const balanceBefore = await balanceOf(sql, accountId);
  log(
    `Request limits: URL over ${DEFAULT_HTTP_LIMITS.maxUrlBytes} bytes ` +
      `(414), headers over ${DEFAULT_HTTP_LIMITS.maxHeaderBytes} bytes (431)`,
  );
  for (const operation of contractOperations) {
    // Each operation by its own method, on its path with a watch id where it names one.
    const path = operation.path.replace('{id}', SOME_WATCH_ID);
    const label = `${operation.method} ${operation.path}`;
    const target = `${path}?padding=${'p'.repeat(DEFAULT_HTTP_LIMITS.maxUrlBytes)}`;
    const long = await validateResponse(
      operation.method,
      target,
      await fetch(`${baseUrl}${target}`, { method: operation.method, headers: { authorization: `Bearer ${key}` } }),
    );
    expect(long.status === 414 && long.body.error === 'uri_too_long', `${operation.operationId} 414`, long);
    records.push({
      operation: label,
      status: 414,
      error: 'uri_too_long',
      mechanism: 'request limits',
      detail: `URL of ${target.length} bytes`,
    });

    const padding = 'p'.repeat(DEFAULT_HTTP_LIMITS.maxHeaderBytes);
    const head = [
      `${operation.method} ${path} HTTP/1.1`,
      `Host: ${hostname}:${port}`,
      `Authorization: Bearer ${key}`,
      `X-Padding: ${padding}`,
      'Connection: close',
      '',
      '',
    ].join('\r\n');
    const answer = await rawRequest(Number(port), head);
    const large = await validateResponse(operation.method, path, asResponse(answer));
    expect(large.status === 431 && large.body.error === 'headers_too_large', `${operation.operationId} 431`, large);
    records.push({
      operation: label,
      status: 431,
      error: 'headers_too_large',
      mechanism: 'request limits',
      detail: `headers of ${head.length} bytes`,
    });
  }
  const balanceAfter = await balanceOf(sql, accountId);
  if (balanceAfter !== balanceBefore)
    throw new Error(`request limits: the balance went from ${balanceBefore} to ${balanceAfter}; refusals must be free`);
  return records;
}

async function balanceOf(sql: Sql, accountId: number): Promise<number> {
  const [row] = await sql<{ balance: number }[]>`SELECT balance FROM accounts WHERE id = ${accountId}`;
  return row.balance;
}

function expect(condition: boolean, what: string, response: { status: number; body?: unknown }): void {
  if (!condition)
    throw new Error(`request limits, ${what}: unexpected answer ${response.status} ${JSON.stringify(response.body)}`);
}
