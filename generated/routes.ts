// Generated from openapi.yaml by `npm run generate`. Do not edit.
import { createRoute, z } from '@hono/zod-openapi'

const DomainWatchRequestSchema = z
  .strictObject({
    kind: z
      .literal('domain')
      .openapi({
        description:
          'Hear of every advertiser identifier that sends ads to the domain for the first time.',
      }),
    target: z
      .string()
      .regex(
        /^(?:[A-Za-z0-9]{1,21}(?:-[A-Za-z0-9]{1,20}){0,2}\.){1,3}(?:com|net|org|info|biz|de|eu|nl|ch|co\.uk|org\.uk|com\.au)$/,
      )
      .min(4)
      .max(253)
      .openapi({
        description:
          'A root domain, host name or URL, normalized exactly like the `domain` parameter of the\nlookups (the watch keeps the root domain). As for that parameter, the pattern states a\nsimple part of what is accepted: URLs, every public suffix and internationalized names\nare accepted too, up to 2,048 characters.\n',
      }),
  })
  .openapi({ required: ['kind', 'target'] })
  .openapi('DomainWatchRequest')

const AdvertiserWatchRequestSchema = z
  .strictObject({
    kind: z
      .literal('advertiser')
      .openapi({ description: 'Hear of every landing domain the advertiser starts to use.' }),
    target: z
      .string()
      .regex(
        /^[^\u0000]*[^\u0000\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff][^\u0000]*$/,
      )
      .min(1)
      .max(512)
      .openapi({
        description:
          'The advertiser name, exact and case-sensitive, byte for byte as the lookups take it.',
      }),
  })
  .openapi({ required: ['kind', 'target'] })
  .openapi('AdvertiserWatchRequest')

type WatchRequestType =
  | z.infer<typeof DomainWatchRequestSchema>
  | z.infer<typeof AdvertiserWatchRequestSchema>

const HealthSchema = z
  .strictObject({
    status: z
      .literal('ok')
      .openapi({ description: 'Always `ok`; the answer itself is the signal.' }),
  })
  .openapi({ required: ['status'] })
  .openapi('Health')

const DatabaseStateSchema = z
  .strictObject({
    database: z
      .string()
      .regex(/^[^@\s]+$/)
      .max(1024)
      .openapi({
        description: 'The database as `host:port/dbname`, never with its credentials.',
        example: 'db-replica-1.internal:5432/alk',
      }),
    role: z
      .enum(['primary', 'replica'])
      .openapi({
        description:
          '`primary`: debits, refunds and every write go here; `replica`: a streaming replica the lookups read from.',
      }),
    state: z
      .enum(['up', 'lagging', 'down'])
      .openapi({
        description:
          '`up`: serves (the primary always, since the instance is ready); `lagging`: a replica further behind the primary than `READ_MAX_LAG_MS` (1 second by default), skipped until it catches up; `down`: a replica that did not answer its last check (every 250 ms), skipped.',
      }),
    lag_ms: z
      .int()
      .min(0)
      .max(9007199254740991)
      .nullable()
      .openapi({
        description:
          "How far the replica's replay is behind the primary, in milliseconds, measured every 250 ms; `0` for the primary; `null` for a replica that is down.",
      }),
  })
  .openapi({ required: ['database', 'role', 'state', 'lag_ms'] })
  .openapi('DatabaseState')

const ReadinessSchema = z
  .strictObject({
    status: z
      .literal('ready')
      .openapi({ description: 'Always `ready`; an instance that is not ready answers `503`.' }),
    databases: z
      .array(DatabaseStateSchema)
      .min(2)
      .max(17)
      .exactOptional()
      .openapi({
        description:
          'Only with read replicas (`DATABASE_READ_URL`, at most 16); the primary, then each replica in the order configured.',
      }),
  })
  .openapi({ required: ['status'] })
  .openapi('Readiness')

const AdvertiserNameSchema = z
  .string()
  .regex(/[^\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/)
  .min(1)
  .max(512)
  .openapi({
    description:
      'An advertiser name, byte for byte as observed; at most 512 code points and never only white space.',
    example: 'Acme Outdoor GmbH',
  })
  .openapi('AdvertiserName')

const RootDomainSchema = z
  .string()
  .regex(/^[a-z0-9_-]{1,63}(\.[a-z0-9_-]{1,63})+$/)
  .min(3)
  .max(253)
  .openapi({
    description:
      'A registrable root domain in lower-case ASCII (internationalized labels in `xn--` form).',
    example: 'acme-outdoor.com',
  })
  .openapi('RootDomain')

const AdvertiserIdSchema = z
  .string()
  .regex(/^AR[0-9]{1,30}$/)
  .max(32)
  .openapi({
    description: 'An advertiser identifier, `AR` followed by digits.',
    example: 'AR01234567890123456789',
  })
  .openapi('AdvertiserId')

const DateSchema = z.iso
  .date()
  .regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/)
  .max(10)
  .openapi({ description: 'A UTC calendar date, `YYYY-MM-DD`.', example: '2026-11-20' })
  .openapi('Date')

const CountSchema = z
  .int()
  .min(0)
  .max(9007199254740991)
  .openapi({ description: 'An exact, distinct count.' })
  .openapi('Count')

const PositiveCountSchema = z
  .int()
  .min(1)
  .max(9007199254740991)
  .openapi({ description: 'An exact, distinct count of at least one.' })
  .openapi('PositiveCount')

const CreditsSchema = z
  .int()
  .min(0)
  .max(9007199254740991)
  .openapi({
    description:
      'A number of credits. Credits are whole numbers that JSON and JavaScript represent exactly (at most 2^53 − 1).',
  })
  .openapi('Credits')

const CreditsChargedSchema = CreditsSchema.openapi({
  description: "Credits deducted by this call (the operation's `x-credit-cost`).",
}).openapi('CreditsCharged')

const CreditsRemainingSchema = CreditsSchema.openapi({
  description: "The account's balance after the deduction.",
}).openapi('CreditsRemaining')

const MessageSchema = z
  .string()
  .regex(/[^\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/)
  .min(1)
  .max(4096)
  .openapi({ description: 'A sentence for people. Its wording may change; programs read `error`.' })
  .openapi('Message')

const AdvertiserTypeSchema = z
  .enum(['agency', 'direct'])
  .openapi({ description: 'A manual label of an advertiser.' })
  .openapi('AdvertiserType')

const AdvertiserSummarySchema = z
  .strictObject({
    advertiser: AdvertiserNameSchema.openapi({ description: 'The advertiser name, as requested.' }),
    advertiser_ids: z
      .array(AdvertiserIdSchema)
      .min(1)
      .openapi({
        description:
          'Every identifier whose current name is this name, ascending by code point. Not capped.',
      }),
    creatives: CountSchema.openapi({
      description: "Distinct creatives over all the advertiser's identifiers.",
    }),
    landing_domains: CountSchema.openapi({
      description: "Distinct landing domains over all the advertiser's identifiers.",
    }),
    last_seen: DateSchema.openapi({
      description: "The latest date any of the advertiser's identifiers was seen.",
    }),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .max(2)
      .openapi({
        description:
          'ISO 3166-1 alpha-2 country of the identifier with the most creatives (ties: latest `last_seen`, then smallest identifier).',
      }),
    advertiser_type: z
      .union([AdvertiserTypeSchema, z.null().nullable()])
      .openapi({
        description:
          'A manual label. `null` means nobody has classified the advertiser yet; it does not mean the advertiser is not an agency.',
      }),
    credits_charged: CreditsChargedSchema,
    credits_remaining: CreditsRemainingSchema,
  })
  .openapi({
    required: [
      'advertiser',
      'advertiser_ids',
      'creatives',
      'landing_domains',
      'last_seen',
      'country',
      'advertiser_type',
      'credits_charged',
      'credits_remaining',
    ],
  })
  .openapi('AdvertiserSummary')

const ProfileSchema = z
  .enum(['single_domain', 'few_domains', 'multi_domain_intermediary'])
  .openapi({
    description:
      '`single_domain` for 1 landing domain, `few_domains` for 2 to 4, `multi_domain_intermediary` for 5 or more. A descriptive signal, not a verdict.',
    'x-minimum-landing-domains': { single_domain: 1, few_domains: 2, multi_domain_intermediary: 5 },
  })
  .openapi('Profile')

const DomainSummarySchema = z
  .strictObject({
    domain: RootDomainSchema.openapi({ description: 'The normalized root domain.' }),
    advertisers: CountSchema.openapi({
      description: 'Distinct advertiser identifiers with an observation landing on the domain.',
    }),
    last_crawled: z
      .string()
      .regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$/)
      .max(19)
      .nullable()
      .openapi({
        description: 'The latest crawl, `YYYY-MM-DD HH:MM:SS` in UTC; `null` when never crawled.',
      }),
    has_data: z
      .boolean()
      .openapi({ description: 'True when at least one observation lands on the domain.' }),
    credits_charged: CreditsChargedSchema,
    credits_remaining: CreditsRemainingSchema,
  })
  .openapi({
    required: [
      'domain',
      'advertisers',
      'last_crawled',
      'has_data',
      'credits_charged',
      'credits_remaining',
    ],
  })
  .openapi('DomainSummary')

const HistoryMonthSchema = z
  .strictObject({
    month: z
      .string()
      .regex(/^[0-9]{4}-[0-9]{2}$/)
      .max(7)
      .openapi({ description: 'The calendar month, `YYYY-MM`.' }),
    creatives: CountSchema.openapi({
      description: 'Distinct creatives observed in the month, over all identifiers of the name.',
    }),
    domains: CountSchema.openapi({
      description:
        'Distinct landing domains observed in the month, over all identifiers of the name.',
    }),
  })
  .openapi({ required: ['month', 'creatives', 'domains'] })
  .openapi('HistoryMonth')

const AdvertiserHistorySchema = z
  .strictObject({
    advertiser: AdvertiserNameSchema.openapi({ description: 'The advertiser name, as requested.' }),
    window_start: DateSchema.openapi({ description: 'The first day of the first month returned.' }),
    months: z
      .array(HistoryMonthSchema)
      .min(1)
      .max(36)
      .openapi({
        description:
          'One entry per calendar month from `window_start` to the current month (UTC), oldest first; at most 36.',
      }),
    credits_charged: CreditsChargedSchema,
    credits_remaining: CreditsRemainingSchema,
  })
  .openapi({
    required: ['advertiser', 'window_start', 'months', 'credits_charged', 'credits_remaining'],
  })
  .openapi('AdvertiserHistory')

const LandingDomainSchema = z
  .strictObject({
    domain: RootDomainSchema.openapi({ description: 'The landing root domain.' }),
    creatives: PositiveCountSchema.openapi({
      description: 'Distinct creatives of the advertiser landing on this domain.',
    }),
    last_seen: DateSchema.openapi({
      description: 'The latest date an ad of the advertiser was seen landing here.',
    }),
  })
  .openapi({ required: ['domain', 'creatives', 'last_seen'] })
  .openapi('LandingDomain')

const AdvertiserLandingDomainsSchema = z
  .strictObject({
    advertiser: AdvertiserNameSchema.openapi({ description: 'The advertiser name, as requested.' }),
    landing_domain_count: PositiveCountSchema.openapi({
      description: 'The full number of landing domains, not limited by the cap of 500.',
    }),
    landing_domains: z
      .array(LandingDomainSchema)
      .max(500)
      .openapi({
        description:
          'At most 500 entries, by `creatives` descending, then `last_seen` descending, then `domain` ascending.',
      }),
    truncated: z
      .boolean()
      .openapi({
        description:
          'True when the list was cut at 500, so it holds fewer entries than `landing_domain_count`.',
      }),
    credits_charged: CreditsChargedSchema,
    credits_remaining: CreditsRemainingSchema,
  })
  .openapi({
    required: [
      'advertiser',
      'landing_domain_count',
      'landing_domains',
      'truncated',
      'credits_charged',
      'credits_remaining',
    ],
  })
  .openapi('AdvertiserLandingDomains')

const BrandBidAdvertiserSchema = z
  .strictObject({
    advertiser: AdvertiserNameSchema.openapi({ description: "The identifier's current name." }),
    advertiser_id: AdvertiserIdSchema,
    creatives: PositiveCountSchema.openapi({
      description: "The identifier's distinct creatives landing on this domain.",
    }),
    first_seen: DateSchema.openapi({
      description: 'The earliest date the identifier was seen landing on this domain.',
    }),
    last_seen: DateSchema.openapi({
      description: 'The latest date the identifier was seen landing on this domain.',
    }),
    landing_domain_count: PositiveCountSchema.openapi({
      description: 'Distinct landing domains of the identifier over all its observations.',
    }),
    profile: ProfileSchema,
  })
  .openapi({
    required: [
      'advertiser',
      'advertiser_id',
      'creatives',
      'first_seen',
      'last_seen',
      'landing_domain_count',
      'profile',
    ],
  })
  .openapi('BrandBidAdvertiser')

const BrandBidReportSchema = z
  .strictObject({
    domain: RootDomainSchema.openapi({ description: 'The normalized root domain queried.' }),
    advertiser_count: CountSchema.openapi({
      description:
        "All identifiers landing on the domain, not capped at 100; equals the domain summary's `advertisers`.",
    }),
    advertisers: z
      .array(BrandBidAdvertiserSchema)
      .max(100)
      .openapi({
        description:
          'At most 100 rows, by `creatives` descending, then `last_seen` descending, then `advertiser_id` ascending.',
      }),
    credits_charged: CreditsChargedSchema,
    credits_remaining: CreditsRemainingSchema,
  })
  .openapi({
    required: ['domain', 'advertiser_count', 'advertisers', 'credits_charged', 'credits_remaining'],
  })
  .openapi('BrandBidReport')

const AdvertiserMatchSchema = z
  .strictObject({
    advertiser: AdvertiserNameSchema.openapi({
      description: 'The name, exactly as the other advertiser endpoints take it in `name`.',
    }),
    match: z
      .enum(['exact', 'case_insensitive', 'prefix', 'similar'])
      .openapi({
        description:
          "How the name matched `q`, the best way it did: `exact` byte for byte; `case_insensitive`\nequal in folded form (case, accents, compatibility forms, in every script);\n`prefix` its folded form starts with `q`'s; `similar` by a shared or nearly shared\nword, or characters of a script without spaces, at least 0.3 similar (see\n`searchAdvertisers`).\n",
      }),
    advertiser_ids: z
      .array(AdvertiserIdSchema)
      .min(1)
      .openapi({
        description: 'Every identifier whose current name is this name, ascending by code point.',
      }),
    creatives: CountSchema.openapi({
      description:
        "Distinct creatives over all the advertiser's identifiers, as in the advertiser summary.",
    }),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .max(2)
      .openapi({ description: "The advertiser summary's `country`." }),
    last_seen: DateSchema.openapi({
      description: "The latest date any of the advertiser's identifiers was seen.",
    }),
  })
  .openapi({
    required: ['advertiser', 'match', 'advertiser_ids', 'creatives', 'country', 'last_seen'],
  })
  .openapi('AdvertiserMatch')

