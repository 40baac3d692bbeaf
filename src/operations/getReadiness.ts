import { getReadinessRoute as route } from '../../generated/routes.ts';
import { unavailable } from '../contract/errors.ts';
import { shippedMigrations } from '../data/migrate.ts';
import { missingMigrationsWithin } from '../data/readiness.ts';
import type { App } from '../http/app-env.ts';
import { type OperationDependencies, registerOperation } from './operation.ts';

/**
 * Readiness: the database answers within the deadline and has every migration this version
 * ships. Anything else is the documented 503 `unavailable` (with Retry-After), never a 500 or a
 * hang; the request log line says why. With read replicas the answer lists each database as its
 * last check found it; a replica never makes the instance unready, since the primary answers
 * the lookups it cannot.
 */
export function registerGetReadiness(
  app: App,
  { sql, reads, readinessTimeoutMs }: Pick<OperationDependencies, 'sql' | 'reads' | 'readinessTimeoutMs'>,
) {
  const shipped = shippedMigrations();
  registerOperation(app, route, async (c) => {
    let missing: string[];
    try {
      missing = await missingMigrationsWithin(sql, shipped, readinessTimeoutMs);
    } catch (error) {
      throw unavailable(error);
    }
    if (missing.length > 0) throw unavailable(new Error(`the database lacks the migrations ${missing.join(', ')}`));
    if (!reads.configured) return c.json({ status: 'ready' as const }, 200);
    const databases = [
      { database: reads.primaryName, role: 'primary' as const, state: 'up' as const, lag_ms: 0 },
      ...reads
        .status()
        .map(({ database, state, lagMs }) => ({ database, role: 'replica' as const, state, lag_ms: lagMs })),
    ];
    return c.json({ status: 'ready' as const, databases }, 200);
  });
}
