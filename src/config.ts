import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** The project root, so the service finds its files whatever the working directory. */
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Who runs the service and how customers reach them. */
export type OperatorSettings = Config['operator'];

/**
 * A local start: the service's own name, an address that says it is local, no terms. Typed by
 * what it holds, as `DEFAULT_HTTP_LIMITS`: an annotation would make the schema's type depend on itself.
 */
export const DEFAULT_OPERATOR = {
  companyName: 'Advertiser Lookup API',
  supportEmail: 'support@localhost.localdomain',
  termsUrl: undefined as string | undefined,
};

export type StripeConfig = NonNullable<Config['stripe']>;

// The credit packs the account page sells (CREDIT_PACKS); payments/, web/ and data/ read their type here.

const packSchema = z.object({
  /** Stable id, used in the form and recorded with each purchase. */
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'an id of lower-case letters, digits and dashes'),
  name: z.string().min(1).max(60),
  credits: z.number().int().min(1).max(1_000_000_000),
  /** The price in the currency's minor units (cents). */
  price: z.number().int().min(50).max(100_000_000),
  /** ISO 4217, lower case, as Stripe takes it. */
  currency: z.string().regex(/^[a-z]{3}$/, 'a three-letter ISO 4217 code in lower case, such as usd'),
});

/** A pack of credits the account page offers for sale (CREDIT_PACKS). */
export type CreditPack = z.output<typeof packSchema>;

/** The CREDIT_PACKS value: a JSON array of packs with distinct ids. */
const creditPacksSchema = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON array of packs' });
      return z.NEVER;
    }
  })
  .pipe(
    z
      .array(packSchema)
      .min(1)
      .max(12)
      .refine((packs) => new Set(packs.map((pack) => pack.id)).size === packs.length, 'pack ids must differ'),
  );

export const DEFAULT_CREDIT_PACKS: CreditPack[] = [
  { id: 'starter', name: 'Starter', credits: 1_000, price: 1_000, currency: 'usd' },
  { id: 'growth', name: 'Growth', credits: 5_000, price: 4_500, currency: 'usd' },
  { id: 'scale', name: 'Scale', credits: 25_000, price: 20_000, currency: 'usd' },
];

/** Bounds the list /readyz shows (openapi.yaml's Readiness); far more than one service needs. */
export const MAX_READ_REPLICAS = 16;

/** Generous: ten calls a second, sustained, for every key; a client within it never sees 429. */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 600;

/** Above a key lookup's usual time on a busy machine, so no 401 answers sooner than another. */
export const DEFAULT_UNAUTHORIZED_FLOOR_MS = 10;

/** The most live watches an account may hold per dataset (docs/product-rules.md R19.10). */
export const DEFAULT_WATCH_LIMIT = 1_000;

/**
 * Watch news posts one process starts per second (src/watches/post-pacer.ts): above the 500
 * delivered a second the product promises (about 730 on 2 cores, with billing and bookkeeping),
 * and low enough that the lookups beside them keep their latency (docs/watches.md, "Benchmark").
 */
export const DEFAULT_WATCH_POSTS_PER_SECOND = 1_000;

/**
 * What one HTTP request may take from the service. The byte limits are generous enough that any
 * parameter up to 10 kB, even fully percent-encoded, reaches the parameter rules and gets their
 * free 400; the timeouts cut off clients that send a request slowly (slowloris) without
 * holding anyone else up.
 */
export type HttpLimits = Config['http'];

export const DEFAULT_HTTP_LIMITS = {
  maxHeaderBytes: 64 * 1024,
  maxUrlBytes: 32 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
};

// The kinds of variable. Each message completes "NAME …, got "value"" (see `loadConfig`).

/** A whole number of at least `min`; `fallback` when unset. */
function integer(min: number, fallback: number, alsoAccepted = '') {
  const error = `must be an integer of at least ${min}${alsoAccepted}`;
  return z.coerce.number<string>({ error }).int({ error }).min(min, { error }).default(fallback);
}

/** `on` or `off` (also true/false, yes/no, 1/0). */
const onOff = (fallback: boolean) => z.stringbool({ error: 'must be on or off' }).default(fallback);

/** A folder; by default one inside the project, whatever the working directory. */
const folder = (...inProject: string[]) => z.string().default(path.join(projectRoot, ...inProject));

