import { defineConfig } from 'vitest/config';
import { TEST_TAGS, type TestSet, testFiles } from './test/support/test-sets.ts';

/**
 * `npm test` runs every file. `TEST_SET=database` (`npm run test:database`) and `TEST_SET=runtime`
 * (`npm run test:runtime`) run the part of the suite that can differ on another database server or
 * another Node, chosen by each file's `@module-tag` (test/support/test-sets.ts).
 */
const set = process.env.TEST_SET as TestSet | undefined;
if (set !== undefined && set !== 'database' && set !== 'runtime')
  throw new Error(`TEST_SET must be database or runtime, not ${JSON.stringify(set)}`);

export default defineConfig({
  test: {
    include: set ? testFiles(set) : ['test/**/*.test.ts'],
    // Its own run (npm run test:failover): it builds a pg_auto_failover formation and takes minutes.
    exclude: ['test/failover/**', 'node_modules/**'],
    tags: [...TEST_TAGS],
    globalSetup: ['test/support/global-setup.ts'],
    // A test that starts several real processes (the command lines, the service) takes 30 s and more
    // beside a CPU-bound process, as CI's stress runs have it; a hung test still fails within a minute.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most files wait more than they compute (on PostgreSQL, a service process, a browser): three
    // at a time keep both cores of the CI machine busy, where vitest's default (cores − 1) ran one.
    maxWorkers: 3,
    // A page that comes after an argon2 hash or a browser navigation may take seconds on a loaded
    // 2-core machine; polls wait for it instead of failing after the default second.
    expect: { poll: { timeout: 10_000 } },
  },
});