const AdvertiserSearchSchema = z
  .strictObject({
    q: z
      .string()
      .regex(/[^\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/)
      .min(2)
      .max(200)
      .openapi({ description: 'The search, as given.' }),
    advertisers: z
      .array(AdvertiserMatchSchema)
      .max(20)
      .openapi({
        description: 'The matching advertiser names, best first (see the operation); at most 20.',
      }),
    truncated: z.boolean().openapi({ description: 'More names matched than `advertisers` holds.' }),
    credits_charged: CreditsChargedSchema,
    credits_remaining: CreditsRemainingSchema,
  })
  .openapi({ required: ['q', 'advertisers', 'truncated', 'credits_charged', 'credits_remaining'] })
  .openapi('AdvertiserSearch')

const KeyPrefixSchema = z
  .string()
  .regex(/^alk_(?:test_)?[0-9A-Za-z]{8}$/)
  .max(17)
  .openapi({
    description:
      'The display prefix of an API key, `alk_` (`alk_test_` for a test key) and 8 more characters; what the account page shows.',
    example: 'alk_7Hq2Xv0p',
  })
  .openapi('KeyPrefix')

const AccountSchema = z
  .strictObject({
    key_prefix: KeyPrefixSchema.openapi({
      description: 'The display prefix of the key that made this call.',
    }),
    balance: CreditsSchema.openapi({
      description: "The account's balance in credits, shared by all its keys.",
    }),
  })
  .openapi({ required: ['key_prefix', 'balance'] })
  .openapi('Account')

const UsageCountsSchema = z
  .object({
    calls: CountSchema.openapi({ description: 'Billed calls, refunded ones included.' }),
    refunded_calls: CountSchema.openapi({
      description: 'Of those, calls the service failed and refunded.',
    }),
    credits: CreditsSchema.openapi({
      description: 'Credits the calls cost, their refunds deducted.',
    }),
  })
  .openapi({ required: ['calls', 'refunded_calls', 'credits'] })
  .openapi('UsageCounts')

const OperationIdSchema = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9-]{0,63}$/)
  .max(64)
  .openapi({
    description: 'The operationId of an operation of this contract.',
    example: 'getAdvertiserSummary',
  })
  .openapi('OperationId')

const AccountUsageSchema = z
  .strictObject({
    from: DateSchema,
    to: DateSchema,
    total: UsageCountsSchema,
    days: z
      .array(
        z
          .strictObject({
            day: DateSchema,
            calls: CountSchema,
            refunded_calls: CountSchema,
            credits: CreditsSchema,
            operations: z
              .array(
                z
                  .object({
                    operation: OperationIdSchema,
                    mcp_calls: CountSchema.openapi({
                      description:
                        'Of the calls, those made as tool calls of the MCP endpoint (`/mcp`); the rest came over HTTP.',
                    }),
                  })
                  .openapi({ required: ['operation', 'mcp_calls'] })
                  .and(UsageCountsSchema),
              )
              .max(64)
              .openapi({ description: 'The operations called that day, in operationId order.' }),
          })
          .openapi({ required: ['day', 'calls', 'refunded_calls', 'credits', 'operations'] }),
      )
      .max(366)
      .openapi({
        description: 'Every day of the range, oldest first, days without calls included.',
      }),
    daily_caps: z
      .array(
        z
          .strictObject({
            key_prefix: KeyPrefixSchema,
            name: z
              .string()
              .regex(/\S/)
              .min(1)
              .max(100)
              .nullable()
              .openapi({
                description:
                  'The name its holder gave the key (trimmed); null for a key made by the operator.',
              }),
            daily_cap: CreditsSchema.openapi({
              description: 'The most credits the key may spend per UTC day, refunds deducted.',
            }),
            spent_today: CreditsSchema.openapi({
              description: 'What it spent today (UTC), refunds deducted.',
            }),
          })
          .openapi({ required: ['key_prefix', 'name', 'daily_cap', 'spent_today'] }),
      )
      .max(10000)
      .openapi({
        description:
          "The account's active keys that have a daily cap, newest first; empty when none has.",
      }),
  })
  .openapi({ required: ['from', 'to', 'total', 'days', 'daily_caps'] })
  .openapi('AccountUsage')

const LedgerEntrySchema = z
  .strictObject({
    id: z
      .int()
      .min(1)
      .max(9007199254740991)
      .openapi({ description: "The entry's id; later entries have larger ids." }),
    kind: z
      .enum(['grant', 'purchase', 'charge', 'refund', 'reversal'])
      .openapi({
        description:
          '`grant`: the free credits of the first key; `purchase`: credits bought; `charge`: a billed call; `refund`: a charge given back; `reversal`: credits of a purchase taken back after its payment was refunded or disputed (as far as the balance allowed).',
      }),
    amount: z
      .int()
      .min(-9007199254740991)
      .max(9007199254740991)
      .openapi({ description: 'Credits added (positive) or taken (negative).' }),
    balance_after: CreditsSchema,
    key_prefix: z
      .union([KeyPrefixSchema, z.null().nullable()])
      .openapi({
        description:
          'The display prefix of the key of a charge, refund or grant; `null` for a purchase.',
      }),
    operation: z
      .union([OperationIdSchema, z.null().nullable()])
      .openapi({
        description:
          "The operationId of a charge or refund; `watchNews` for a brand watch delivery's (the webhook of that name).",
      }),
    request_id: z
      .string()
      .regex(/^[A-Za-z0-9._-]{8,128}$/)
      .max(128)
      .nullable()
      .openapi({
        description:
          "The `X-Request-Id` of the call charged or refunded (yours, or the one the service gave it); for a reversal, the payment provider's event.",
      }),
    payment_reference: z
      .string()
      .regex(/\S/)
      .max(1024)
      .nullable()
      .openapi({ description: 'The payment of a purchase.' }),
    refund_of: z
      .int()
      .min(1)
      .max(9007199254740991)
      .nullable()
      .openapi({ description: 'The id of the charge a refund gives back.' }),
    channel: z
      .union([z.enum(['http', 'mcp']), z.null().nullable()])
      .openapi({
        description:
          'How the call of a charge or refund came, `http` (a request to this API) or `mcp` (a tool call of the MCP endpoint, `/mcp`); `null` for other entries.',
      }),
    created_at: z.iso.datetime().max(30).openapi({ description: 'When the entry was made (UTC).' }),
  })
  .openapi({
    required: [
      'id',
      'kind',
      'amount',
      'balance_after',
      'key_prefix',
      'operation',
      'request_id',
      'payment_reference',
      'refund_of',
      'channel',
      'created_at',
    ],
  })
  .openapi('LedgerEntry')

const AccountLedgerSchema = z
  .strictObject({
    entries: z.array(LedgerEntrySchema).max(200),
    next_cursor: z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/)
      .max(32)
      .nullable()
      .openapi({
        description: 'Pass it as `cursor` for the next, older page; `null` on the last page.',
      }),
  })
  .openapi({ required: ['entries', 'next_cursor'] })
  .openapi('AccountLedger')

const UsageParameterErrorSchema = z
  .strictObject({
    error: z.enum(['invalid_from', 'invalid_to', 'invalid_range']),
    message: MessageSchema,
  })
  .openapi({ required: ['error', 'message'] })
  .openapi('UsageParameterError')

const LedgerParameterErrorSchema = z
  .strictObject({ error: z.enum(['invalid_limit', 'invalid_cursor']), message: MessageSchema })
  .openapi({ required: ['error', 'message'] })
  .openapi('LedgerParameterError')

const NameParameterErrorSchema = z
  .strictObject({
    error: z.enum(['missing_name', 'invalid_name', 'invalid_idempotency_key']),
    message: MessageSchema,
  })
  .openapi({ required: ['error', 'message'] })
  .openapi('NameParameterError')

const SearchParameterErrorSchema = z
  .strictObject({
    error: z.enum(['missing_q', 'invalid_q', 'invalid_idempotency_key']),
    message: MessageSchema,
  })
  .openapi({ required: ['error', 'message'] })
  .openapi('SearchParameterError')

const DomainParameterErrorSchema = z
  .strictObject({
    error: z.enum(['missing_domain', 'invalid_domain', 'invalid_idempotency_key']),
    message: MessageSchema,
  })
  .openapi({ required: ['error', 'message'] })
  .openapi('DomainParameterError')

const UnauthorizedErrorSchema = z
  .strictObject({ error: z.literal('unauthorized'), message: MessageSchema })
  .openapi({ required: ['error', 'message'] })
  .openapi('UnauthorizedError')

const InsufficientCreditsErrorSchema = z
  .strictObject({
    error: z.literal('insufficient_credits'),
    message: MessageSchema,
    required: CreditsSchema.openapi({ description: 'The price of the call.' }),
    balance: CreditsSchema.openapi({ description: 'The current balance, below `required`.' }),
  })
  .openapi({ required: ['error', 'message', 'required', 'balance'] })
  .openapi('InsufficientCreditsError')

const NotFoundErrorSchema = z
  .strictObject({
    error: z.literal('not_found'),
    message: MessageSchema,
    credits_charged: CreditsChargedSchema,
    credits_remaining: CreditsRemainingSchema,
    suggestions: z
      .array(
        z
          .string()
          .regex(/[^\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/)
          .min(1)
          .max(512),
      )
      .min(1)
      .max(5)
      .exactOptional()
      .openapi({
        description:
          "Did you mean: up to 5 advertiser names (for a name) or root domains with ads (for a\ndomain) that resemble the one asked for, best first, found by the advertiser search's\nrules (see `searchAdvertisers`). Absent when nothing resembles it. No extra charge.\n",
      }),
  })
  .openapi({ required: ['error', 'message', 'credits_charged', 'credits_remaining'] })
  .openapi('NotFoundError')

const NotAcceptableErrorSchema = z
  .strictObject({
    error: z.literal('not_acceptable'),
    message: MessageSchema,
    supported: z
      .array(z.enum(['application/json', 'text/csv']))
      .min(1)
      .max(2)
      .openapi({ description: 'The media types this operation answers in, its default first.' }),
  })
  .openapi({ required: ['error', 'message', 'supported'] })
  .openapi('NotAcceptableError')

const IdempotencyKeyReusedErrorSchema = z
  .strictObject({ error: z.literal('idempotency_key_reused'), message: MessageSchema })
  .openapi({ required: ['error', 'message'] })
  .openapi('IdempotencyKeyReusedError')

const DailyCapReachedErrorSchema = z
  .strictObject({
    error: z.literal('daily_cap_reached'),
    message: MessageSchema,
    required: CreditsSchema.openapi({ description: 'The price of the call.' }),
    daily_cap: CreditsSchema.openapi({ description: "The key's cap, in credits per UTC day." }),
    spent_today: CreditsSchema.openapi({
      description:
        'What the key spent today (UTC), refunds deducted; with `required` it would pass `daily_cap`.',
    }),
  })
  .openapi({ required: ['error', 'message', 'required', 'daily_cap', 'spent_today'] })
  .openapi('DailyCapReachedError')

const RateLimitedErrorSchema = z
  .strictObject({ error: z.literal('rate_limited'), message: MessageSchema })
  .openapi({ required: ['error', 'message'] })
  .openapi('RateLimitedError')

const RateLimitPolicyFieldSchema = z
  .string()
  .regex(/^"per-key";q=[0-9]{1,9};w=[0-9]{1,5}$/)
  .max(64)
  .openapi({
    description:
      'A Structured Field List with one Item: the policy name `"per-key"`, its quota `q` and window `w` in seconds.',
  })
  .openapi('RateLimitPolicyField')

const RateLimitFieldSchema = z
  .string()
  .regex(/^"per-key";r=[0-9]{1,9};t=[0-9]{1,5}$/)
  .max(64)
  .openapi({
    description:
      'A Structured Field List with one Item: the policy name `"per-key"`, the requests left `r` and the seconds `t` until the window resets.',
  })
  .openapi('RateLimitField')

const MethodNotAllowedErrorSchema = z
  .strictObject({ error: z.literal('method_not_allowed'), message: MessageSchema })
  .openapi({ required: ['error', 'message'] })
  .openapi('MethodNotAllowedError')

const UriTooLongErrorSchema = z
  .strictObject({ error: z.literal('uri_too_long'), message: MessageSchema })
  .openapi({ required: ['error', 'message'] })
  .openapi('UriTooLongError')

const HeadersTooLargeErrorSchema = z
  .strictObject({ error: z.literal('headers_too_large'), message: MessageSchema })
  .openapi({ required: ['error', 'message'] })
  .openapi('HeadersTooLargeError')

const BadRequestErrorSchema = z
  .strictObject({ error: z.literal('bad_request'), message: MessageSchema })
  .openapi({ required: ['error', 'message'] })
  .openapi('BadRequestError')

const RequestTimeoutErrorSchema = z
  .strictObject({ error: z.literal('request_timeout'), message: MessageSchema })
  .openapi({ required: ['error', 'message'] })
  .openapi('RequestTimeoutError')

const ExpectationFailedErrorSchema = z
  .strictObject({ error: z.literal('expectation_failed'), message: MessageSchema })
  .openapi({ required: ['error', 'message'] })
  .openapi('ExpectationFailedError')

const InternalErrorSchema = z
  .strictObject({
    error: z.literal('internal_error'),
    message: MessageSchema,
    credits_refunded: CreditsSchema.openapi({
      description:
        "Credits charged for this call and refunded in full because the call failed on the server's side.",
    }),
  })
  .openapi({ required: ['error', 'message', 'credits_refunded'] })
  .openapi('InternalError')

const UnavailableErrorSchema = z
  .strictObject({
    error: z.literal('unavailable'),
    message: MessageSchema,
    credits_refunded: CreditsSchema.openapi({
      description:
        "Credits charged for this call and refunded in full because the call failed on the server's side.",
    }),
  })
  .openapi({ required: ['error', 'message', 'credits_refunded'] })
  .openapi('UnavailableError')

const WatchRequestSchema: z.ZodType<WatchRequestType> = z
  .lazy(() =>
    z
      .xor([DomainWatchRequestSchema, AdvertiserWatchRequestSchema])
      .openapi({
        description: "A watch to create: its `kind`, and a `target` under that kind's rule.",
      }),
  )
  .openapi('WatchRequest')

const WatchIdSchema = z
  .uuid()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
  .length(36)
  .openapi({
    description: "A watch's id (a UUID, lower case).",
    example: '3f1d2c4e-8a7b-4c6d-9e0f-1a2b3c4d5e6f',
  })
  .openapi('WatchId')

const WatchSchema = z
  .strictObject({
    id: WatchIdSchema,
    kind: z
      .enum(['domain', 'advertiser'])
      .openapi({
        description:
          '`domain`: hear of every advertiser identifier that sends ads to `target` for the first time; `advertiser`: hear of every landing domain the advertiser named `target` uses for the first time.',
      }),
    target: z
      .string()
      .regex(/[^\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/)
      .min(1)
      .max(512)
      .openapi({
        description:
          'The normalized root domain of a domain watch, or the advertiser name (byte for byte, as the lookups take it) of an advertiser watch.',
      }),
    sandbox: z
      .boolean()
      .openapi({
        description:
          '`true` for a watch created with a test key: it watches the sandbox dataset and its deliveries are free.',
      }),
    created_at: z.iso.datetime().max(40),
  })
  .openapi({ required: ['id', 'kind', 'target', 'sandbox', 'created_at'] })
  .openapi('Watch')

const WatchListSchema = z
  .strictObject({
    watches: z.array(WatchSchema).max(200),
    next_cursor: z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/)
      .max(32)
      .nullable()
      .openapi({
        description: 'The `cursor` of the next, older page; `null` when this is the last one.',
      }),
  })
  .openapi({ required: ['watches', 'next_cursor'] })
  .openapi('WatchList')

const WatchEventSchema = z
  .strictObject({
    id: z
      .int()
      .min(1)
      .max(9007199254740991)
      .openapi({
        description:
          "The event's id; events found later have larger ids. Each change is reported once per watch.",
      }),
    watch_id: WatchIdSchema,
    change: z
      .enum(['new_advertiser', 'new_landing_domain'])
      .openapi({
        description:
          "`new_advertiser` (a domain watch): the identifier sends ads to the watched domain for the first time; `new_landing_domain` (an advertiser watch): the advertiser's identifier lands on this domain for the first time.",
      }),
    advertiser: AdvertiserNameSchema.openapi({
      description: "The identifier's name when the change was found.",
    }),
    advertiser_id: AdvertiserIdSchema,
    landing_domain: RootDomainSchema,
    first_seen: DateSchema.openapi({
      description: 'The first date the identifier was seen landing on `landing_domain`.',
    }),
    landing_domain_count: PositiveCountSchema.openapi({
      description:
        "The identifier's distinct landing domains when the change was found, as in a brand-bid row.",
    }),
    profile: ProfileSchema,
    found_at: z.iso
      .datetime()
      .max(40)
      .openapi({ description: 'When the load that found the change matched it.' }),
  })
  .openapi({
    required: [
      'id',
      'watch_id',
      'change',
      'advertiser',
      'advertiser_id',
      'landing_domain',
      'first_seen',
      'landing_domain_count',
      'profile',
      'found_at',
    ],
  })
  .openapi('WatchEvent')

const WatchEventListSchema = z
  .strictObject({
    events: z.array(WatchEventSchema).max(200),
    next_cursor: z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/)
      .max(32)
      .nullable()
      .openapi({
        description: 'The `cursor` of the next, older page; `null` when this is the last one.',
      }),
  })
  .openapi({ required: ['events', 'next_cursor'] })
  .openapi('WatchEventList')

