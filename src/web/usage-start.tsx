import { type ApiKey, keyLabel } from '../accounts/keys.ts';

/**
 * What the overview shows instead of an empty chart (docs/product-rules.md R12.53): what to do
 * first, from creating a key to a first call, with a call ready to paste.
 */
export function UsageStart({
  keys,
  period,
  selectedKey,
  origin,
}: {
  keys: ApiKey[];
  period: number;
  selectedKey: ApiKey | undefined;
  origin: string;
}) {
  const active = keys.filter((key) => key.revokedAt === null);
  const example = `curl -H "Authorization: Bearer YOUR_KEY" "${origin}/api/v1/advertiser?name=Acme%20Outdoor"`;
  if (selectedKey)
    return (
      <div class="empty" data-testid="usage-empty">
        <p class="empty-lead">
          No billed calls with “{keyLabel(selectedKey)}” in the last {period} days.{' '}
          <a href={`/account?days=${period}`}>Show every key</a>
        </p>
      </div>
    );
  return (
    <div class="empty" data-testid="usage-empty">
      <p class="empty-lead">
        <strong>No billed calls in the last {period} days.</strong> Your calls show here per day, as a chart and a
        table, once you make them. To start:
      </p>
      <ol>
        <li>
          {active.length === 0 ? (
            <>
              <a href="/account/keys">Create an API key</a>.
            </>
          ) : (
            <>
              You have {active.length === 1 ? 'a key' : `${active.length} keys`};{' '}
              <a href="/account/keys">make another</a> if you need one.
            </>
          )}{' '}
          Tick <em>Test key</em> to try every operation free, on demo data.
        </li>
        <li>
          Call the API with it, for example:
          <code class="key">{example}</code>
        </li>
        <li>
          Read what each operation answers in the <a href="/docs">API docs</a>. Calls with a live key are billed at the
          prices below; a test key's are free and not counted here.
        </li>
      </ol>
    </div>
  );
}
