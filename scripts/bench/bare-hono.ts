import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { FLOOR_PATH } from './floor-path.ts';

/**
 * The bare Hono cell: @hono/node-server with one route and no middleware, answering the
 * framework floor's path with the same JSON, so the floor's cost over the framework itself is
 * measured in the same run (docs/benchmarks.md). Prints its URL as one JSON line; SIGTERM stops it.
 *
 * With BENCH_BARE_WORK_US=n it first keeps the CPU busy for n µs per answer: the calibration
 * beside the floor target, which shows what a few µs of work per answer do to its throughput.
 */
const workMs = Number(process.env.BENCH_BARE_WORK_US ?? 0) / 1000;
const app = new Hono();
app.get(FLOOR_PATH, (c) => {
  if (workMs > 0) {
    const until = performance.now() + workMs;
    while (performance.now() < until);
  }
  return c.json({ floor: true }, 200);
});
const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) =>
  console.log(JSON.stringify({ url: `http://127.0.0.1:${info.port}` })),
);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