/**
 * Every environment variable the service reads: its name, type, default, minimum and meaning.
 * README.md's "Configuration" table is rendered from this (`npx tsx scripts/config-table.ts
 * --write`; test/config.test.ts fails when they differ), so a new variable is one entry here and
 * the line below that names its field in `Config`. An empty variable counts as unset.
 */
export const envSchema = z.object({
  DATABASE_URL: z
    .string()
    .optional()
    .describe(
      'Use this PostgreSQL server; nothing embedded is started. Several servers (`postgres://h1:p1,h2:p2/db`) ' +
        'or `target_session_attrs=read-write`: the service finds the primary among them and follows it ' +
        '(docs/scaling.md). Through pgbouncer in transaction mode add `prepare=false` and set DATABASE_SETUP_URL.',
    ),
  DATABASE_SETUP_URL: z
    .string()
    .optional()
    .describe(
      'Where the migrations and the demo dataset load run at start-up (they hold a session: advisory lock, ' +
        'search_path) when DATABASE_URL is a transaction pooler: the servers themselves. Default: DATABASE_URL.',
    ),
  DATABASE_READ_URL: z
    .string()
    .transform((value) => value.split(',').map((url) => url.trim()))
    .pipe(
      z
        .array(z.url({ protocol: /^postgres(ql)?$/, error: 'must be postgres:// URLs separated by commas' }))
        .max(MAX_READ_REPLICAS, { error: `must name at most ${MAX_READ_REPLICAS} replicas` }),
    )
    .optional()
    .describe(
      'Streaming replicas of the primary, comma-separated: the lookups read from them, in turn; debits, ' +
        'refunds and every write stay on the primary. A replica down or further behind than ' +
        '`READ_MAX_LAG_MS` is skipped and the primary answers; `/readyz` and `/metrics` show each one.',
    ),
  READ_MAX_LAG_MS: integer(1, 1_000).describe(
    'How far behind the primary a replica may be (measured every 250 ms) and still serve lookups.',
  ),
  EMBEDDED_PG_DIR: folder('.data', 'postgres').describe(
    'Data folder of the embedded PostgreSQL. Started as root, the server runs as the user ' +
      '`postgres`; when that user cannot enter the folder holding it (a clone in `/root`), the ' +
      'cluster goes under `/var/lib/advertiser-lookup-api/` instead, and the start says so.',
  ),
  EMBEDDED_PG_PORT: integer(1, 54329).describe('Port of the embedded PostgreSQL (127.0.0.1 only).'),
  PORT: integer(0, 3000).describe('HTTP port of the service (`0`: any free port).'),
  HOST: z.string().default('127.0.0.1').describe('Address to listen on (`0.0.0.0` to expose it).'),
  DB_POOL_SIZE: integer(1, 10).describe('Connections the service keeps to PostgreSQL.'),
  DEMO_DATA: onOff(true).describe('`off`: do not load the synthetic demo dataset into an empty database.'),
  RATE_LIMIT_PER_MINUTE: z
    .preprocess((value) => (value === 'off' ? '0' : value), integer(0, DEFAULT_RATE_LIMIT_PER_MINUTE, ' or off'))
    .describe(
      'Requests one API key may make per minute (429 `rate_limited` ' +
        'beyond); `0` or `off` turns the limit off (benchmarks).',
    ),
  WATCH_LIMIT: integer(0, DEFAULT_WATCH_LIMIT).describe(
    'Live watches one account may hold in each dataset (live, sandbox); one more: `409 watch_limit_reached`.',
  ),
  WATCH_POSTS_PER_SECOND: integer(1, DEFAULT_WATCH_POSTS_PER_SECOND).describe(
    'Watch news webhook posts one process starts per second, so delivery leaves the API its cores.',
  ),
  LOG_LEVEL: z
    .enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'], {
      error: 'must be one of trace, debug, info, warn, error, fatal, silent',
    })
    .default('info')
    .describe('Level of the JSON log on standard output (`info`: a line per request; `warn`: failures only).'),
  READYZ_TIMEOUT_MS: integer(1, 2_000).describe('How long `/readyz` waits for the database before it answers `503`.'),
  HTTP_MAX_HEADER_BYTES: integer(1024, DEFAULT_HTTP_LIMITS.maxHeaderBytes).describe(
    'Request line and headers together; over it: `431 headers_too_large`.',
  ),
  HTTP_MAX_URL_BYTES: integer(256, DEFAULT_HTTP_LIMITS.maxUrlBytes).describe(
    'Path and query; over it: `414 uri_too_long`. Must be below `HTTP_MAX_HEADER_BYTES`.',
  ),
  HTTP_HEADERS_TIMEOUT_MS: integer(100, DEFAULT_HTTP_LIMITS.headersTimeoutMs).describe(
    'Time to send the request line and headers; then `408 ' +
      'request_timeout` and the connection is closed (slow clients).',
  ),
  HTTP_REQUEST_TIMEOUT_MS: integer(100, DEFAULT_HTTP_LIMITS.requestTimeoutMs).describe(
    'Time to send the whole request; then `408`. At least `HTTP_HEADERS_TIMEOUT_MS`.',
  ),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: integer(100, DEFAULT_HTTP_LIMITS.keepAliveTimeoutMs).describe(
    'An idle keep-alive connection is closed after this.',
  ),
  UNAUTHORIZED_MIN_RESPONSE_MS: integer(0, DEFAULT_UNAUTHORIZED_FLOOR_MS).describe(
    'No `401` is answered sooner, so its timing does not tell why the key was refused.',
  ),
  DB_CONNECT_TIMEOUT_MS: integer(1, 2_000).describe(
    'Opening a database connection fails after this long; the call answers `503`.',
  ),
  STATEMENT_TIMEOUT_MS: integer(0, 5_000).describe(
    "PostgreSQL cancels a request's statement after this long; the call answers `503`, refunded (`0`: no limit).",
  ),
  SHUTDOWN_TIMEOUT_MS: integer(0, 10_000).describe('On SIGTERM/SIGINT, how long requests in flight get to finish.'),
  PENDING_REFUNDS_DIR: folder('.data', 'pending-refunds').describe(
    'Where refunds that could not reach the database wait until they are made.',
  ),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL, such as https://api.example.com' })
    .optional()
    .describe(
      'Where customers reach the service: the base of the links in emails; `https://` also makes ' +
        "the account page's cookies `Secure`. Default: the address the service listens on.",
    ),
  SMTP_URL: z
    .url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL, such as smtp://user:password@host:587' })
    .optional()
    .describe("The SMTP server for the account page's emails. Unset: each email is written to the log instead."),
  MAIL_FROM: z
    .string()
    .min(3)
    .default('Advertiser Lookup API <no-reply@localhost>')
    .describe("The sender of the account page's emails."),
  ALERT_WEBHOOK_PRIVATE_ADDRESSES: onOff(false).describe(
    '`on`: low-balance alerts and test events may post to loopback, private and other special addresses ' +
      "(a receiver on your own network), and the alerts page saves such URLs. Off, a customer's URL cannot " +
      "reach the service's host or network: it is refused on save, and posts connect to public addresses only.",
  ),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_[A-Za-z0-9_]+$/, 'must be a Stripe secret or restricted key (sk_… or rk_…)')
    .optional()
    .describe(
      'Sells credit packs on the account page through Stripe Checkout. Unset: the page says ' +
        'purchases go through the operator (`admin credits add`).',
    ),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9_]+$/, 'must be a Stripe webhook signing secret (whsec_…)')
    .optional()
    .describe('Verifies the events Stripe posts to `/webhooks/stripe`; required with `STRIPE_SECRET_KEY`.'),
  STRIPE_API_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .optional()
    .describe("Where the Stripe SDK sends its calls instead of Stripe's API: a stand-in (tests)."),
  CREDIT_PACKS: creditPacksSchema
    .default(DEFAULT_CREDIT_PACKS)
    .describe(
      'The packs the account page sells: a JSON array of `{"id", "name", "credits", "price", "currency"}`, ' +
        'the price in minor units (cents). Default: 1,000, 5,000 and 25,000 credits for $10, $45 and $200.',
    ),
  COMPANY_NAME: z
    .string()
    .min(1)
    .max(100)
    .default(DEFAULT_OPERATOR.companyName)
    .describe('Who runs the service, as the account page, its emails and the contract name them.'),
  SUPPORT_EMAIL: z
    .string()
    .regex(/^[^\s@<>"]+@[^\s@<>"]+$/, { error: 'must be an email address, such as support@yourcompany.com' })
    .default(DEFAULT_OPERATOR.supportEmail)
    .describe(
      "Where customers write for help (account page, emails, the contract's `info.contact`) and, without " +
        'Stripe, to buy credits. The default only suits a local start: set it before customers see the service.',
    ),
  TERMS_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .optional()
    .describe(
      "Your terms of service: linked from the account page and the contract's `info.termsOfService`. Unset: none.",
    ),
});

