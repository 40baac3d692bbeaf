import { getReadyzRoute as route } from '../../generated/routes.ts';
import type { App, RouteDependencies } from '../app.ts';
import { missingMigrationsWithin } from '../db/readiness.ts';
import { shippedMigrations } from '../db/migrate.ts';
import { unavailable } from '../errors.ts';

/**
 * Readiness: the database answers within the deadline and has every migration this version
 * ships. Anything else is the documented 503 `unavailable` (with Retry-After), never a 500 or a
 * hang; the request log line says why.
 */
export function registerReadyz(app: App, { sql, readinessTimeoutMs }: RouteDependencies) {
  const shipped = shippedMigrations();
  app.openapi(route, async (c) => {
    let missing: string[];
    try {
      missing = await missingMigrationsWithin(sql, shipped, readinessTimeoutMs);
    } catch (error) {
      throw unavailable(error);
    }
    if (missing.length > 0) throw unavailable(new Error(`the database lacks the migrations ${missing.join(', ')}`));
    return c.json({ status: 'ready' as const }, 200);
  });
}