const WatchRequestErrorSchema = z
  .strictObject({
    error: z.enum([
      'invalid_body',
      'invalid_kind',
      'missing_domain',
      'invalid_domain',
      'missing_name',
      'invalid_name',
      'invalid_idempotency_key',
    ]),
    message: MessageSchema,
  })
  .openapi({ required: ['error', 'message'] })
  .openapi('WatchRequestError')

const InvalidWatchIdErrorSchema = z
  .strictObject({ error: z.literal('invalid_watch_id'), message: MessageSchema })
  .openapi({ required: ['error', 'message'] })
  .openapi('InvalidWatchIdError')

const WatchEventsParameterErrorSchema = z
  .strictObject({
    error: z.enum(['invalid_watch_id', 'invalid_limit', 'invalid_cursor']),
    message: MessageSchema,
  })
  .openapi({ required: ['error', 'message'] })
  .openapi('WatchEventsParameterError')

const WatchNotFoundErrorSchema = z
  .strictObject({ error: z.literal('watch_not_found'), message: MessageSchema })
  .openapi({ required: ['error', 'message'] })
  .openapi('WatchNotFoundError')

const WatchTestEventResultSchema = z
  .strictObject({
    event_id: z
      .string()
      .regex(/^watch_news_test_[0-9a-f]{24}$/)
      .max(80)
      .openapi({ description: 'The `id` of the posted test event.' }),
    delivered: z
      .boolean()
      .openapi({
        description:
          '`true` when the webhook answered with a 2xx status (and `failure` is `null`).',
      }),
    status: z
      .int()
      .min(100)
      .max(599)
      .nullable()
      .openapi({ description: "The webhook's HTTP status; `null` when the post got no answer." }),
    failure: z
      .string()
      .regex(/[^\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/)
      .max(1000)
      .nullable()
      .openapi({
        description:
          'Why the post did not deliver (no answer, a refused address, a timeout, a status other than 2xx); `null` when it delivered.',
      }),
  })
  .openapi({ required: ['event_id', 'delivered', 'status', 'failure'] })
  .openapi('WatchTestEventResult')

const WatchTestEventRefusedErrorSchema = z
  .strictObject({
    error: z.enum(['no_webhook', 'test_event_limit_reached']),
    message: MessageSchema,
  })
  .openapi({ required: ['error', 'message'] })
  .openapi('WatchTestEventRefusedError')

const WatchLimitReachedErrorSchema = z
  .strictObject({
    error: z.literal('watch_limit_reached'),
    message: MessageSchema,
    limit: z
      .int()
      .min(0)
      .max(1000000)
      .openapi({ description: 'The most live watches the account may hold in this dataset.' }),
  })
  .openapi({ required: ['error', 'message', 'limit'] })
  .openapi('WatchLimitReachedError')

const UnsupportedMediaTypeErrorSchema = z
  .strictObject({ error: z.literal('unsupported_media_type'), message: MessageSchema })
  .openapi({ required: ['error', 'message'] })
  .openapi('UnsupportedMediaTypeError')

const WatchNewsEventSchema = z
  .strictObject({
    id: z
      .string()
      .regex(/^watch_news_[0-9a-z_-]{1,64}$/)
      .max(80)
      .openapi({ description: "The delivery's id, the same on every retry of it; drop a repeat." }),
    type: z.literal('watch.news'),
    created_at: z.iso
      .datetime()
      .max(40)
      .openapi({
        description: 'When the news was queued for delivery (the end of the load that found it).',
      }),
    test: z
      .boolean()
      .openapi({
        description: '`true` only for the sample that `POST /api/v1/watches/{id}/test` sends.',
      }),
    watch: WatchSchema,
    events: z
      .array(WatchEventSchema)
      .min(1)
      .max(10000)
      .openapi({
        description:
          'The changes the load found for the watch, in the order found; more than 10,000 come in several posts, each a delivery.',
      }),
    credits_charged: CreditsSchema.openapi({
      description: 'What this delivery cost (0 for a sandbox watch and for a test).',
    }),
  })
  .openapi({ required: ['id', 'type', 'created_at', 'test', 'watch', 'events', 'credits_charged'] })
  .openapi('WatchNewsEvent')

const LowBalanceAlertEventSchema = z
  .strictObject({
    id: z
      .string()
      .regex(/^(alert|test)_[0-9a-f]{1,64}$/)
      .max(80)
      .openapi({
        description: "The alert's id, the same on every retry; `alert_test_…` for a test event.",
      }),
    type: z.literal('balance.low'),
    created_at: z.iso.datetime().max(40),
    account_id: z.int().min(1).max(9007199254740991),
    balance: CreditsSchema.openapi({ description: 'The balance the charge left.' }),
    threshold: CreditsSchema.openapi({
      description: 'The alert threshold set on the account page.',
    }),
    test: z
      .boolean()
      .openapi({ description: '`true` only for the test events sent from the account page.' }),
  })
  .openapi({ required: ['id', 'type', 'created_at', 'account_id', 'balance', 'threshold', 'test'] })
  .openapi('LowBalanceAlertEvent')

const XRequestIdHeaderSchema = z
  .string()
  .regex(/^[A-Za-z0-9._-]{8,128}$/)
  .min(8)
  .max(128)
  .openapi({
    description:
      "Identifies this request in the service's logs and ledger; quote it to support. Sent on\nevery response. A caller's own `X-Request-Id` of 8 to 128 characters from\n`A-Z a-z 0-9 . _ -` is echoed, unless it starts with `alk_` (it could be an API key, which\nthe service never logs or echoes); otherwise the service makes a UUID.\n",
    example: '3f1c2a9e-5b7d-4c1e-9a8f-0d2b6e4c7a13',
  })

const CacheControlHeaderSchema = z
  .literal('no-store')
  .openapi({
    description:
      'Never store the response; every answer is computed, and most are charged, per call.',
    example: 'no-store',
  })

const XContentTypeOptionsHeaderSchema = z
  .literal('nosniff')
  .openapi({
    description: 'Browsers must not guess a content type other than the one sent.',
    example: 'nosniff',
  })

const XCreditsChargedHeaderSchema = CreditsSchema.openapi({
  description:
    "Credits this call cost (the operation's `x-credit-cost`); `0` on `400`, `402`, `422`,\n`429` and on a replayed response (`Idempotent-Replayed: true`).\n",
  example: 3,
})

const XCreditsRemainingHeaderSchema = CreditsSchema.openapi({
  description:
    "The account's balance after this call (on a replayed response, the current balance).",
  example: 197,
})

const XSandboxHeaderSchema = z
  .literal('true')
  .exactOptional()
  .openapi({
    description:
      "`true` on every answer to a test key (`alk_test_…`): the call was free and answered from\nthe sandbox's demo data. Absent for a live key.\n",
    example: 'true',
  })

const RateLimitHeaderSchema = RateLimitFieldSchema.exactOptional().openapi({
  description:
    "The key's standing under the per-key rate limit (draft-ietf-httpapi-ratelimit-headers-11,\nsection 4): `r` requests left in the current window, which ends in `t` seconds. Sent on\nevery answer to a valid key while the operator keeps the rate limit on (the default).\n",
  example: '"per-key";r=599;t=42',
})

const RateLimitPolicyHeaderSchema = RateLimitPolicyFieldSchema.exactOptional().openapi({
  description:
    'The per-key rate limit (draft-ietf-httpapi-ratelimit-headers-11, section 3): `q` requests\nper window of `w` seconds. Sent on every answer to a valid key while the operator keeps the\nrate limit on (the default).\n',
  example: '"per-key";q=600;w=60',
})

const NameParameterErrorResponse = {
  description:
    'The `name` parameter is missing, empty, white space only, longer than 512 code points,\nrepeated or not valid percent-encoded UTF-8, or the `Idempotency-Key` header is malformed. Free.\n',
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
    'X-Credits-Charged': XCreditsChargedHeaderSchema,
    'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
    'X-Sandbox': XSandboxHeaderSchema,
    RateLimit: RateLimitHeaderSchema,
    'RateLimit-Policy': RateLimitPolicyHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: NameParameterErrorSchema,
      examples: {
        missing: {
          value: {
            error: 'missing_name',
            message: 'The query parameter "name" is required and must not be empty.',
          },
        },
        invalid: {
          value: {
            error: 'invalid_name',
            message:
              'The query parameter "name" must be given once and be at most 512 characters long.',
          },
        },
        invalidIdempotencyKey: {
          value: {
            error: 'invalid_idempotency_key',
            message:
              'The Idempotency-Key header must be 1 to 255 visible ASCII characters without spaces, such as a UUID.',
          },
        },
      },
    },
  },
}

const DomainParameterErrorResponse = {
  description:
    'The `domain` parameter is missing, empty, not a host with a registrable domain, repeated\nor not valid percent-encoded UTF-8, or the `Idempotency-Key` header is malformed. Free.\n',
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
    'X-Credits-Charged': XCreditsChargedHeaderSchema,
    'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
    'X-Sandbox': XSandboxHeaderSchema,
    RateLimit: RateLimitHeaderSchema,
    'RateLimit-Policy': RateLimitPolicyHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: DomainParameterErrorSchema,
      examples: {
        missing: {
          value: {
            error: 'missing_domain',
            message: 'The query parameter "domain" is required and must not be empty.',
          },
        },
        invalid: {
          value: {
            error: 'invalid_domain',
            message:
              'The query parameter "domain" must be given once and name a host with a registrable domain, such as example.co.uk.',
          },
        },
        invalidIdempotencyKey: {
          value: {
            error: 'invalid_idempotency_key',
            message:
              'The Idempotency-Key header must be 1 to 255 visible ASCII characters without spaces, such as a UUID.',
          },
        },
      },
    },
  },
}

const UsageParameterErrorResponse = {
  description:
    '`from` or `to` is not a UTC date `YYYY-MM-DD` from 2000-01-01 to 9999-12-31 or is given twice, or the range is reversed or longer than 366 days. Free.',
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
    'X-Credits-Charged': XCreditsChargedHeaderSchema,
    'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
    'X-Sandbox': XSandboxHeaderSchema,
    RateLimit: RateLimitHeaderSchema,
    'RateLimit-Policy': RateLimitPolicyHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: UsageParameterErrorSchema,
      examples: {
        invalidFrom: {
          value: {
            error: 'invalid_from',
            message:
              'The query parameter "from" must be a UTC date from 2000-01-01 to 9999-12-31, such as 2026-11-01, given once.',
          },
        },
        invalidRange: {
          value: {
            error: 'invalid_range',
            message:
              'The range from 2026-11-30 to 2026-11-01 is reversed: "from" must not be after "to".',
          },
        },
      },
    },
  },
}

const LedgerParameterErrorResponse = {
  description:
    '`limit` is not a whole number from 1 to 200, or `cursor` is not one this service made, or either is given twice. Free.',
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
    'X-Credits-Charged': XCreditsChargedHeaderSchema,
    'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
    'X-Sandbox': XSandboxHeaderSchema,
    RateLimit: RateLimitHeaderSchema,
    'RateLimit-Policy': RateLimitPolicyHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: LedgerParameterErrorSchema,
      examples: {
        invalidLimit: {
          value: {
            error: 'invalid_limit',
            message:
              'The query parameter "limit" must be a whole number from 1 to 200, given once.',
          },
        },
        invalidCursor: {
          value: {
            error: 'invalid_cursor',
            message:
              'The query parameter "cursor" must be the next_cursor of a previous page, given once.',
          },
        },
      },
    },
  },
}

const WWWAuthenticateHeaderSchema = z
  .literal('Bearer')
  .openapi({ description: 'The authentication scheme to use; always `Bearer`.', example: 'Bearer' })

const UnauthorizedResponse = {
  description:
    'The key is missing, malformed, unknown or revoked, the account is disabled, the two key headers disagree, or the URL carries a key (refused even beside a valid header key). Free.',
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
    'WWW-Authenticate': WWWAuthenticateHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: UnauthorizedErrorSchema,
      examples: {
        unauthorized: {
          value: {
            error: 'unauthorized',
            message:
              'A valid API key is required: send it as "Authorization: Bearer <key>" or "x-api-key: <key>".',
          },
        },
        keyInUrl: {
          summary: 'A key in the query string',
          value: {
            error: 'unauthorized',
            message:
              'API keys are not accepted in the URL: send the key in the "Authorization: Bearer <key>" or "x-api-key: <key>" header. A key that was sent in a URL may have been logged on the way; consider replacing it.',
          },
        },
      },
    },
  },
}

const SearchParameterErrorResponse = {
  description:
    '`q` is missing, too short, too long, given twice or malformed, or the Idempotency-Key header is malformed. Free.',
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
    'X-Credits-Charged': XCreditsChargedHeaderSchema,
    'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
    'X-Sandbox': XSandboxHeaderSchema,
    RateLimit: RateLimitHeaderSchema,
    'RateLimit-Policy': RateLimitPolicyHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: SearchParameterErrorSchema,
      examples: {
        missing: {
          value: {
            error: 'missing_q',
            message: 'The query parameter "q" is required and must not be empty.',
          },
        },
        tooShort: {
          value: {
            error: 'invalid_q',
            message: 'The query parameter "q" must be 2 to 200 characters long.',
          },
        },
      },
    },
  },
}

const InsufficientCredits1Response = {
  description: "The balance is below this call's price of 1 credit. Nothing was charged.",
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
    'X-Credits-Charged': XCreditsChargedHeaderSchema,
    'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
    'X-Sandbox': XSandboxHeaderSchema,
    RateLimit: RateLimitHeaderSchema,
    'RateLimit-Policy': RateLimitPolicyHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: InsufficientCreditsErrorSchema,
      examples: {
        insufficient: {
          value: {
            error: 'insufficient_credits',
            message: 'This call costs 1 credit and the balance is 0.',
            required: 1,
            balance: 0,
          },
        },
      },
    },
  },
}

const InsufficientCredits3Response = {
  description: "The balance is below this call's price of 3 credits. Nothing was charged.",
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
    'X-Credits-Charged': XCreditsChargedHeaderSchema,
    'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
    'X-Sandbox': XSandboxHeaderSchema,
    RateLimit: RateLimitHeaderSchema,
    'RateLimit-Policy': RateLimitPolicyHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: InsufficientCreditsErrorSchema,
      examples: {
        insufficient: {
          value: {
            error: 'insufficient_credits',
            message: 'This call costs 3 credits and the balance is 2.',
            required: 3,
            balance: 2,
          },
        },
      },
    },
  },
}

const InsufficientCredits9Response = {
  description: "The balance is below this call's price of 9 credits. Nothing was charged.",
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
    'X-Credits-Charged': XCreditsChargedHeaderSchema,
    'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
    'X-Sandbox': XSandboxHeaderSchema,
    RateLimit: RateLimitHeaderSchema,
    'RateLimit-Policy': RateLimitPolicyHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: InsufficientCreditsErrorSchema,
      examples: {
        insufficient: {
          value: {
            error: 'insufficient_credits',
            message: 'This call costs 9 credits and the balance is 5.',
            required: 9,
            balance: 5,
          },
        },
      },
    },
  },
}

const InsufficientCredits15Response = {
  description: "The balance is below this call's price of 15 credits. Nothing was charged.",
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
    'X-Credits-Charged': XCreditsChargedHeaderSchema,
    'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
    'X-Sandbox': XSandboxHeaderSchema,
    RateLimit: RateLimitHeaderSchema,
    'RateLimit-Policy': RateLimitPolicyHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: InsufficientCreditsErrorSchema,
      examples: {
        insufficient: {
          value: {
            error: 'insufficient_credits',
            message: 'This call costs 15 credits and the balance is 14.',
            required: 15,
            balance: 14,
          },
        },
      },
    },
  },
}

