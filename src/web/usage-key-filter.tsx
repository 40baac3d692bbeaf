import type { ApiKey } from '../accounts/keys.ts';

/** The overview's key selector (docs/product-rules.md R12.53): a GET form, so it works without JavaScript. */
export function UsageKeyFilter({
  keys,
  period,
  selected,
}: {
  keys: ApiKey[];
  period: number;
  selected: ApiKey | undefined;
}) {
  if (keys.length === 0) return null;
  return (
    <form method="get" action="/account" class="filters" aria-label="Usage of one key">
      <input type="hidden" name="days" value={String(period)} />
      <div class="field">
        <label for="usage-key">Key</label>
        <select id="usage-key" name="key">
          <option value="">All keys</option>
          {keys.map((key) => (
            <option value={String(key.id)} selected={selected?.id === key.id}>
              {key.name ? `${key.name} (${key.displayPrefix}…)` : `${key.displayPrefix}…`}
              {key.revokedAt ? ', revoked' : ''}
            </option>
          ))}
        </select>
      </div>
      <div class="field filter-actions">
        <button type="submit" class="secondary">
          Show
        </button>
      </div>
    </form>
  );
}
