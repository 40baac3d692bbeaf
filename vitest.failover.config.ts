import { defineConfig } from 'vitest/config';

/**
 * `npm run test:failover` (and `npm run bench:failover`, 10 rounds): test/failover/ alone. It builds
 * its own pg_auto_failover formation (scripts/ha-cluster.ts), so it needs no global set-up.
 */
export default defineConfig({
  test: {
    include: ['test/failover/**/*.test.ts'],
    testTimeout: 240_000,
    hookTimeout: 300_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
