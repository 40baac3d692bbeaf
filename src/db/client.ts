import postgres from 'postgres';

export type Sql = postgres.Sql<{}>;

/**
 * One pool per process. `bigint` (ids, balances, `count(*)`) is parsed to a JS number: every
 * value this service counts stays far below 2^53.
 */
export function connect(url: string, max = 10): Sql {
  return postgres(url, {
    max,
    onnotice: () => {},
    types: {
      bigint: {
        to: 20,
        from: [20],
        serialize: (value: number) => String(value),
        parse: (value: string) => Number(value),
      },
    },
    connection: { application_name: 'advertiser-lookup-api' },
  });
}