const InsufficientCredits60Response = {
  description: "The balance is below this call's price of 60 credits. Nothing was charged.",
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
    'X-Credits-Charged': XCreditsChargedHeaderSchema,
    'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
    'X-Sandbox': XSandboxHeaderSchema,
    RateLimit: RateLimitHeaderSchema,
    'RateLimit-Policy': RateLimitPolicyHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: InsufficientCreditsErrorSchema,
      examples: {
        insufficient: {
          value: {
            error: 'insufficient_credits',
            message: 'This call costs 60 credits and the balance is 47.',
            required: 60,
            balance: 47,
          },
        },
      },
    },
  },
}

const IdempotentReplayedHeaderSchema = z
  .literal('true')
  .exactOptional()
  .openapi({
    description:
      '`true` when this response is the stored response of an earlier call with the same\n`Idempotency-Key`, replayed without running or charging the call again. Absent otherwise.\n',
    example: 'true',
  })

const AdvertiserNotFound3Response = {
  description:
    'No advertiser identifier currently carries this name. Charged, because the lookup ran.',
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
    'X-Credits-Charged': XCreditsChargedHeaderSchema,
    'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
    'X-Sandbox': XSandboxHeaderSchema,
    'Idempotent-Replayed': IdempotentReplayedHeaderSchema,
    RateLimit: RateLimitHeaderSchema,
    'RateLimit-Policy': RateLimitPolicyHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: NotFoundErrorSchema,
      examples: {
        notFound: {
          value: {
            error: 'not_found',
            message: 'No advertiser is named "Acme Outdor GmbH".',
            credits_charged: 3,
            credits_remaining: 194,
          },
        },
      },
    },
  },
}

const AdvertiserNotFound9Response = {
  description:
    'No advertiser identifier currently carries this name. Charged, because the lookup ran.',
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
    'X-Credits-Charged': XCreditsChargedHeaderSchema,
    'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
    'X-Sandbox': XSandboxHeaderSchema,
    'Idempotent-Replayed': IdempotentReplayedHeaderSchema,
    RateLimit: RateLimitHeaderSchema,
    'RateLimit-Policy': RateLimitPolicyHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: NotFoundErrorSchema,
      examples: {
        notFound: {
          value: {
            error: 'not_found',
            message: 'No advertiser is named "Acme Outdor GmbH".',
            credits_charged: 9,
            credits_remaining: 188,
          },
        },
      },
    },
  },
}

const AdvertiserNotFound15Response = {
  description:
    'No advertiser identifier currently carries this name. Charged, because the lookup ran.',
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
    'X-Credits-Charged': XCreditsChargedHeaderSchema,
    'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
    'X-Sandbox': XSandboxHeaderSchema,
    'Idempotent-Replayed': IdempotentReplayedHeaderSchema,
    RateLimit: RateLimitHeaderSchema,
    'RateLimit-Policy': RateLimitPolicyHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: NotFoundErrorSchema,
      examples: {
        notFound: {
          value: {
            error: 'not_found',
            message: 'No advertiser is named "Acme Outdor GmbH".',
            credits_charged: 15,
            credits_remaining: 182,
          },
        },
      },
    },
  },
}

const DomainNotFound3Response = {
  description:
    'No ad lands on this domain and it was never crawled. Charged, because the lookup ran.',
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
    'X-Credits-Charged': XCreditsChargedHeaderSchema,
    'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
    'X-Sandbox': XSandboxHeaderSchema,
    'Idempotent-Replayed': IdempotentReplayedHeaderSchema,
    RateLimit: RateLimitHeaderSchema,
    'RateLimit-Policy': RateLimitPolicyHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: NotFoundErrorSchema,
      examples: {
        notFound: {
          value: {
            error: 'not_found',
            message: 'The service has no data on the domain "acme-outdoor.net".',
            credits_charged: 3,
            credits_remaining: 194,
          },
        },
      },
    },
  },
}

const DomainNotFound60Response = {
  description:
    'No ad lands on this domain and it was never crawled. Charged, because the lookup ran.',
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
    'X-Credits-Charged': XCreditsChargedHeaderSchema,
    'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
    'X-Sandbox': XSandboxHeaderSchema,
    'Idempotent-Replayed': IdempotentReplayedHeaderSchema,
    RateLimit: RateLimitHeaderSchema,
    'RateLimit-Policy': RateLimitPolicyHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: NotFoundErrorSchema,
      examples: {
        notFound: {
          value: {
            error: 'not_found',
            message: 'The service has no data on the domain "acme-outdoor.net".',
            credits_charged: 60,
            credits_remaining: 137,
          },
        },
      },
    },
  },
}

const AllowHeaderSchema = z
  .string()
  .regex(/^[A-Z]+(, [A-Z]+)*$/)
  .max(64)
  .openapi({ description: 'The methods this path supports.', example: 'GET, HEAD' })

const MethodNotAllowedResponse = {
  description:
    'This path does not answer this method; the `Allow` header lists the methods it answers (`GET` and `HEAD` for most). Free.',
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
    Allow: AllowHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: MethodNotAllowedErrorSchema,
      examples: {
        methodNotAllowed: {
          value: { error: 'method_not_allowed', message: 'This path supports GET and HEAD only.' },
        },
      },
    },
  },
}

const NotAcceptableResponse = {
  description:
    'The `Accept` header allows none of the media types this operation answers in; `supported` lists them. Free.',
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
    'X-Credits-Charged': XCreditsChargedHeaderSchema,
    'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
    'X-Sandbox': XSandboxHeaderSchema,
    RateLimit: RateLimitHeaderSchema,
    'RateLimit-Policy': RateLimitPolicyHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: NotAcceptableErrorSchema,
      examples: {
        notAcceptable: {
          value: {
            error: 'not_acceptable',
            message:
              'This operation answers in application/json or text/csv; send an Accept header that allows one of them, or none.',
            supported: ['application/json', 'text/csv'],
          },
        },
      },
    },
  },
}

const IdempotencyKeyReusedResponse = {
  description:
    'The `Idempotency-Key` was used in the last 24 hours for another operation or another\nquery of this account. Nothing ran and nothing was charged; use a new key for a new request.\n',
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
    'X-Credits-Charged': XCreditsChargedHeaderSchema,
    'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
    'X-Sandbox': XSandboxHeaderSchema,
    RateLimit: RateLimitHeaderSchema,
    'RateLimit-Policy': RateLimitPolicyHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: IdempotencyKeyReusedErrorSchema,
      examples: {
        reused: {
          value: {
            error: 'idempotency_key_reused',
            message:
              'This Idempotency-Key was already used with another operation or query in the last 24 hours. Use a new key for a new request.',
          },
        },
      },
    },
  },
}

const WatchRequestErrorResponse = {
  description:
    'The body is not a JSON object `{"kind", "target"}`, is not valid UTF-8 or is over 16 KiB\n(`invalid_body`; a longer body is read no further than that), `kind` is neither\n`domain` nor `advertiser` (`invalid_kind`), the target of a domain watch is blank or not a\nhost with a registrable domain (`missing_domain`, `invalid_domain`), the target of an\nadvertiser watch is blank or longer than 512 code points (`missing_name`,\n`invalid_name`), or the `Idempotency-Key` header is malformed. Free.\n',
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
    'X-Credits-Charged': XCreditsChargedHeaderSchema,
    'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
    'X-Sandbox': XSandboxHeaderSchema,
    RateLimit: RateLimitHeaderSchema,
    'RateLimit-Policy': RateLimitPolicyHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: WatchRequestErrorSchema,
      examples: {
        invalidBody: {
          value: {
            error: 'invalid_body',
            message:
              'The body must be a JSON object with the fields "kind" and "target" only, such as {"kind":"domain","target":"example.com"}.',
          },
        },
        invalidDomain: {
          value: {
            error: 'invalid_domain',
            message:
              'The "target" of a domain watch must name a host with a registrable domain, such as example.co.uk.',
          },
        },
        invalidIdempotencyKey: {
          value: {
            error: 'invalid_idempotency_key',
            message:
              'The Idempotency-Key header must be 1 to 255 visible ASCII characters without spaces, such as a UUID.',
          },
        },
      },
    },
  },
}

const InvalidWatchIdResponse = {
  description: 'The watch id in the path is not a UUID in lower case. Free.',
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
    'X-Credits-Charged': XCreditsChargedHeaderSchema,
    'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
    'X-Sandbox': XSandboxHeaderSchema,
    RateLimit: RateLimitHeaderSchema,
    'RateLimit-Policy': RateLimitPolicyHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: InvalidWatchIdErrorSchema,
      examples: {
        invalidWatchId: {
          value: {
            error: 'invalid_watch_id',
            message:
              'The watch id in the path must be a UUID in lower case, such as 3f1d2c4e-8a7b-4c6d-9e0f-1a2b3c4d5e6f.',
          },
        },
      },
    },
  },
}

const WatchEventsParameterErrorResponse = {
  description:
    'The watch id in the path is not a UUID in lower case, `limit` is not a whole number from 1 to 200, or `cursor` is not one this service made, or either is given twice. Free.',
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
    'X-Credits-Charged': XCreditsChargedHeaderSchema,
    'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
    'X-Sandbox': XSandboxHeaderSchema,
    RateLimit: RateLimitHeaderSchema,
    'RateLimit-Policy': RateLimitPolicyHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: WatchEventsParameterErrorSchema,
      examples: {
        invalidWatchId: {
          value: {
            error: 'invalid_watch_id',
            message:
              'The watch id in the path must be a UUID in lower case, such as 3f1d2c4e-8a7b-4c6d-9e0f-1a2b3c4d5e6f.',
          },
        },
        invalidLimit: {
          value: {
            error: 'invalid_limit',
            message:
              'The query parameter "limit" must be a whole number from 1 to 200, given once.',
          },
        },
      },
    },
  },
}

const WatchNotFoundResponse = {
  description:
    "No live watch of the key's account and dataset has this id (unknown, deleted, another account's, or of the other dataset). Free.",
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
    'X-Credits-Charged': XCreditsChargedHeaderSchema,
    'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
    'X-Sandbox': XSandboxHeaderSchema,
    RateLimit: RateLimitHeaderSchema,
    'RateLimit-Policy': RateLimitPolicyHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: WatchNotFoundErrorSchema,
      examples: {
        watchNotFound: {
          value: {
            error: 'watch_not_found',
            message: 'No watch of this account has this id: it may have been deleted.',
          },
        },
      },
    },
  },
}

const WatchLimitReachedResponse = {
  description:
    "The account already holds its limit of live watches in the key's dataset (`limit`, 1,000 unless the operator set `WATCH_LIMIT`). Delete one first. Free.",
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
    'X-Credits-Charged': XCreditsChargedHeaderSchema,
    'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
    'X-Sandbox': XSandboxHeaderSchema,
    RateLimit: RateLimitHeaderSchema,
    'RateLimit-Policy': RateLimitPolicyHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: WatchLimitReachedErrorSchema,
      examples: {
        watchLimitReached: {
          value: {
            error: 'watch_limit_reached',
            message:
              'This account already has 1000 live watches, the most it may hold; delete one first.',
            limit: 1000,
          },
        },
      },
    },
  },
}

const WatchTestEventRefusedResponse = {
  description:
    "No test event was posted. `no_webhook`: the account has no webhook (set one on the\naccount page's alerts). `test_event_limit_reached`: the hourly limit of test events (per\naccount, or per receiving host, shared with the alert test events) is spent; try again\nlater. Free.\n",
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
    'X-Credits-Charged': XCreditsChargedHeaderSchema,
    'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
    'X-Sandbox': XSandboxHeaderSchema,
    RateLimit: RateLimitHeaderSchema,
    'RateLimit-Policy': RateLimitPolicyHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: WatchTestEventRefusedErrorSchema,
      examples: {
        noWebhook: {
          value: {
            error: 'no_webhook',
            message: 'This account has no webhook: set one on the account page, under Alerts.',
          },
        },
      },
    },
  },
}

const UnsupportedMediaTypeResponse = {
  description:
    'The body is not sent as `application/json` (its `Content-Type`), or names a `charset` other than `utf-8`. Free.',
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
    'X-Credits-Charged': XCreditsChargedHeaderSchema,
    'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
    'X-Sandbox': XSandboxHeaderSchema,
    RateLimit: RateLimitHeaderSchema,
    'RateLimit-Policy': RateLimitPolicyHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: UnsupportedMediaTypeErrorSchema,
      examples: {
        unsupportedMediaType: {
          value: {
            error: 'unsupported_media_type',
            message: 'Send the body as JSON in UTF-8, with "Content-Type: application/json".',
          },
        },
      },
    },
  },
}

const RetryAfterHeaderSchema = z
  .int()
  .min(1)
  .max(86400)
  .openapi({ description: 'Seconds to wait before retrying.', example: 5 })

const DailyCapReachedResponse = {
  description:
    "This call would take the API key past the daily credit cap its account holder set for it\n(credits per UTC day, set on the account page). Nothing ran and nothing was charged; the\ncap starts afresh at the next midnight UTC, which `Retry-After` counts down to. The\naccount's other keys and its balance are untouched.\n",
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
    'Retry-After': RetryAfterHeaderSchema,
    'X-Credits-Charged': XCreditsChargedHeaderSchema,
    'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
    'X-Sandbox': XSandboxHeaderSchema,
    RateLimit: RateLimitHeaderSchema,
    'RateLimit-Policy': RateLimitPolicyHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: DailyCapReachedErrorSchema,
      examples: {
        capReached: {
          value: {
            error: 'daily_cap_reached',
            message:
              'This call costs 3 credits and would take this API key past its daily cap: 299 of 300 credits spent today (UTC). The cap starts afresh at 00:00 UTC.',
            required: 3,
            daily_cap: 300,
            spent_today: 299,
          },
        },
      },
    },
  },
}

const RateLimitExhaustedHeaderSchema = RateLimitFieldSchema.openapi({
  description: "The key's standing, as in `RateLimit`; `r` is `0` and `t` equals `Retry-After`.",
  example: '"per-key";r=0;t=42',
})

const RateLimitPolicyEnforcedHeaderSchema = RateLimitPolicyFieldSchema.openapi({
  description: 'The per-key rate limit that this request exceeded, as in `RateLimit-Policy`.',
  example: '"per-key";q=600;w=60',
})

const RateLimitedResponse = {
  description:
    'This API key made more requests than its quota in the current window. Nothing ran and\nnothing was charged; retry after `Retry-After` seconds, when the window resets.\n',
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
    'Retry-After': RetryAfterHeaderSchema,
    RateLimit: RateLimitExhaustedHeaderSchema,
    'RateLimit-Policy': RateLimitPolicyEnforcedHeaderSchema,
    'X-Credits-Charged': XCreditsChargedHeaderSchema,
    'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
    'X-Sandbox': XSandboxHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: RateLimitedErrorSchema,
      examples: {
        rateLimited: {
          value: {
            error: 'rate_limited',
            message:
              'This API key may make 600 requests per 60 seconds. Retry after the seconds in Retry-After.',
          },
        },
      },
    },
  },
}

const UriTooLongResponse = {
  description:
    'The URL (path and query) is longer than the service accepts (32 KiB by default). Free; checked before anything else.',
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: UriTooLongErrorSchema,
      examples: {
        uriTooLong: {
          value: { error: 'uri_too_long', message: 'The request URL is longer than 32768 bytes.' },
        },
      },
    },
  },
}

const HeadersTooLargeResponse = {
  description:
    'The request line and headers together are larger than the service accepts (64 KiB by default). Free; the connection is closed.',
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: HeadersTooLargeErrorSchema,
      examples: {
        headersTooLarge: {
          value: {
            error: 'headers_too_large',
            message: 'The request line and headers together are larger than 65536 bytes.',
          },
        },
      },
    },
  },
}

