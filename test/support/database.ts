import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { inject } from 'vitest';
import { connect, type Sql } from '../../src/data/client.ts';
import { withDatabase } from './global-setup.ts';

export interface TestDatabase {
  url: string;
  sql: Sql;
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

/** A new, migrated, empty database cloned from the template built in global setup. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('adminUrl');
  const template = inject('templateDatabase');
  const name = `alk_test_${randomBytes(6).toString('hex')}_${template.split('_').pop()}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(adminUrl, name);
  const sql = connect(url, 10);
  return {
    url,
    sql,
    async drop() {
      await sql.end({ timeout: 5 });
      const dropper = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await dropper.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}
