import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Its own run (npm run test:failover): it builds a pg_auto_failover formation and takes minutes.
    exclude: ['test/failover/**', 'node_modules/**'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A page that comes after an argon2 hash or a browser navigation may take seconds on a loaded
    // 2-core machine; polls wait for it instead of failing after the default second.
    expect: { poll: { timeout: 10_000 } },
  },
});
