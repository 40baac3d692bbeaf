import { randomUUID } from 'node:crypto';
import { allowedMethods, contractOperations } from '../../src/contract/operations.ts';
import { createAccount, createApiKey } from '../../src/data/accounts.ts';
import { setAlertWebhook } from '../../src/data/alerts.ts';
import type { Sql } from '../../src/data/client.ts';
import type { ValidatedResponse } from '../../test/support/contract.ts';
import { type FaultRecord, sendOperation } from './faults.ts';

/**
 * The documented answers of the watches (docs/product-rules.md §19) that depend on what came
 * before, or on a body or path the fuzzing cannot know, produced deterministically on the live
 * services and validated against openapi.yaml, each one free in the ledger:
 *  - createWatch: 201 with Location, its Idempotency-Key replayed and reused with another body
 *    (422), the same watch again (200), each 400 code of the body and of a malformed key, and 415
 *    for a body that is not JSON; 409 on the second service, which allows one watch per account;
 *  - getWatch, listWatchEvents (200), deleteWatch (204) on a watch that exists, then 404 for it
 *    deleted; 400 for a malformed watch id, a bad limit or cursor;
 *  - sendWatchTestEvent: 409 no_webhook, then 200 (delivered: false) for a webhook at a private
 *    address, which the service refuses to reach, until 409 test_event_limit_reached; 404 and 400
 *    as for the other operations;
 *  - 405 with the contract's Allow for a method no operation of the path has, on every path.
 */
