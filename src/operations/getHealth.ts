import { getHealthRoute as route } from '../../generated/routes.ts';
import type { App } from '../http/app-env.ts';
import { registerOperation } from './operation.ts';

/** Liveness: answering at all is the proof; the database is /readyz's business. */
export function registerGetHealth(app: App) {
  registerOperation(app, route, (c) => c.json({ status: 'ok' as const }, 200));
}
