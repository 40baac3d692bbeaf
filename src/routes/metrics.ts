import { getMetricsRoute as route } from '../../generated/routes.ts';
import type { App, RouteDependencies } from '../app.ts';

/** The Prometheus scrape target (metrics.ts says what is measured). */
export function registerMetrics(app: App, { metrics }: RouteDependencies) {
  app.openapi(route, async (c) => c.text(await metrics.render(), 200, { 'Content-Type': metrics.contentType }));
}