export async function produceWatchSequences(
  sql: Sql,
  mainUrl: string,
  limitedUrl: string,
  funded: { key: string; accountId: number },
  log: (line: string) => void,
): Promise<FaultRecord[]> {
  const records: FaultRecord[] = [];
  const balance = await balanceOf(sql, funded.accountId);
  const free = async (response: ValidatedResponse, what: string) => {
    const requestId = response.headers.get('x-request-id')!;
    const [{ rows }] = await sql<{ rows: number }[]>`
      SELECT count(*)::int AS rows FROM ledger WHERE request_id = ${requestId}`;
    expect(rows === 0, `${what}: ${rows} ledger rows for a free call`, response);
    expect((await balanceOf(sql, funded.accountId)) === balance, `${what}: the balance changed`, response);
  };
  const record = (
    label: string,
    response: ValidatedResponse,
    status: number,
    mechanism: string,
    detail: string,
    error?: string,
  ) => {
    expect(response.status === status, `${label} ${mechanism}: expected ${status}`, response);
    if (error !== undefined) expect(response.body?.error === error, `${label}: expected ${error}`, response);
    records.push({ operation: label, status, error: error ?? '', mechanism, detail });
  };
  const send = (operationId: string, options: Parameters<typeof sendOperation>[3] = {}) =>
    sendOperation(mainUrl, funded.key, operationId, options);
  const json = (body: unknown) => JSON.stringify(body);

  log('Watches: create (201, Location), replay, reuse (422), again (200), bad bodies (400, 415), free');
  const target = `contract-run-${Date.now()}.com`;
  const idempotencyKey = randomUUID();
  const created = await send('createWatch', {
    body: json({ kind: 'domain', target: `https://www.${target}/path` }),
    headers: { 'Idempotency-Key': idempotencyKey },
  });
  const watch = created.response.body as { id: string; target: string };
  record(created.label, created.response, 201, 'watch sequence', 'created, Location set');
  expect(watch.target === target, 'createWatch: the root domain', created.response);
  expect(created.response.headers.get('location') === `/api/v1/watches/${watch.id}`, 'Location', created.response);
  await free(created.response, 'createWatch 201');
  const replay = await send('createWatch', {
    body: json({ kind: 'domain', target: target.toUpperCase() }),
    headers: { 'Idempotency-Key': idempotencyKey },
  });
  expect(
    replay.response.status === 201 &&
      replay.response.text === created.response.text &&
      replay.response.headers.get('idempotent-replayed') === 'true',
    'createWatch: the retry with the Idempotency-Key replays the first answer',
    replay.response,
  );
  const reused = await send('createWatch', {
    body: json({ kind: 'advertiser', target: 'Someone Else' }),
    headers: { 'Idempotency-Key': idempotencyKey },
  });
  record(reused.label, reused.response, 422, 'Idempotency-Key sequence', 'another body', 'idempotency_key_reused');
  const again = await send('createWatch', { body: json({ kind: 'domain', target }) });
  record(again.label, again.response, 200, 'watch sequence', 'the same live watch');
  expect((again.response.body as { id: string }).id === watch.id, 'createWatch: the same watch', again.response);
  const badBodies: [string, string, Record<string, string>?][] = [
    ['{"kind":', 'invalid_body'],
    [json({ kind: 'brand', target }), 'invalid_kind'],
    [json({ kind: 'domain', target: ' ' }), 'missing_domain'],
    [json({ kind: 'domain', target: 'localhost' }), 'invalid_domain'],
    [json({ kind: 'advertiser', target: '\u3000' }), 'missing_name'],
    [json({ kind: 'advertiser', target: 'x'.repeat(513) }), 'invalid_name'],
    [json({ kind: 'domain', target }), 'invalid_idempotency_key', { 'Idempotency-Key': 'two words' }],
  ];
  for (const [body, error, headers] of badBodies) {
    const refused = await send('createWatch', { body, headers });
    record(refused.label, refused.response, 400, 'watch sequence', 'free', error);
    await free(refused.response, `createWatch ${error}`);
  }
  const form = await send('createWatch', {
    body: `kind=domain&target=${target}`,
    headers: { 'content-type': 'text/plain' },
  });
  record(form.label, form.response, 415, 'watch sequence', 'Content-Type: text/plain', 'unsupported_media_type');

  log('Watches: read (200), events (200), delete (204), then 404; bad ids, limits and cursors (400)');
  const path = `/api/v1/watches/${watch.id}`;
  await sql`
    INSERT INTO watch_events (watch_id, advertiser_id, advertiser, landing_domain, first_seen, landing_domain_count)
    VALUES (${watch.id}, 'AR1', 'Contract Run Advertiser', ${target}, '2026-11-20', 2)`;
  const read = await send('getWatch', { path });
  record(read.label, read.response, 200, 'watch sequence', 'a live watch');
  const events = await send('listWatchEvents', { path: `${path}/events` });
  record(events.label, events.response, 200, 'watch sequence', 'one event');
  const list = await send('listWatches', { query: 'limit=1' });
  record(list.label, list.response, 200, 'watch sequence', 'a page of one');
  for (const [operationId, query, error] of [
    ['listWatches', 'limit=0', 'invalid_limit'],
    ['listWatches', 'cursor=made-up', 'invalid_cursor'],
    ['listWatchEvents', 'limit=0', 'invalid_limit'],
    ['listWatchEvents', 'cursor=made-up', 'invalid_cursor'],
  ]) {
    const suffix = operationId === 'listWatchEvents' ? `${path}/events` : undefined;
    const refused = await send(operationId, { query, ...(suffix && { path: suffix }) });
    record(refused.label, refused.response, 400, 'watch sequence', query, error);
  }
  for (const [operationId, bad] of [
    ['getWatch', '/api/v1/watches/not-a-watch'],
    ['deleteWatch', '/api/v1/watches/not-a-watch'],
    ['listWatchEvents', '/api/v1/watches/not-a-watch/events'],
    ['sendWatchTestEvent', '/api/v1/watches/not-a-watch/test'],
  ]) {
    const refused = await send(operationId, { path: bad });
    record(refused.label, refused.response, 400, 'watch sequence', 'malformed id', 'invalid_watch_id');
  }
  log('Watches: a test event (409 without a webhook, 200 at a refused address, 409 past the limit), free');
  const tester = await createAccount(sql);
  const { key: testerKey } = await createApiKey(sql, tester.id);
  const testerWatch = await sendOperation(mainUrl, testerKey, 'createWatch');
  const testPath = `/api/v1/watches/${(testerWatch.response.body as { id: string }).id}/test`;
  const noWebhook = await sendOperation(mainUrl, testerKey, 'sendWatchTestEvent', { path: testPath });
  record(noWebhook.label, noWebhook.response, 409, 'watch sequence', 'no webhook', 'no_webhook');
  // A private address: the service refuses to post there, and says so in a 200.
  await setAlertWebhook(sql, tester.id, 'https://127.0.0.1:9/contract-run', 'whsec_contract_run');
  const tested = await sendOperation(mainUrl, testerKey, 'sendWatchTestEvent', { path: testPath });
  record(tested.label, tested.response, 200, 'watch sequence', 'refused address');
  expect((tested.response.body as { delivered: boolean }).delivered === false, 'not delivered', tested.response);
  // The account's hourly limit of test events (10, shared with the alert test events): the next is 409.
  let limited = tested;
  for (let sent = 1; sent <= 10 && limited.response.status === 200; sent++)
    limited = await sendOperation(mainUrl, testerKey, 'sendWatchTestEvent', { path: testPath });
  record(limited.label, limited.response, 409, 'watch sequence', 'hourly limit', 'test_event_limit_reached');
  const deleted = await send('deleteWatch', { path });
  record(deleted.label, deleted.response, 204, 'watch sequence', 'deleted');
  for (const [operationId, at] of [
    ['getWatch', path],
    ['deleteWatch', path],
    ['listWatchEvents', `${path}/events`],
    ['sendWatchTestEvent', `${path}/test`],
  ] as const) {
    const gone = await send(operationId, { path: at });
    record(gone.label, gone.response, 404, 'watch sequence', 'deleted watch', 'watch_not_found');
    await free(gone.response, `${operationId} 404`);
  }

  log('Method: a method no operation of the path has is 405 with the contract Allow, on every path, free');
  for (const [template, methods] of allowedMethods) {
    const at = template.replace('{id}', watch.id);
    const operation = contractOperations.find((op) => op.path === template)!;
    const refused = await sendOperation(mainUrl, funded.key, operation.operationId, {
      path: at,
      method: 'PATCH',
      body: undefined,
      query: '',
    });
    expect(refused.response.headers.get('allow') === methods.join(', '), `PATCH ${template}: Allow`, refused.response);
    for (const each of contractOperations.filter((op) => op.path === template))
      record(
        `${each.method} ${each.path}`,
        refused.response,
        405,
        'watch sequence',
        `PATCH: Allow ${methods.join(', ')}`,
      );
  }

  log('Watch limit: the second service allows 1 watch per account; one more is 409, free');
  const account = await createAccount(sql);
  const { key } = await createApiKey(sql, account.id);
  const first = await sendOperation(limitedUrl, key, 'createWatch');
  expect(first.response.status === 201, 'the first watch within the limit', first.response);
  const over = await sendOperation(limitedUrl, key, 'createWatch', {
    body: json({ kind: 'advertiser', target: 'Acme' }),
  });
  record(over.label, over.response, 409, 'service with WATCH_LIMIT=1', 'limit 1', 'watch_limit_reached');
  expect((over.response.body as { limit: number }).limit === 1, 'the limit in the body', over.response);
  return records;
}

async function balanceOf(sql: Sql, accountId: number): Promise<number> {
  const [row] = await sql<{ balance: number }[]>`SELECT balance FROM accounts WHERE id = ${accountId}`;
  return row.balance;
}

function expect(condition: boolean, what: string, response: { status: number; body?: unknown }): void {
  if (!condition)
    throw new Error(`watch sequence, ${what}: unexpected answer ${response.status} ${JSON.stringify(response.body)}`);
}