const BadRequestResponse = {
  description:
    'The request is not valid HTTP/1.1 (see Limits), so it reaches no operation. Free; the\nconnection is closed after the answers to earlier requests on it.\n',
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: BadRequestErrorSchema,
      examples: {
        badRequest: {
          value: { error: 'bad_request', message: 'The request is not valid HTTP/1.1.' },
        },
      },
    },
  },
}

const RequestTimeoutResponse = {
  description:
    'The request line and headers (10 s by default) or the whole request (30 s by default) were\nnot received in time, so the request reaches no operation. Free; the connection is closed.\n',
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: RequestTimeoutErrorSchema,
      examples: {
        requestTimeout: {
          value: {
            error: 'request_timeout',
            message: 'The request was not received completely in time; the connection is closed.',
          },
        },
      },
    },
  },
}

const ExpectationFailedResponse = {
  description:
    'The request carries an `Expect` header other than `100-continue`, so it reaches no\noperation. Free; the connection is closed.\n',
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: ExpectationFailedErrorSchema,
      examples: {
        expectationFailed: {
          value: {
            error: 'expectation_failed',
            message:
              'The service meets no expectation but "Expect: 100-continue"; send the request without the Expect header.',
          },
        },
      },
    },
  },
}

const XCreditsChargedIfKnownHeaderSchema = CreditsSchema.exactOptional().openapi({
  description:
    'Sent when the key was valid and the balance could be read: `0`, because a failed call is\nrefunded in full. Absent when the failure came before the key could be checked.\n',
})

const XCreditsRemainingIfKnownHeaderSchema = CreditsSchema.exactOptional().openapi({
  description: 'Sent with `X-Credits-Charged`; the balance after the refund.',
  example: 197,
})

const InternalErrorResponse = {
  description:
    'The service failed. Any credits charged for this call were refunded in full; `credits_refunded` says how many.',
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
    'X-Credits-Charged': XCreditsChargedIfKnownHeaderSchema,
    'X-Credits-Remaining': XCreditsRemainingIfKnownHeaderSchema,
    'X-Sandbox': XSandboxHeaderSchema,
    RateLimit: RateLimitHeaderSchema,
    'RateLimit-Policy': RateLimitPolicyHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: InternalErrorSchema,
      examples: {
        refunded: {
          value: {
            error: 'internal_error',
            message:
              'The service failed to answer. The 15 credits charged for this call were refunded.',
            credits_refunded: 15,
          },
        },
      },
    },
  },
}

const UnavailableResponse = {
  description:
    "The service's database is unreachable for the moment, or the first request with the same\n`Idempotency-Key` is still running after 10 seconds; retry after `Retry-After` seconds. Any\ncredits charged for this call were refunded.\n",
  headers: z.object({
    'X-Request-Id': XRequestIdHeaderSchema,
    'Cache-Control': CacheControlHeaderSchema,
    'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
    'Retry-After': RetryAfterHeaderSchema,
    'X-Credits-Charged': XCreditsChargedIfKnownHeaderSchema,
    'X-Credits-Remaining': XCreditsRemainingIfKnownHeaderSchema,
    'X-Sandbox': XSandboxHeaderSchema,
    RateLimit: RateLimitHeaderSchema,
    'RateLimit-Policy': RateLimitPolicyHeaderSchema,
  }),
  content: {
    'application/json': {
      schema: UnavailableErrorSchema,
      examples: {
        unavailable: {
          value: {
            error: 'unavailable',
            message:
              'The service is temporarily unavailable. Retry later. Nothing was charged for this call.',
            credits_refunded: 0,
          },
        },
      },
    },
  },
}

const FromParamsSchema = z.iso
  .date()
  .regex(/^[2-9][0-9]{3}-[0-9]{2}-[0-9]{2}$/)
  .max(10)
  .exactOptional()
  .openapi({
    param: {
      name: 'from',
      in: 'query',
      required: false,
      description:
        'The first UTC day of the range, `YYYY-MM-DD`, from 2000-01-01 to 9999-12-31. Default: 29\ndays before `to`, so the range is 30 days. A date that does not exist (2026-02-30), one\noutside those years, any other form, or the parameter given more than once:\n`400 invalid_from`, free.\n',
      schema: {
        type: 'string',
        format: 'date',
        maxLength: 10,
        pattern: '^[2-9][0-9]{3}-[0-9]{2}-[0-9]{2}$',
        'x-minimum': '2000-01-01',
        'x-maximum': '9999-12-31',
        description: 'A UTC calendar date from 2000-01-01 to 9999-12-31, `YYYY-MM-DD`.',
        example: '2026-11-01',
      },
    },
    'x-minimum': '2000-01-01',
    'x-maximum': '9999-12-31',
    description: 'A UTC calendar date from 2000-01-01 to 9999-12-31, `YYYY-MM-DD`.',
    example: '2026-11-01',
  })

const ToParamsSchema = z.iso
  .date()
  .regex(/^[2-9][0-9]{3}-[0-9]{2}-[0-9]{2}$/)
  .max(10)
  .exactOptional()
  .openapi({
    param: {
      name: 'to',
      in: 'query',
      required: false,
      description:
        'The last UTC day of the range, `YYYY-MM-DD`, included, from 2000-01-01 to 9999-12-31.\nDefault: today (UTC). Malformed, outside those years or repeated: `400 invalid_to`.\n`from` after `to`, or a range longer than 366 days: `400 invalid_range`. Both free.\n',
      schema: {
        type: 'string',
        format: 'date',
        maxLength: 10,
        pattern: '^[2-9][0-9]{3}-[0-9]{2}-[0-9]{2}$',
        'x-minimum': '2000-01-01',
        'x-maximum': '9999-12-31',
        description: 'A UTC calendar date from 2000-01-01 to 9999-12-31, `YYYY-MM-DD`.',
        example: '2026-11-01',
      },
    },
    'x-minimum': '2000-01-01',
    'x-maximum': '9999-12-31',
    description: 'A UTC calendar date from 2000-01-01 to 9999-12-31, `YYYY-MM-DD`.',
    example: '2026-11-01',
  })

const LimitParamsSchema = z.coerce
  .number()
  .pipe(z.int().min(1).max(200))
  .default(50)
  .openapi({
    param: {
      name: 'limit',
      in: 'query',
      required: false,
      description:
        'Entries per page, 1 to 200; default 50. Anything else (`0`, `201`, `1.5`, `ten`, the\nparameter given more than once): `400 invalid_limit`, free.\n',
      schema: {
        type: 'integer',
        minimum: 1,
        maximum: 200,
        default: 50,
        'x-pattern': '^[0-9]{1,4}$',
      },
    },
    'x-pattern': '^[0-9]{1,4}$',
  })

const CursorParamsSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]+$/)
  .min(1)
  .max(32)
  .exactOptional()
  .openapi({
    param: {
      name: 'cursor',
      in: 'query',
      required: false,
      description:
        'Where the page starts: the `next_cursor` of the previous page. Absent: the newest\nentries. A cursor this service did not make, or the parameter given more than once:\n`400 invalid_cursor`, free.\n',
      schema: { type: 'string', minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9_-]+$' },
    },
  })

const NameParamsSchema = AdvertiserNameSchema.openapi({
  param: {
    name: 'name',
    in: 'query',
    required: true,
    description:
      'The advertiser name, exact and case-sensitive, as shown on the service\'s website. It is\ncompared byte for byte: never trimmed, case-folded or normalized. Absent, empty or only\nwhite space: `400 missing_name`. Longer than 512 characters (Unicode code points), given\nmore than once, or not valid percent-encoded UTF-8 (`%FF`, `%ED%A0%80`, `100%`; write\n`100%25`): `400 invalid_name`. White space only wins over too long. Both are free.\n"White space" is what JavaScript\'s `String.prototype.trim` removes (Unicode White_Space\nand U+FEFF); the schema states both rules: its `pattern` asks for at least one other\ncharacter, and its `maxLength` counts code points, as JSON Schema does.\n',
    schema: { $ref: '#/components/schemas/AdvertiserName' },
    examples: {
      brand: {
        summary: 'A brand in the demo dataset that `npm start` loads',
        value: 'Acme Outdoor',
      },
      merged: {
        summary: 'A name held by three advertiser identifiers in the demo dataset',
        value: 'Globex Retail',
      },
      intermediary: {
        summary: 'A multi-domain intermediary in the demo dataset',
        value: 'Northwind Media Group',
      },
    },
  },
})

const QParamsSchema = z
  .string()
  .regex(/[^\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/)
  .min(2)
  .max(200)
  .openapi({
    param: {
      name: 'q',
      in: 'query',
      required: true,
      description:
        'What to search for: an advertiser name or part of one, in any script and case, with or\nwithout accents; white space around and repeated inside it is ignored when matching. Absent, empty or only white\nspace: `400 missing_q`. Fewer than 2 or more than 200 characters (Unicode code points, as\ngiven), given more than once, or not valid percent-encoded UTF-8: `400 invalid_q`. White\nspace only wins over too short or too long. Both are free.\n',
      schema: {
        type: 'string',
        minLength: 2,
        maxLength: 200,
        pattern:
          '[^\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]',
      },
      examples: {
        lowerCase: {
          summary: 'A brand of the demo dataset, typed in lower case',
          value: 'acme outdoor',
        },
        prefix: { summary: 'The start of a name', value: 'Glob' },
      },
    },
  })

const DomainParamsSchema = z
  .string()
  .regex(
    /^(?:[A-Za-z0-9]{1,21}(?:-[A-Za-z0-9]{1,20}){0,2}\.){1,3}(?:com|net|org|info|biz|de|eu|nl|ch|co\.uk|org\.uk|com\.au)$/,
  )
  .min(4)
  .max(253)
  .openapi({
    param: {
      name: 'domain',
      in: 'query',
      required: true,
      description:
        "A root domain, host name or URL. It is trimmed of surrounding white space and parsed as\na URL host (`http://` is assumed; schemes other than http and https are invalid); user\ninfo, port, path, query, fragment, a leading `www.` and a trailing dot are dropped, the\nhost is lower-cased, internationalized names become their ASCII `xn--` form, and the\nhost is reduced to its registrable root domain with the ICANN section of the Public\nSuffix List: `https://WWW.Shop.Example.co.uk:443/a?b#c` becomes `example.co.uk`.\nAbsent, empty or white space: `400 missing_domain`. Not a host with a registrable domain\n(an IP address, `localhost`, a single label, a bare public suffix such as `co.uk`, an\nunknown top-level domain, illegal characters, over 253 characters), given more than\nonce, or not valid percent-encoded UTF-8: `400 invalid_domain`. Both are free, so a\ntypo never costs credits.\n\nThe schema's `pattern` states a simple part of what is accepted, and every value it\nallows is accepted: host names of ASCII letters, digits and single hyphens inside labels,\nunder one of the suffixes `com`, `net`, `org`, `info`, `biz`, `de`, `eu`, `nl`, `ch`,\n`co.uk`, `org.uk` or `com.au`, such as `WWW.Acme-Outdoor.com`. That is what the\ncontract guarantees; the service accepts much more than the pattern says: full URLs\nsuch as `https://www.acme-outdoor.com/shop?utm_source=ads`, every other public suffix\n(`example.fr`), internationalized names (`bücher.de`), ports, user info, a trailing dot\nand surrounding white space, as described above.\n",
      schema: {
        type: 'string',
        minLength: 4,
        maxLength: 253,
        pattern:
          '^(?:[A-Za-z0-9]{1,21}(?:-[A-Za-z0-9]{1,20}){0,2}\\.){1,3}(?:com|net|org|info|biz|de|eu|nl|ch|co\\.uk|org\\.uk|com\\.au)$',
        'x-accepts-beyond-pattern': true,
      },
      examples: {
        rootDomain: {
          summary: 'A brand domain in the demo dataset that `npm start` loads',
          value: 'acme-outdoor.com',
        },
        host: {
          summary: 'A host name; it is lower-cased and reduced to its root domain',
          value: 'WWW.Acme-Outdoor.com',
        },
      },
    },
    'x-accepts-beyond-pattern': true,
  })

const WatchIdParamsSchema = WatchIdSchema.openapi({
  param: {
    name: 'id',
    in: 'path',
    required: true,
    description:
      "The watch's id, as `createWatch` or `listWatches` gave it: a UUID in lower case. Anything\nelse answers `400 invalid_watch_id`, free; an id that is not a live watch of the key's\naccount and dataset answers `404 watch_not_found`, free.\n",
    schema: { $ref: '#/components/schemas/WatchId' },
  },
})

const IdempotencyKeyParamsSchema = z
  .string()
  .regex(/^[!-~]{1,255}$/)
  .min(1)
  .max(255)
  .exactOptional()
  .openapi({
    param: {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Makes a retry safe: a retry of this call with the same key (same account, operation and\nquery) within 24 hours replays the first response and charges nothing again. 1 to 255\nvisible ASCII characters (`!` to `~`, no spaces), such as a UUID; otherwise\n`400 invalid_idempotency_key`. The same key with another operation or query:\n`422 idempotency_key_reused`. See "Retries never pay twice" above.\n',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[!-~]{1,255}$' },
      example: '7c4f3e1a-9b2d-4e8f-a6c5-0d1b2e3f4a5b',
    },
  })

const XTotalCountHeaderSchema = z
  .string()
  .regex(/^[0-9]+$/)
  .max(16)
  .exactOptional()
  .openapi({
    description:
      "Sent with a `text/csv` answer of a capped list: the full number of entries, as the JSON\nanswer's `landing_domain_count` or `advertiser_count` says it.\n",
    example: '612',
  })

const XTruncatedHeaderSchema = z
  .enum(['true', 'false'])
  .exactOptional()
  .openapi({
    description:
      'Sent with a `text/csv` answer of a capped list: `true` when the list was cut at its cap, so\nthe file holds fewer rows than `X-Total-Count`, otherwise `false`.\n',
    example: 'false',
  })

