import { getHealthzRoute as route } from '../../generated/routes.ts';
import type { App } from '../app.ts';

/** Liveness: answering at all is the proof; the database is /readyz's business. */
export function registerHealthz(app: App) {
  app.openapi(route, (c) => c.json({ status: 'ok' as const }, 200));
}