const configSchema = envSchema
  .superRefine((env, ctx) => {
    if ((env.STRIPE_SECRET_KEY === undefined) !== (env.STRIPE_WEBHOOK_SECRET === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.STRIPE_SECRET_KEY === undefined ? 'STRIPE_SECRET_KEY' : 'STRIPE_WEBHOOK_SECRET'],
        message: 'must be set together with the other (STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET)',
      });
    }
    // Node refuses a headers timeout longer than the request timeout; say which variables to fix.
    if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['HTTP_HEADERS_TIMEOUT_MS'],
        message: `must not be larger than HTTP_REQUEST_TIMEOUT_MS (${env.HTTP_REQUEST_TIMEOUT_MS})`,
      });
    }
    // A URL is part of the request line, so a URL limit at or over the header limit could never answer 414.
    if (env.HTTP_MAX_URL_BYTES >= env.HTTP_MAX_HEADER_BYTES) {
      ctx.addIssue({
        code: 'custom',
        path: ['HTTP_MAX_URL_BYTES'],
        message: `must be smaller than HTTP_MAX_HEADER_BYTES (${env.HTTP_MAX_HEADER_BYTES})`,
      });
    }
  })
  .transform((env) => ({
    /** External PostgreSQL; when absent the embedded server is started. */
    databaseUrl: env.DATABASE_URL,
    /** The servers themselves, for the start-up steps that need a session; absent: databaseUrl. */
    setupUrl: env.DATABASE_SETUP_URL,
    /** Streaming replicas of the primary that lookups read from (none: everything reads the primary). */
    readUrls: env.DATABASE_READ_URL ?? [],
    /** A replica further behind the primary than this is skipped until it catches up. */
    readMaxLagMs: env.READ_MAX_LAG_MS,
    /** Data folder of the embedded server (git-ignored). */
    embeddedDataDir: env.EMBEDDED_PG_DIR,
    embeddedPort: env.EMBEDDED_PG_PORT,
    port: env.PORT,
    host: env.HOST,
    /** Connections the service keeps open to PostgreSQL. */
    poolSize: env.DB_POOL_SIZE,
    /** Load the synthetic demo dataset when the database holds no observations. */
    loadDemoData: env.DEMO_DATA,
    /** Requests one API key may make per minute; 0 turns the rate limit off (benchmarks). */
    rateLimitPerMinute: env.RATE_LIMIT_PER_MINUTE,
    /** The most live watches an account holds per dataset; one more answers 409 watch_limit_reached. */
    watchLimit: env.WATCH_LIMIT,
    /** Watch news posts this process starts per second. */
    watchPostsPerSecond: env.WATCH_POSTS_PER_SECOND,
    /** pino's level of the JSON log. */
    logLevel: env.LOG_LEVEL,
    /** How long /readyz waits for the database before it answers 503. */
    readinessTimeoutMs: env.READYZ_TIMEOUT_MS,
    http: {
      /** Request line and headers together (Node's `maxHeaderSize`); over it: 431 `headers_too_large`. */
      maxHeaderBytes: env.HTTP_MAX_HEADER_BYTES,
      /** The request target (path and query); over it: 414 `uri_too_long`. */
      maxUrlBytes: env.HTTP_MAX_URL_BYTES,
      /** Time to receive the request line and headers, from the connection or the previous request; then 408. */
      headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_MS,
      /** Time to receive the whole request; then 408. */
      requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS,
      /** How long an idle keep-alive connection stays open between requests. */
      keepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    },
    /** Every 401 is answered no sooner than this many milliseconds after the request arrived. */
    unauthorizedFloorMs: env.UNAUTHORIZED_MIN_RESPONSE_MS,
    /** How long opening a database connection may take before the call answers 503. */
    connectTimeoutMs: env.DB_CONNECT_TIMEOUT_MS,
    /** How long one SQL statement may run before PostgreSQL cancels it (the call answers 503); 0: no limit. */
    statementTimeoutMs: env.STATEMENT_TIMEOUT_MS,
    /** On SIGTERM, how long in-flight requests get to finish before their connections are closed. */
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    /** Where refunds that could not reach the database wait, so they survive a restart (git-ignored). */
    pendingRefundsDir: env.PENDING_REFUNDS_DIR,
    /** Where customers reach the service (links in emails, `Secure` cookies); absent: where it listens. */
    publicUrl: env.PUBLIC_URL,
    /** The SMTP server of the account page's emails; absent: they are written to the log. */
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    /** Low-balance alert webhooks may reach loopback and private addresses (receivers on the operator's network). */
    alertWebhookPrivateAddresses: env.ALERT_WEBHOOK_PRIVATE_ADDRESSES,
    /** Credit purchases through Stripe Checkout; null when STRIPE_SECRET_KEY is not set. */
    stripe:
      env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET
        ? {
            secretKey: env.STRIPE_SECRET_KEY,
            webhookSecret: env.STRIPE_WEBHOOK_SECRET,
            /** A stand-in for Stripe's API (tests); absent: Stripe itself. */
            apiUrl: env.STRIPE_API_URL,
          }
        : null,
    creditPacks: env.CREDIT_PACKS,
    /** Who runs the service, as customers see it on the account page, in emails and in the contract's `info`. */
    operator: {
      companyName: env.COMPANY_NAME,
      /** Where customers write for help and to buy credits without Stripe. */
      supportEmail: env.SUPPORT_EMAIL,
      /** The terms of service; absent: none are linked. */
      termsUrl: env.TERMS_URL,
    },
  }));