const LocationHeaderSchema = z
  .string()
  .regex(/^\/api\/v1\/watches\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
  .max(64)
  .exactOptional()
  .openapi({
    description: 'The path of the watch just created, `/api/v1/watches/{id}`.',
    example: '/api/v1/watches/3f1d2c4e-8a7b-4c6d-9e0f-1a2b3c4d5e6f',
  })

const BearerAuthSecurityScheme = {
  type: 'http',
  scheme: 'bearer',
  description:
    '`Authorization: Bearer <API_KEY>`. Equivalent to `x-api-key`. To try the calls here, use a test key (`alk_test_…`, free); a live key spends credits.',
}

const ApiKeyHeaderSecurityScheme = {
  type: 'apiKey',
  in: 'header',
  name: 'x-api-key',
  description:
    '`x-api-key: <API_KEY>`. Equivalent to the bearer header. To try the calls here, use a test key (`alk_test_…`, free); a live key spends credits.',
}

export const getApiV1AdvertiserRoute = createRoute({
  method: 'get',
  path: '/api/v1/advertiser',
  tags: ['Advertisers'],
  summary: 'Advertiser summary',
  description:
    'Merges every advertiser identifier whose current name equals `name` and aggregates them:\ndistinct creatives, distinct landing domains, the last date seen, the country of the\nidentifier with the most creatives (ties: latest `last_seen`, then smallest identifier),\nand the manual `advertiser_type` label. No time dimension: month-by-month data comes from\n`/api/v1/advertiser/history`. Costs 3 credits, also when the advertiser is not found.\n',
  operationId: 'getAdvertiserSummary',
  request: {
    query: z.object({ name: NameParamsSchema }),
    headers: z.object({ 'Idempotency-Key': IdempotencyKeyParamsSchema }),
  },
  responses: {
    200: {
      description: 'The advertiser summary. Charged.',
      headers: z.object({
        'X-Request-Id': XRequestIdHeaderSchema,
        'Cache-Control': CacheControlHeaderSchema,
        'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
        'X-Credits-Charged': XCreditsChargedHeaderSchema,
        'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
        'X-Sandbox': XSandboxHeaderSchema,
        'Idempotent-Replayed': IdempotentReplayedHeaderSchema,
        RateLimit: RateLimitHeaderSchema,
        'RateLimit-Policy': RateLimitPolicyHeaderSchema,
      }),
      content: {
        'application/json': {
          schema: AdvertiserSummarySchema,
          examples: {
            merged: {
              summary: 'An advertiser with two identifiers',
              value: {
                advertiser: 'Acme Outdoor GmbH',
                advertiser_ids: ['AR01234567890123456789', 'AR09876543210987654321'],
                creatives: 412,
                landing_domains: 3,
                last_seen: '2026-11-20',
                country: 'DE',
                advertiser_type: 'direct',
                credits_charged: 3,
                credits_remaining: 197,
              },
            },
          },
        },
      },
    },
    400: NameParameterErrorResponse,
    401: UnauthorizedResponse,
    402: InsufficientCredits3Response,
    403: DailyCapReachedResponse,
    404: AdvertiserNotFound3Response,
    405: MethodNotAllowedResponse,
    406: NotAcceptableResponse,
    414: UriTooLongResponse,
    422: IdempotencyKeyReusedResponse,
    429: RateLimitedResponse,
    431: HeadersTooLargeResponse,
    500: InternalErrorResponse,
    503: UnavailableResponse,
  },
})

export const getApiV1DomainRoute = createRoute({
  method: 'get',
  path: '/api/v1/domain',
  tags: ['Domains'],
  summary: 'Domain summary',
  description:
    'Reports on one root domain: how many distinct advertiser identifiers run ads landing on\nit, when it was last crawled, and whether any ad lands on it. A domain that was crawled\nbut has no ads answers `200` with `has_data: false` and `advertisers: 0`; a domain with\nneither ads nor crawls answers `404` (charged). Costs 3 credits.\n',
  operationId: 'getDomainSummary',
  request: {
    query: z.object({ domain: DomainParamsSchema }),
    headers: z.object({ 'Idempotency-Key': IdempotencyKeyParamsSchema }),
  },
  responses: {
    200: {
      description: 'The domain summary. Charged.',
      headers: z.object({
        'X-Request-Id': XRequestIdHeaderSchema,
        'Cache-Control': CacheControlHeaderSchema,
        'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
        'X-Credits-Charged': XCreditsChargedHeaderSchema,
        'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
        'X-Sandbox': XSandboxHeaderSchema,
        'Idempotent-Replayed': IdempotentReplayedHeaderSchema,
        RateLimit: RateLimitHeaderSchema,
        'RateLimit-Policy': RateLimitPolicyHeaderSchema,
      }),
      content: {
        'application/json': {
          schema: DomainSummarySchema,
          examples: {
            withAds: {
              summary: 'A brand domain that advertisers send ads to',
              value: {
                domain: 'acme-outdoor.com',
                advertisers: 131,
                last_crawled: '2026-11-18 06:42:10',
                has_data: true,
                credits_charged: 3,
                credits_remaining: 194,
              },
            },
            crawledOnly: {
              summary: 'Crawled, but no ad lands on it',
              value: {
                domain: 'quiet-bakery.co.uk',
                advertisers: 0,
                last_crawled: '2026-10-02 13:05:44',
                has_data: false,
                credits_charged: 3,
                credits_remaining: 191,
              },
            },
          },
        },
      },
    },
    400: DomainParameterErrorResponse,
    401: UnauthorizedResponse,
    402: InsufficientCredits3Response,
    403: DailyCapReachedResponse,
    404: DomainNotFound3Response,
    405: MethodNotAllowedResponse,
    406: NotAcceptableResponse,
    414: UriTooLongResponse,
    422: IdempotencyKeyReusedResponse,
    429: RateLimitedResponse,
    431: HeadersTooLargeResponse,
    500: InternalErrorResponse,
    503: UnavailableResponse,
  },
})

export const getApiV1AdvertiserHistoryRoute = createRoute({
  method: 'get',
  path: '/api/v1/advertiser/history',
  tags: ['Advertisers'],
  summary: 'Advertiser history, month by month',
  description:
    'Distinct creatives and distinct landing domains of the advertiser (all identifiers of the\nname) per calendar month (UTC), oldest first. The window is the current month and the 35\nbefore it; it starts later when the advertiser was first seen later. `window_start` is the\nfirst day of the first month returned. Every month of the window has an entry, months\nwithout activity included with zeros. An advertiser whose activity is all older than the\nwindow answers `200` with the nominal `window_start` and 36 zero months. The website shows\na longer history than the API does. Costs 9 credits.\n',
  operationId: 'getAdvertiserHistory',
  request: {
    query: z.object({ name: NameParamsSchema }),
    headers: z.object({ 'Idempotency-Key': IdempotencyKeyParamsSchema }),
  },
  responses: {
    200: {
      description: "The advertiser's monthly history. Charged.",
      headers: z.object({
        'X-Request-Id': XRequestIdHeaderSchema,
        'Cache-Control': CacheControlHeaderSchema,
        'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
        'X-Credits-Charged': XCreditsChargedHeaderSchema,
        'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
        'X-Sandbox': XSandboxHeaderSchema,
        'Idempotent-Replayed': IdempotentReplayedHeaderSchema,
        RateLimit: RateLimitHeaderSchema,
        'RateLimit-Policy': RateLimitPolicyHeaderSchema,
      }),
      content: {
        'application/json': {
          schema: AdvertiserHistorySchema,
          examples: {
            recent: {
              summary: 'An advertiser first seen four months ago',
              value: {
                advertiser: 'Acme Outdoor GmbH',
                window_start: '2026-08-01',
                months: [
                  { month: '2026-08', creatives: 12, domains: 1 },
                  { month: '2026-09', creatives: 0, domains: 0 },
                  { month: '2026-10', creatives: 31, domains: 2 },
                  { month: '2026-11', creatives: 18, domains: 2 },
                ],
                credits_charged: 9,
                credits_remaining: 182,
              },
            },
          },
        },
        'text/csv': {
          schema: z
            .string()
            .regex(/^month,creatives,domains\r\n/)
            .max(2000)
            .openapi({
              description:
                'The rows of the JSON answer\'s list, in its order, as RFC 4180 CSV (see "Exports" above).',
            }),
          examples: {
            csv: { value: 'month,creatives,domains\r\n2026-10,41,3\r\n2026-11,57,4\r\n' },
          },
        },
      },
    },
    400: NameParameterErrorResponse,
    401: UnauthorizedResponse,
    402: InsufficientCredits9Response,
    403: DailyCapReachedResponse,
    404: AdvertiserNotFound9Response,
    405: MethodNotAllowedResponse,
    406: NotAcceptableResponse,
    414: UriTooLongResponse,
    422: IdempotencyKeyReusedResponse,
    429: RateLimitedResponse,
    431: HeadersTooLargeResponse,
    500: InternalErrorResponse,
    503: UnavailableResponse,
  },
})

export const getApiV1AdvertiserDomainsRoute = createRoute({
  method: 'get',
  path: '/api/v1/advertiser/domains',
  tags: ['Advertisers'],
  summary: 'Landing domains of an advertiser',
  description:
    'The landing domains of the advertiser (all identifiers of the name), each with its\ndistinct creatives and the last date seen there. Ordered by `creatives` descending, then\n`last_seen` descending, then `domain` ascending. At most 500 entries;\n`landing_domain_count` is the full total and `truncated` is true when entries were cut.\nOne or two domains usually mean the brand itself or its dealer; a very large number of\nunrelated domains usually means an intermediary. Costs 15 credits.\n',
  operationId: 'getAdvertiserLandingDomains',
  request: {
    query: z.object({ name: NameParamsSchema }),
    headers: z.object({ 'Idempotency-Key': IdempotencyKeyParamsSchema }),
  },
  responses: {
    200: {
      description: "The advertiser's landing domains. Charged.",
      headers: z.object({
        'X-Request-Id': XRequestIdHeaderSchema,
        'Cache-Control': CacheControlHeaderSchema,
        'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
        'X-Credits-Charged': XCreditsChargedHeaderSchema,
        'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
        'X-Sandbox': XSandboxHeaderSchema,
        'Idempotent-Replayed': IdempotentReplayedHeaderSchema,
        RateLimit: RateLimitHeaderSchema,
        'RateLimit-Policy': RateLimitPolicyHeaderSchema,
        'X-Total-Count': XTotalCountHeaderSchema,
        'X-Truncated': XTruncatedHeaderSchema,
      }),
      content: {
        'application/json': {
          schema: AdvertiserLandingDomainsSchema,
          examples: {
            brand: {
              summary: 'A brand and its dealer',
              value: {
                advertiser: 'Acme Outdoor GmbH',
                landing_domain_count: 2,
                landing_domains: [
                  { domain: 'acme-outdoor.com', creatives: 380, last_seen: '2026-11-20' },
                  { domain: 'acme-outdoor.de', creatives: 32, last_seen: '2026-11-02' },
                ],
                truncated: false,
                credits_charged: 15,
                credits_remaining: 167,
              },
            },
          },
        },
        'text/csv': {
          schema: z
            .string()
            .regex(/^domain,creatives,last_seen\r\n/)
            .max(140000)
            .openapi({
              description:
                'The rows of the JSON answer\'s list, in its order, as RFC 4180 CSV (see "Exports" above).',
            }),
          examples: {
            csv: {
              value:
                'domain,creatives,last_seen\r\nacme-outdoor.com,380,2026-11-20\r\nacme-outdoor.de,32,2026-11-18\r\n',
            },
          },
        },
      },
    },
    400: NameParameterErrorResponse,
    401: UnauthorizedResponse,
    402: InsufficientCredits15Response,
    403: DailyCapReachedResponse,
    404: AdvertiserNotFound15Response,
    405: MethodNotAllowedResponse,
    406: NotAcceptableResponse,
    414: UriTooLongResponse,
    422: IdempotencyKeyReusedResponse,
    429: RateLimitedResponse,
    431: HeadersTooLargeResponse,
    500: InternalErrorResponse,
    503: UnavailableResponse,
  },
})

export const getApiV1BrandbidRoute = createRoute({
  method: 'get',
  path: '/api/v1/brandbid',
  tags: ['Domains'],
  summary: 'Brand-bid report',
  description:
    "Which advertiser identifiers send ads to the root domain, one row per identifier, each\nwith its creatives landing on this domain, the first and last dates seen there, and its\nwhole landing-domain footprint (`landing_domain_count` over all its observations, and the\n`profile` derived from it: 1 `single_domain`, 2 to 4 `few_domains`, 5 or more\n`multi_domain_intermediary`). Ordered by `creatives` descending, then `last_seen`\ndescending, then `advertiser_id` ascending. At most 100 rows; `advertiser_count` is the\nfull total and equals the domain summary's `advertisers`. A crawled domain without ads\nanswers `200` with `advertiser_count: 0` and an empty list. The profile is a descriptive\nsignal, not a verdict of trademark infringement. Costs 60 credits.\n",
  operationId: 'getBrandBidReport',
  request: {
    query: z.object({ domain: DomainParamsSchema }),
    headers: z.object({ 'Idempotency-Key': IdempotencyKeyParamsSchema }),
  },
  responses: {
    200: {
      description: 'The brand-bid report. Charged.',
      headers: z.object({
        'X-Request-Id': XRequestIdHeaderSchema,
        'Cache-Control': CacheControlHeaderSchema,
        'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
        'X-Credits-Charged': XCreditsChargedHeaderSchema,
        'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
        'X-Sandbox': XSandboxHeaderSchema,
        'Idempotent-Replayed': IdempotentReplayedHeaderSchema,
        RateLimit: RateLimitHeaderSchema,
        'RateLimit-Policy': RateLimitPolicyHeaderSchema,
        'X-Total-Count': XTotalCountHeaderSchema,
        'X-Truncated': XTruncatedHeaderSchema,
      }),
      content: {
        'application/json': {
          schema: BrandBidReportSchema,
          examples: {
            brand: {
              summary: "Two advertisers sending ads to a brand's domain",
              value: {
                domain: 'acme-outdoor.com',
                advertiser_count: 2,
                advertisers: [
                  {
                    advertiser: 'Acme Outdoor GmbH',
                    advertiser_id: 'AR01234567890123456789',
                    creatives: 380,
                    first_seen: '2024-02-11',
                    last_seen: '2026-11-20',
                    landing_domain_count: 2,
                    profile: 'few_domains',
                  },
                  {
                    advertiser: 'Clickwave Media Ltd',
                    advertiser_id: 'AR55500011122233344455',
                    creatives: 7,
                    first_seen: '2026-06-03',
                    last_seen: '2026-11-19',
                    landing_domain_count: 612,
                    profile: 'multi_domain_intermediary',
                  },
                ],
                credits_charged: 60,
                credits_remaining: 107,
              },
            },
          },
        },
        'text/csv': {
          schema: z
            .string()
            .regex(
              /^advertiser,advertiser_id,creatives,first_seen,last_seen,landing_domain_count,profile\r\n/,
            )
            .max(120000)
            .openapi({
              description:
                'The rows of the JSON answer\'s list, in its order, as RFC 4180 CSV (see "Exports" above).',
            }),
          examples: {
            csv: {
              value:
                'advertiser,advertiser_id,creatives,first_seen,last_seen,landing_domain_count,profile\r\nAcme Outdoor GmbH,AR01234567890123456789,380,2024-02-11,2026-11-20,2,few_domains\r\n"Clickwave Media, Ltd",AR55500011122233344455,7,2026-06-03,2026-11-19,612,multi_domain_intermediary\r\n',
            },
          },
        },
      },
    },
    400: DomainParameterErrorResponse,
    401: UnauthorizedResponse,
    402: InsufficientCredits60Response,
    403: DailyCapReachedResponse,
    404: DomainNotFound60Response,
    405: MethodNotAllowedResponse,
    406: NotAcceptableResponse,
    414: UriTooLongResponse,
    422: IdempotencyKeyReusedResponse,
    429: RateLimitedResponse,
    431: HeadersTooLargeResponse,
    500: InternalErrorResponse,
    503: UnavailableResponse,
  },
})

export const getApiV1AdvertisersSearchRoute = createRoute({
  method: 'get',
  path: '/api/v1/advertisers/search',
  tags: ['Advertisers'],
  summary: 'Advertiser search',
  description:
    "Finds the advertiser names that match `q`, for when the exact name is not known: up to 20\nnames, best first. A name matches, in this order of rank: exactly (byte for byte), equal\nin folded form (`acme outdoor` for `Acme Outdoor`, `сбербанк россии` for\n`Сбербанк России`, `dab zywnosc` for `Dąb Żywność`), starting with `q` in folded form\n(`acme` for `Acme Outdoor`, `東京` for `東京ガス株式会社`), or similar to it. A similar name\nshares with `q` a word, or a word one edit away (a letter changed, added, dropped, or two\nswapped, in words of 4 or more letters, 2 in Hangul), or words `q` writes joined or split\n(`acmeoutdoor`, `acme out door`); in scripts written without spaces (Chinese, Japanese,\nThai, Lao, Khmer, Myanmar) a pair of adjacent characters, or a Han character. Only the\nnames of `q`'s rarest such words are compared: a word as common as a legal form (`GmbH`,\n`株式会社`, `ООО`) finds names only when `q` has nothing rarer. Similarity is the better of\nPostgreSQL's trigram similarity of the folded forms and, when both have letters outside\nASCII or at most 8 characters, the share of their character pairs in common, word by word\n(Han characters also alone); a name is also compared with `q` without its words as common\nas a legal form (in one name in 200), at nine tenths; at least 0.3. So `acme outdor` finds\n`Acme Outdoor`, `acme gmbh` finds `Acme` first, `harirs`\n`Harris`, `Сбербанк Росии` `Сбербанк России`, `東京ガス株式會社` `東京ガス株式会社`, in any\nscript. The folded form is the same\nin every script: Unicode case folding (`ß` as `ss`; Turkish `İ`, `I` and `ı` as `i`),\naccents and vowel points removed in Latin, Greek, Cyrillic, Armenian, Georgian, Hebrew and\nArabic (kept where they are part of the letter: Indic scripts, Thai, kana), compatibility\nforms opened (`ＡＢＣ` as `abc`, `ﬁ` as `fi`, `㈜` as `(주)`, `Œ` as `oe`), invisible\ncharacters dropped and white space collapsed; traditional and simplified Chinese, or\nhiragana and katakana, stay different. Within a rank, the folded names in code-point order,\nwhatever their script (similar names: the most similar first, then in that order), ties\nby name. Each entry is an advertiser as the other endpoints\nunderstand it (every identifier whose current name it is) with its identifiers,\ncreatives, country and last date seen. `truncated` says that more names matched than\nthe 20 returned. No match answers `200` with an empty list. Costs 1 credit.\n",
  operationId: 'searchAdvertisers',
  request: {
    query: z.object({ q: QParamsSchema }),
    headers: z.object({ 'Idempotency-Key': IdempotencyKeyParamsSchema }),
  },
  responses: {
    200: {
      description: 'The matching advertisers, best first. Charged.',
      headers: z.object({
        'X-Request-Id': XRequestIdHeaderSchema,
        'Cache-Control': CacheControlHeaderSchema,
        'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
        'X-Credits-Charged': XCreditsChargedHeaderSchema,
        'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
        'X-Sandbox': XSandboxHeaderSchema,
        'Idempotent-Replayed': IdempotentReplayedHeaderSchema,
        RateLimit: RateLimitHeaderSchema,
        'RateLimit-Policy': RateLimitPolicyHeaderSchema,
      }),
      content: {
        'application/json': {
          schema: AdvertiserSearchSchema,
          examples: {
            typed: {
              summary: 'A name typed in lower case',
              value: {
                q: 'acme outdoor',
                advertisers: [
                  {
                    advertiser: 'Acme Outdoor',
                    match: 'case_insensitive',
                    advertiser_ids: ['AR01234567890123456789'],
                    creatives: 412,
                    country: 'DE',
                    last_seen: '2026-11-20',
                  },
                  {
                    advertiser: 'Acme Outdoor GmbH',
                    match: 'prefix',
                    advertiser_ids: ['AR09876543210987654321', 'AR11111111111111111111'],
                    creatives: 57,
                    country: 'AT',
                    last_seen: '2026-11-02',
                  },
                ],
                truncated: false,
                credits_charged: 1,
                credits_remaining: 196,
              },
            },
            none: {
              summary: 'Nothing matches',
              value: {
                q: 'zzqx',
                advertisers: [],
                truncated: false,
                credits_charged: 1,
                credits_remaining: 195,
              },
            },
          },
        },
      },
    },
    400: SearchParameterErrorResponse,
    401: UnauthorizedResponse,
    402: InsufficientCredits1Response,
    403: DailyCapReachedResponse,
    405: MethodNotAllowedResponse,
    406: NotAcceptableResponse,
    414: UriTooLongResponse,
    422: IdempotencyKeyReusedResponse,
    429: RateLimitedResponse,
    431: HeadersTooLargeResponse,
    500: InternalErrorResponse,
    503: UnavailableResponse,
  },
})

export const getApiV1AccountRoute = createRoute({
  method: 'get',
  path: '/api/v1/account',
  tags: ['Account'],
  summary: 'Your balance',
  description:
    "The balance of the account that owns the key, and the key's display prefix, so a client can\ncheck its credits without spending any. Free: costs 0 credits and writes nothing to the ledger.\nIt counts towards the key's rate limit; an `Idempotency-Key` header is ignored.\n",
  operationId: 'getAccount',
  responses: {
    200: {
      description: "The caller's balance. Free.",
      headers: z.object({
        'X-Request-Id': XRequestIdHeaderSchema,
        'Cache-Control': CacheControlHeaderSchema,
        'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
        'X-Credits-Charged': XCreditsChargedHeaderSchema,
        'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
        'X-Sandbox': XSandboxHeaderSchema,
        RateLimit: RateLimitHeaderSchema,
        'RateLimit-Policy': RateLimitPolicyHeaderSchema,
      }),
      content: {
        'application/json': {
          schema: AccountSchema,
          examples: { funded: { value: { key_prefix: 'alk_7Hq2Xv0p', balance: 107 } } },
        },
      },
    },
    401: UnauthorizedResponse,
    405: MethodNotAllowedResponse,
    406: NotAcceptableResponse,
    414: UriTooLongResponse,
    429: RateLimitedResponse,
    431: HeadersTooLargeResponse,
    500: InternalErrorResponse,
    503: UnavailableResponse,
  },
})

export const getApiV1AccountUsageRoute = createRoute({
  method: 'get',
  path: '/api/v1/account/usage',
  tags: ['Account'],
  summary: 'Your usage per day and operation',
  description:
    "The account's billed calls and the credits they cost, per UTC day and per operation, for\nevery day from `from` to `to` (both included; days without calls are listed with zeros, so\na chart can draw them). A call counts on the day it was charged; its refund, if the service\nfailed it, counts on that day too, so `credits` is what the day's calls finally cost. Free\ncalls (this one, the ledger, the balance) are not billed and not counted. The same numbers\nas the account page's chart. `daily_caps` lists the account's active keys that have a daily\ncap, with what each spent today (UTC). Free: costs 0 credits and writes nothing to the\nledger. It counts towards the key's rate limit; an `Idempotency-Key` header is ignored.\n",
  operationId: 'getAccountUsage',
  request: { query: z.object({ from: FromParamsSchema, to: ToParamsSchema }) },
  responses: {
    200: {
      description: "The account's usage in the range. Free.",
      headers: z.object({
        'X-Request-Id': XRequestIdHeaderSchema,
        'Cache-Control': CacheControlHeaderSchema,
        'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
        'X-Credits-Charged': XCreditsChargedHeaderSchema,
        'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
        'X-Sandbox': XSandboxHeaderSchema,
        RateLimit: RateLimitHeaderSchema,
        'RateLimit-Policy': RateLimitPolicyHeaderSchema,
      }),
      content: {
        'application/json': {
          schema: AccountUsageSchema,
          examples: {
            twoDays: {
              value: {
                from: '2026-11-22',
                to: '2026-11-23',
                total: { calls: 3, refunded_calls: 1, credits: 6 },
                days: [
                  { day: '2026-11-22', calls: 0, refunded_calls: 0, credits: 0, operations: [] },
                  {
                    day: '2026-11-23',
                    calls: 3,
                    refunded_calls: 1,
                    credits: 6,
                    operations: [
                      {
                        operation: 'getAdvertiserSummary',
                        calls: 2,
                        refunded_calls: 0,
                        credits: 6,
                        mcp_calls: 1,
                      },
                      {
                        operation: 'getDomainSummary',
                        calls: 1,
                        refunded_calls: 1,
                        credits: 0,
                        mcp_calls: 0,
                      },
                    ],
                  },
                ],
                daily_caps: [
                  {
                    key_prefix: 'alk_7Hq2Xv0p',
                    name: 'reporting script',
                    daily_cap: 300,
                    spent_today: 6,
                  },
                ],
              },
            },
          },
        },
      },
    },
    400: UsageParameterErrorResponse,
    401: UnauthorizedResponse,
    405: MethodNotAllowedResponse,
    406: NotAcceptableResponse,
    414: UriTooLongResponse,
    429: RateLimitedResponse,
    431: HeadersTooLargeResponse,
    500: InternalErrorResponse,
    503: UnavailableResponse,
  },
})

export const getApiV1AccountLedgerRoute = createRoute({
  method: 'get',
  path: '/api/v1/account/ledger',
  tags: ['Account'],
  summary: 'Your ledger',
  description:
    "Every change of the account's balance, newest first: grants, purchases, charges and\nrefunds, each with the balance after it. Pages hold up to `limit` entries; pass a page's\n`next_cursor` as `cursor` to read the next, older one (`null`: there is none). A page does\nnot shift while new entries arrive. The sum of every `amount` is the balance. Free: costs 0\ncredits and writes nothing to the ledger. It counts towards the key's rate limit; an\n`Idempotency-Key` header is ignored.\n",
  operationId: 'getAccountLedger',
  request: { query: z.object({ limit: LimitParamsSchema, cursor: CursorParamsSchema }) },
  responses: {
    200: {
      description: 'A page of the ledger, newest first. Free.',
      headers: z.object({
        'X-Request-Id': XRequestIdHeaderSchema,
        'Cache-Control': CacheControlHeaderSchema,
        'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
        'X-Credits-Charged': XCreditsChargedHeaderSchema,
        'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
        'X-Sandbox': XSandboxHeaderSchema,
        RateLimit: RateLimitHeaderSchema,
        'RateLimit-Policy': RateLimitPolicyHeaderSchema,
      }),
      content: {
        'application/json': {
          schema: AccountLedgerSchema,
          examples: {
            page: {
              value: {
                entries: [
                  {
                    id: 1042,
                    kind: 'refund',
                    amount: 3,
                    balance_after: 194,
                    key_prefix: 'alk_7Hq2Xv0p',
                    operation: 'getDomainSummary',
                    request_id: '9f0c1a52-6b1e-4f6e-9d43-0c6f4a1e2b77',
                    payment_reference: null,
                    refund_of: 1041,
                    channel: 'http',
                    created_at: '2026-11-23T10:15:02.112Z',
                  },
                  {
                    id: 1041,
                    kind: 'charge',
                    amount: -3,
                    balance_after: 191,
                    key_prefix: 'alk_7Hq2Xv0p',
                    operation: 'getDomainSummary',
                    request_id: '9f0c1a52-6b1e-4f6e-9d43-0c6f4a1e2b77',
                    payment_reference: null,
                    refund_of: null,
                    channel: 'http',
                    created_at: '2026-11-23T10:15:01.980Z',
                  },
                ],
                next_cursor: 'bGVkZ2VyOjEwNDE',
              },
            },
          },
        },
      },
    },
    400: LedgerParameterErrorResponse,
    401: UnauthorizedResponse,
    405: MethodNotAllowedResponse,
    406: NotAcceptableResponse,
    414: UriTooLongResponse,
    429: RateLimitedResponse,
    431: HeadersTooLargeResponse,
    500: InternalErrorResponse,
    503: UnavailableResponse,
  },
})

export const getApiV1WatchesRoute = createRoute({
  method: 'get',
  path: '/api/v1/watches',
  tags: ['Watches'],
  summary: 'Your watches',
  description:
    "The account's live watches of the key's dataset (live keys: the live watches; test keys:\nthe sandbox watches), newest first. Pages hold up to `limit` watches; pass a page's\n`next_cursor` as `cursor` to read the next, older one (`null`: there is none). Free: costs\n0 credits and writes nothing to the ledger. It counts towards the key's rate limit; an\n`Idempotency-Key` header is ignored.\n",
  operationId: 'listWatches',
  request: { query: z.object({ limit: LimitParamsSchema, cursor: CursorParamsSchema }) },
  responses: {
    200: {
      description: "A page of the account's watches, newest first. Free.",
      headers: z.object({
        'X-Request-Id': XRequestIdHeaderSchema,
        'Cache-Control': CacheControlHeaderSchema,
        'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
        'X-Credits-Charged': XCreditsChargedHeaderSchema,
        'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
        'X-Sandbox': XSandboxHeaderSchema,
        RateLimit: RateLimitHeaderSchema,
        'RateLimit-Policy': RateLimitPolicyHeaderSchema,
      }),
      content: {
        'application/json': {
          schema: WatchListSchema,
          examples: {
            page: {
              value: {
                watches: [
                  {
                    id: '3f1d2c4e-8a7b-4c6d-9e0f-1a2b3c4d5e6f',
                    kind: 'domain',
                    target: 'acme-outdoor.com',
                    sandbox: false,
                    created_at: '2026-11-23T10:15:01.980Z',
                  },
                ],
                next_cursor: null,
              },
            },
          },
        },
      },
    },
    400: LedgerParameterErrorResponse,
    401: UnauthorizedResponse,
    405: MethodNotAllowedResponse,
    406: NotAcceptableResponse,
    414: UriTooLongResponse,
    429: RateLimitedResponse,
    431: HeadersTooLargeResponse,
    500: InternalErrorResponse,
    503: UnavailableResponse,
  },
})

export const postApiV1WatchesRoute = createRoute({
  method: 'post',
  path: '/api/v1/watches',
  tags: ['Watches'],
  summary: 'Create a watch',
  description:
    'Starts a brand watch: after every load, hear of what started. A `domain` watch names a\nroot domain, host or URL (`target`, normalized exactly like the `domain` parameter of the\nlookups) and hears of every advertiser identifier that sends ads to it for the first time;\nan `advertiser` watch names an advertiser exactly as the lookups take it (the rules of the\n`name` parameter, byte for byte) and hears of every landing domain it uses for the first\ntime. The body is JSON in UTF-8, `{"kind": …, "target": …}`, at most 16 KiB, with\n`Content-Type: application/json`.\n\nAnswers `201` with the new watch and its `Location`; when the same watch (kind and\nnormalized target) is already live on the account, `200` with that watch, so creating a\nwatch twice is harmless. An account holds at most 1,000 live watches per dataset by default\n(the operator sets it with `WATCH_LIMIT`); one more answers `409 watch_limit_reached`.\nA watch created with a test key is a sandbox watch: it watches the sandbox dataset, and\nonly test keys see it. Free: costs 0 credits and writes nothing to the ledger. It counts\ntowards the key\'s rate limit. An `Idempotency-Key` makes a retry replay the first `201` or\n`200` (status and body), and the key with another body answers `422 idempotency_key_reused`.\n',
  operationId: 'createWatch',
  request: {
    headers: z.object({ 'Idempotency-Key': IdempotencyKeyParamsSchema }),
    body: {
      content: {
        'application/json': {
          schema: WatchRequestSchema,
          examples: {
            domain: {
              summary: 'A domain watch; the host is lower-cased and reduced to its root domain',
              value: { kind: 'domain', target: 'WWW.Acme-Outdoor.com' },
            },
            advertiser: {
              summary: 'An advertiser watch',
              value: { kind: 'advertiser', target: 'Acme Outdoor' },
            },
          },
        },
      },
      required: true,
    },
  },
  responses: {
    200: {
      description: 'The same watch was already live on the account; this is it. Free.',
      headers: z.object({
        'X-Request-Id': XRequestIdHeaderSchema,
        'Cache-Control': CacheControlHeaderSchema,
        'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
        'X-Credits-Charged': XCreditsChargedHeaderSchema,
        'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
        'X-Sandbox': XSandboxHeaderSchema,
        RateLimit: RateLimitHeaderSchema,
        'RateLimit-Policy': RateLimitPolicyHeaderSchema,
        'Idempotent-Replayed': IdempotentReplayedHeaderSchema,
      }),
      content: {
        'application/json': {
          schema: WatchSchema,
          examples: {
            domain: {
              value: {
                id: '3f1d2c4e-8a7b-4c6d-9e0f-1a2b3c4d5e6f',
                kind: 'domain',
                target: 'acme-outdoor.com',
                sandbox: false,
                created_at: '2026-11-23T10:15:01.980Z',
              },
            },
          },
        },
      },
    },
    201: {
      description: 'The watch was created. Free.',
      headers: z.object({
        'X-Request-Id': XRequestIdHeaderSchema,
        'Cache-Control': CacheControlHeaderSchema,
        'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
        'X-Credits-Charged': XCreditsChargedHeaderSchema,
        'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
        'X-Sandbox': XSandboxHeaderSchema,
        RateLimit: RateLimitHeaderSchema,
        'RateLimit-Policy': RateLimitPolicyHeaderSchema,
        'Idempotent-Replayed': IdempotentReplayedHeaderSchema,
        Location: LocationHeaderSchema,
      }),
      content: {
        'application/json': {
          schema: WatchSchema,
          examples: {
            domain: {
              value: {
                id: '3f1d2c4e-8a7b-4c6d-9e0f-1a2b3c4d5e6f',
                kind: 'domain',
                target: 'acme-outdoor.com',
                sandbox: false,
                created_at: '2026-11-23T10:15:01.980Z',
              },
            },
          },
        },
      },
    },
    400: WatchRequestErrorResponse,
    401: UnauthorizedResponse,
    405: MethodNotAllowedResponse,
    406: NotAcceptableResponse,
    409: WatchLimitReachedResponse,
    414: UriTooLongResponse,
    415: UnsupportedMediaTypeResponse,
    422: IdempotencyKeyReusedResponse,
    429: RateLimitedResponse,
    431: HeadersTooLargeResponse,
    500: InternalErrorResponse,
    503: UnavailableResponse,
  },
})

export const getApiV1WatchesIdRoute = createRoute({
  method: 'get',
  path: '/api/v1/watches/{id}',
  tags: ['Watches'],
  summary: 'A watch',
  description:
    "One live watch of the account, by its id. An id that is not a live watch of the key's\naccount and dataset (unknown, deleted, another account's, or a sandbox watch asked with a\nlive key and the reverse) answers `404 watch_not_found`. Free: costs 0 credits and writes\nnothing to the ledger. It counts towards the key's rate limit.\n",
  operationId: 'getWatch',
  request: { params: z.object({ id: WatchIdParamsSchema }) },
  responses: {
    200: {
      description: 'The watch. Free.',
      headers: z.object({
        'X-Request-Id': XRequestIdHeaderSchema,
        'Cache-Control': CacheControlHeaderSchema,
        'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
        'X-Credits-Charged': XCreditsChargedHeaderSchema,
        'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
        'X-Sandbox': XSandboxHeaderSchema,
        RateLimit: RateLimitHeaderSchema,
        'RateLimit-Policy': RateLimitPolicyHeaderSchema,
      }),
      content: {
        'application/json': {
          schema: WatchSchema,
          examples: {
            domain: {
              value: {
                id: '3f1d2c4e-8a7b-4c6d-9e0f-1a2b3c4d5e6f',
                kind: 'domain',
                target: 'acme-outdoor.com',
                sandbox: false,
                created_at: '2026-11-23T10:15:01.980Z',
              },
            },
          },
        },
      },
    },
    400: InvalidWatchIdResponse,
    401: UnauthorizedResponse,
    404: WatchNotFoundResponse,
    405: MethodNotAllowedResponse,
    406: NotAcceptableResponse,
    414: UriTooLongResponse,
    429: RateLimitedResponse,
    431: HeadersTooLargeResponse,
    500: InternalErrorResponse,
    503: UnavailableResponse,
  },
})

export const deleteApiV1WatchesIdRoute = createRoute({
  method: 'delete',
  path: '/api/v1/watches/{id}',
  tags: ['Watches'],
  summary: 'Delete a watch',
  description:
    "Stops a watch: it matches nothing more, and it is gone for the account (`404` afterwards,\nand a second delete answers `404 watch_not_found`). The events it found stay in the\ndeliveries and charges that name them. Answers `204` without a body. Free: costs 0\ncredits and writes nothing to the ledger. It counts towards the key's rate limit.\n",
  operationId: 'deleteWatch',
  request: { params: z.object({ id: WatchIdParamsSchema }) },
  responses: {
    204: {
      description: 'The watch is deleted. Free.',
      headers: z.object({
        'X-Request-Id': XRequestIdHeaderSchema,
        'Cache-Control': CacheControlHeaderSchema,
        'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
        'X-Credits-Charged': XCreditsChargedHeaderSchema,
        'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
        'X-Sandbox': XSandboxHeaderSchema,
        RateLimit: RateLimitHeaderSchema,
        'RateLimit-Policy': RateLimitPolicyHeaderSchema,
      }),
    },
    400: InvalidWatchIdResponse,
    401: UnauthorizedResponse,
    404: WatchNotFoundResponse,
    405: MethodNotAllowedResponse,
    406: NotAcceptableResponse,
    414: UriTooLongResponse,
    429: RateLimitedResponse,
    431: HeadersTooLargeResponse,
    500: InternalErrorResponse,
    503: UnavailableResponse,
  },
})

export const getApiV1WatchesIdEventsRoute = createRoute({
  method: 'get',
  path: '/api/v1/watches/{id}/events',
  tags: ['Watches'],
  summary: 'What a watch found',
  description:
    "The changes a live watch found, newest first: for a domain watch each advertiser\nidentifier that sent ads to the domain for the first time (`new_advertiser`), for an\nadvertiser watch each landing domain one of its identifiers used for the first time\n(`new_landing_domain`). Each change is reported once per watch. Pages hold up to `limit`\nevents; pass a page's `next_cursor` as `cursor` to read the next, older one (`null`: there\nis none). Free: costs 0 credits and writes nothing to the ledger. It counts towards the\nkey's rate limit.\n",
  operationId: 'listWatchEvents',
  request: {
    params: z.object({ id: WatchIdParamsSchema }),
    query: z.object({ limit: LimitParamsSchema, cursor: CursorParamsSchema }),
  },
  responses: {
    200: {
      description: "A page of the watch's events, newest first. Free.",
      headers: z.object({
        'X-Request-Id': XRequestIdHeaderSchema,
        'Cache-Control': CacheControlHeaderSchema,
        'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
        'X-Credits-Charged': XCreditsChargedHeaderSchema,
        'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
        'X-Sandbox': XSandboxHeaderSchema,
        RateLimit: RateLimitHeaderSchema,
        'RateLimit-Policy': RateLimitPolicyHeaderSchema,
      }),
      content: {
        'application/json': {
          schema: WatchEventListSchema,
          examples: {
            page: {
              value: {
                events: [
                  {
                    id: 981,
                    watch_id: '3f1d2c4e-8a7b-4c6d-9e0f-1a2b3c4d5e6f',
                    change: 'new_advertiser',
                    advertiser: 'Acme Outdoor Deals',
                    advertiser_id: 'AR04221876539012345678',
                    landing_domain: 'acme-outdoor.com',
                    first_seen: '2026-11-22',
                    landing_domain_count: 14,
                    profile: 'multi_domain_intermediary',
                    found_at: '2026-11-23T02:10:44.512Z',
                  },
                ],
                next_cursor: null,
              },
            },
          },
        },
      },
    },
    400: WatchEventsParameterErrorResponse,
    401: UnauthorizedResponse,
    404: WatchNotFoundResponse,
    405: MethodNotAllowedResponse,
    406: NotAcceptableResponse,
    414: UriTooLongResponse,
    429: RateLimitedResponse,
    431: HeadersTooLargeResponse,
    500: InternalErrorResponse,
    503: UnavailableResponse,
  },
})

export const postApiV1WatchesIdTestRoute = createRoute({
  method: 'post',
  path: '/api/v1/watches/{id}/test',
  tags: ['Watches'],
  summary: "Send a watch's test event",
  description:
    "Posts a sample `watch.news` for this watch to the account's webhook (the one set on the\naccount page for alerts) now: signed like real news, marked `test: true` and\n`credits_charged: 0`, so an integrator can check that the endpoint receives and verifies\nit. Answers how the endpoint answered (its HTTP status, or why the post failed); a post\nthat fails is not retried. Test events share the hourly limits of the alert test events\n(per account, and per receiving host): over them, `409 test_event_limit_reached`; without\na webhook, `409 no_webhook`. No body is read. Free: costs 0 credits and writes nothing to\nthe ledger. It counts towards the key's rate limit.\n",
  operationId: 'sendWatchTestEvent',
  request: { params: z.object({ id: WatchIdParamsSchema }) },
  responses: {
    200: {
      description: 'The test event was posted; how the webhook answered. Free.',
      headers: z.object({
        'X-Request-Id': XRequestIdHeaderSchema,
        'Cache-Control': CacheControlHeaderSchema,
        'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
        'X-Credits-Charged': XCreditsChargedHeaderSchema,
        'X-Credits-Remaining': XCreditsRemainingHeaderSchema,
        'X-Sandbox': XSandboxHeaderSchema,
        RateLimit: RateLimitHeaderSchema,
        'RateLimit-Policy': RateLimitPolicyHeaderSchema,
      }),
      content: {
        'application/json': {
          schema: WatchTestEventResultSchema,
          examples: {
            accepted: {
              value: {
                event_id: 'watch_news_test_5b0c9a1e7d3f2a4b6c8e0d1f',
                delivered: true,
                status: 200,
                failure: null,
              },
            },
          },
        },
      },
    },
    400: InvalidWatchIdResponse,
    401: UnauthorizedResponse,
    404: WatchNotFoundResponse,
    405: MethodNotAllowedResponse,
    406: NotAcceptableResponse,
    409: WatchTestEventRefusedResponse,
    414: UriTooLongResponse,
    429: RateLimitedResponse,
    431: HeadersTooLargeResponse,
    500: InternalErrorResponse,
    503: UnavailableResponse,
  },
})

export const getHealthzRoute = createRoute({
  method: 'get',
  path: '/healthz',
  tags: ['Operations'],
  summary: 'Liveness',
  description:
    'Answers `200` while the process runs and serves HTTP. It does not touch the database, so an\norchestrator restarts the service only when the process itself is stuck, not when the\ndatabase is away (that is what `/readyz` reports). Free, without a key or credit headers.\n',
  operationId: 'getHealth',
  responses: {
    200: {
      description: 'The process is up.',
      headers: z.object({
        'X-Request-Id': XRequestIdHeaderSchema,
        'Cache-Control': CacheControlHeaderSchema,
        'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
      }),
      content: {
        'application/json': { schema: HealthSchema, examples: { up: { value: { status: 'ok' } } } },
      },
    },
    405: MethodNotAllowedResponse,
    414: UriTooLongResponse,
    431: HeadersTooLargeResponse,
  },
  security: [],
})

export const getReadyzRoute = createRoute({
  method: 'get',
  path: '/readyz',
  tags: ['Operations'],
  summary: 'Readiness',
  description:
    'Answers `200` when the database answers within a short timeout (2 seconds unless\n`READYZ_TIMEOUT_MS` says otherwise) and has every migration this version of the service\nships. Otherwise it answers `503 unavailable` with `Retry-After`, within that timeout, so a\nload balancer sends calls only to an instance that can serve them. Free, without a key or\ncredit headers.\n\nWith read replicas (`DATABASE_READ_URL`), the answer also lists each database, the primary\nfirst, with its state and how far it is behind the primary. Only the primary decides\nreadiness: a replica that is down or lagging is skipped by the lookups, which the primary\nthen answers, and never makes the instance unready.\n',
  operationId: 'getReadiness',
  responses: {
    200: {
      description: 'The database answers and is migrated; the service can serve calls.',
      headers: z.object({
        'X-Request-Id': XRequestIdHeaderSchema,
        'Cache-Control': CacheControlHeaderSchema,
        'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
      }),
      content: {
        'application/json': {
          schema: ReadinessSchema,
          examples: {
            ready: { value: { status: 'ready' } },
            withReplicas: {
              summary: 'With read replicas, one of them down',
              value: {
                status: 'ready',
                databases: [
                  {
                    database: 'db-primary.internal:5432/alk',
                    role: 'primary',
                    state: 'up',
                    lag_ms: 0,
                  },
                  {
                    database: 'db-replica-1.internal:5432/alk',
                    role: 'replica',
                    state: 'up',
                    lag_ms: 12,
                  },
                  {
                    database: 'db-replica-2.internal:5432/alk',
                    role: 'replica',
                    state: 'down',
                    lag_ms: null,
                  },
                ],
              },
            },
          },
        },
      },
    },
    405: MethodNotAllowedResponse,
    414: UriTooLongResponse,
    431: HeadersTooLargeResponse,
    503: UnavailableResponse,
  },
  security: [],
})

export const getMetricsRoute = createRoute({
  method: 'get',
  path: '/metrics',
  tags: ['Operations'],
  summary: 'Metrics',
  description:
    "The service's metrics in the Prometheus text exposition format: requests by operation and\nstatus, request duration by operation, credits charged and refunded by operation, the\ndatabase pool's size, open connections and queries in flight, with read replicas each\nreplica's state and lag and the lookups run on each database, and the process's own\nmetrics (CPU, memory, event loop, garbage collection). Labels name operations by their\n`operationId`, never by URL, so no key or query can appear in them. Free, without a key\nor credit headers; a deployment should expose it to its monitoring network only.\n",
  operationId: 'getMetrics',
  responses: {
    200: {
      description: 'The current metrics.',
      headers: z.object({
        'X-Request-Id': XRequestIdHeaderSchema,
        'Cache-Control': CacheControlHeaderSchema,
        'X-Content-Type-Options': XContentTypeOptionsHeaderSchema,
      }),
      content: {
        'text/plain': {
          schema: z
            .string()
            .regex(/^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* /)
            .max(1048576)
            .openapi({
              description: 'Prometheus text exposition format 0.0.4 (`text/plain; version=0.0.4`).',
            }),
          examples: {
            excerpt: {
              summary: 'An excerpt',
              value:
                '# HELP alk_http_requests_total Requests answered, by operation and status code.\n# TYPE alk_http_requests_total counter\nalk_http_requests_total{operation="getAdvertiserSummary",status="200"} 12\n# HELP alk_credits_charged_total Credits debited, by operation (refunds are counted apart).\n# TYPE alk_credits_charged_total counter\nalk_credits_charged_total{operation="getAdvertiserSummary"} 36\n',
            },
          },
        },
      },
    },
    405: MethodNotAllowedResponse,
    414: UriTooLongResponse,
    431: HeadersTooLargeResponse,
  },
  security: [],
})

export const watchNewsPostWebhook = {
  method: 'post',
  path: '/watchNews',
  tags: ['Watches'],
  summary: 'Brand watch news',
  description:
    'Sent after a load that found news for one of your watches: one post per watch per load,\nlisting every change found (see docs/watches.md). It goes to the webhook you set on the\naccount page (Alerts), signed like the low-balance alert: the header `Alk-Signature` is\n`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with your signing secret>`.\nAnswer any 2xx within 10 seconds to accept it; anything else is retried 7 more times with\nexponential backoff (30 s, then doubling, about an hour in all). The `id` is the same on every\nretry: drop repeats. A delivery with news costs `x-credit-cost` credits, charged once when it\nis queued for sending and refunded when it is never accepted; a sandbox watch\'s are free. A\nbalance that does not cover it holds the news (one email says so) until credits arrive.\n',
  operationId: 'watchNews',
  request: {
    body: { content: { 'application/json': { schema: WatchNewsEventSchema } }, required: true },
  },
  responses: {
    200: {
      description: 'Accepted (any 2xx). Anything else, or no answer within 10 seconds, is retried.',
    },
  },
}

export const lowBalanceAlertPostWebhook = {
  method: 'post',
  path: '/lowBalanceAlert',
  tags: ['Account'],
  summary: 'Low-balance alert',
  description:
    'Sent once when a charge takes the balance below the alert threshold you set on the account\npage (Alerts), to the same webhook and with the same signature and retries as watch news.\nThe `id` is the same on every retry of one alert. Free.\n',
  operationId: 'lowBalanceAlert',
  request: {
    body: {
      content: { 'application/json': { schema: LowBalanceAlertEventSchema } },
      required: true,
    },
  },
  responses: {
    200: {
      description: 'Accepted (any 2xx). Anything else, or no answer within 10 seconds, is retried.',
    },
  },
}

// Each route under its operationId.
export const getAdvertiserSummaryRoute = getApiV1AdvertiserRoute
export const getDomainSummaryRoute = getApiV1DomainRoute
export const getAdvertiserHistoryRoute = getApiV1AdvertiserHistoryRoute
export const getAdvertiserLandingDomainsRoute = getApiV1AdvertiserDomainsRoute
export const getBrandBidReportRoute = getApiV1BrandbidRoute
export const searchAdvertisersRoute = getApiV1AdvertisersSearchRoute
export const getAccountRoute = getApiV1AccountRoute
export const getAccountUsageRoute = getApiV1AccountUsageRoute
export const getAccountLedgerRoute = getApiV1AccountLedgerRoute
export const listWatchesRoute = getApiV1WatchesRoute
export const createWatchRoute = postApiV1WatchesRoute
export const getWatchRoute = getApiV1WatchesIdRoute
export const deleteWatchRoute = deleteApiV1WatchesIdRoute
export const listWatchEventsRoute = getApiV1WatchesIdEventsRoute
export const sendWatchTestEventRoute = postApiV1WatchesIdTestRoute
export const getHealthRoute = getHealthzRoute
export const getReadinessRoute = getReadyzRoute
