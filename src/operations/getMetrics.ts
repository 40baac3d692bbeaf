import { getMetricsRoute as route } from '../../generated/routes.ts';
import type { App } from '../http/app-env.ts';
import { type OperationDependencies, registerOperation } from './operation.ts';

/** The Prometheus scrape target (src/observability/metrics.ts says what is measured). */
export function registerGetMetrics(app: App, { metrics }: Pick<OperationDependencies, 'metrics'>) {
  registerOperation(app, route, async (c) =>
    c.text(await metrics.render(), 200, { 'Content-Type': metrics.contentType }),
  );
}