/** The service's configuration: what `loadConfig` makes of the environment, typed by its schema. */
export type Config = z.output<typeof configSchema>;

/** A configuration the service cannot start with; its message names the variable and says what it must be. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * The configuration from the environment (`process.env` by default); throws a `ConfigError` naming every bad variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const set: Record<string, string> = {};
  for (const name of Object.keys(envSchema.shape)) {
    const value = env[name];
    if (value !== undefined && value !== '') set[name] = value;
  }
  const result = configSchema.safeParse(set);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = String(issue.path[0] ?? 'configuration');
    const shape = envSchema.shape as Record<string, z.ZodType>;
    const got =
      name in set
        ? `got ${JSON.stringify(withoutPassword(set[name]))}`
        : name in shape
          ? `its default is ${String(shape[name].parse(undefined))}`
          : '';
    return got ? `${name} ${issue.message}, ${got}` : `${name} ${issue.message}`;
  });
  // Two bad entries of one list would say the same twice.
  throw new ConfigError([...new Set(problems)].join('; '));
}

/** A URL's password never goes into a message (SMTP_URL, DATABASE_READ_URL may carry one, or a list of them). */
function withoutPassword(value: string): string {
  return value.split(',').map(oneWithoutPassword).join(',');
}

function oneWithoutPassword(value: string): string {
  try {
    const url = new URL(value);
    if (url.password === '') return value;
    url.password = '***';
    return url.toString();
  } catch {
    return value;
  }
}

/** README.md's "Configuration" table, rendered from `envSchema`. */
export function renderConfigTable(): string {
  const rows = Object.entries(envSchema.shape).map(([name, schema]) => {
    if (!schema.description) throw new Error(`${name} has no description in envSchema`);
    return `| \`${name}\` | ${renderDefault(schema.parse(undefined))} | ${schema.description.replaceAll('|', '\\|')} |`;
  });
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}

function renderDefault(value: unknown): string {
  if (value === undefined) return 'unset';
  if (typeof value === 'boolean') return value ? '`on`' : '`off`';
  // A list (the credit packs) is described in its text; its default is too long for the column.
  if (Array.isArray(value)) return 'see meaning';
  if (typeof value === 'string' && path.isAbsolute(value) && value.startsWith(projectRoot + path.sep)) {
    return `\`${path.relative(projectRoot, value).split(path.sep).join('/')}\``;
  }
  return `\`${String(value)}\``;
}
