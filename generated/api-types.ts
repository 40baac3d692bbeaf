// Generated from openapi.yaml by `npm run generate`. Do not edit.
export type paths = {
    "/api/v1/advertiser": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Advertiser summary
         * @description Merges every advertiser identifier whose current name equals `name` and aggregates them:
         *     distinct creatives, distinct landing domains, the last date seen, the country of the
         *     identifier with the most creatives (ties: latest `last_seen`, then smallest identifier),
         *     and the manual `advertiser_type` label. No time dimension: month-by-month data comes from
         *     `/api/v1/advertiser/history`. Costs 3 credits, also when the advertiser is not found.
         */
        get: operations["getAdvertiserSummary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/domain": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Domain summary
         * @description Reports on one root domain: how many distinct advertiser identifiers run ads landing on
         *     it, when it was last crawled, and whether any ad lands on it. A domain that was crawled
         *     but has no ads answers `200` with `has_data: false` and `advertisers: 0`; a domain with
         *     neither ads nor crawls answers `404` (charged). Costs 3 credits.
         */
        get: operations["getDomainSummary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/advertiser/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Advertiser history, month by month
         * @description Distinct creatives and distinct landing domains of the advertiser (all identifiers of the
         *     name) per calendar month (UTC), oldest first. The window is the current month and the 35
         *     before it; it starts later when the advertiser was first seen later. `window_start` is the
         *     first day of the first month returned. Every month of the window has an entry, months
         *     without activity included with zeros. An advertiser whose activity is all older than the
         *     window answers `200` with the nominal `window_start` and 36 zero months. The website shows
         *     a longer history than the API does. Costs 9 credits.
         */
        get: operations["getAdvertiserHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/advertiser/domains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Landing domains of an advertiser
         * @description The landing domains of the advertiser (all identifiers of the name), each with its
         *     distinct creatives and the last date seen there. Ordered by `creatives` descending, then
         *     `last_seen` descending, then `domain` ascending. At most 500 entries;
         *     `landing_domain_count` is the full total and `truncated` is true when entries were cut.
         *     One or two domains usually mean the brand itself or its dealer; a very large number of
         *     unrelated domains usually means an intermediary. Costs 15 credits.
         */
        get: operations["getAdvertiserLandingDomains"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/brandbid": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Brand-bid report
         * @description Which advertiser identifiers send ads to the root domain, one row per identifier, each
         *     with its creatives landing on this domain, the first and last dates seen there, and its
         *     whole landing-domain footprint (`landing_domain_count` over all its observations, and the
         *     `profile` derived from it: 1 `single_domain`, 2 to 4 `few_domains`, 5 or more
         *     `multi_domain_intermediary`). Ordered by `creatives` descending, then `last_seen`
         *     descending, then `advertiser_id` ascending. At most 100 rows; `advertiser_count` is the
         *     full total and equals the domain summary's `advertisers`. A crawled domain without ads
         *     answers `200` with `advertiser_count: 0` and an empty list. The profile is a descriptive
         *     signal, not a verdict of trademark infringement. Costs 60 credits.
         */
        get: operations["getBrandBidReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/advertisers/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Advertiser search
         * @description Finds the advertiser names that match `q`, for when the exact name is not known: up to 20
         *     names, best first. A name matches, in this order of rank: exactly (byte for byte), equal
         *     in folded form (`acme outdoor` for `Acme Outdoor`, `сбербанк россии` for
         *     `Сбербанк России`, `dab zywnosc` for `Dąb Żywność`), starting with `q` in folded form
         *     (`acme` for `Acme Outdoor`, `東京` for `東京ガス株式会社`), or similar to it. A similar name
         *     shares with `q` a word, or a word one edit away (a letter changed, added, dropped, or two
         *     swapped, in words of 4 or more letters, 2 in Hangul), or words `q` writes joined or split
         *     (`acmeoutdoor`, `acme out door`); in scripts written without spaces (Chinese, Japanese,
         *     Thai, Lao, Khmer, Myanmar) a pair of adjacent characters, or a Han character. Only the
         *     names of `q`'s rarest such words are compared: a word as common as a legal form (`GmbH`,
         *     `株式会社`, `ООО`) finds names only when `q` has nothing rarer. Similarity is the better of
         *     PostgreSQL's trigram similarity of the folded forms and, when both have letters outside
         *     ASCII or at most 8 characters, the share of their character pairs in common, word by word
         *     (Han characters also alone); a name is also compared with `q` without its words as common
         *     as a legal form (in one name in 200), at nine tenths; at least 0.3. So `acme outdor` finds
         *     `Acme Outdoor`, `acme gmbh` finds `Acme` first, `harirs`
         *     `Harris`, `Сбербанк Росии` `Сбербанк России`, `東京ガス株式會社` `東京ガス株式会社`, in any
         *     script. The folded form is the same
         *     in every script: Unicode case folding (`ß` as `ss`; Turkish `İ`, `I` and `ı` as `i`),
         *     accents and vowel points removed in Latin, Greek, Cyrillic, Armenian, Georgian, Hebrew and
         *     Arabic (kept where they are part of the letter: Indic scripts, Thai, kana), compatibility
         *     forms opened (`ＡＢＣ` as `abc`, `ﬁ` as `fi`, `㈜` as `(주)`, `Œ` as `oe`), invisible
         *     characters dropped and white space collapsed; traditional and simplified Chinese, or
         *     hiragana and katakana, stay different. Within a rank, the folded names in code-point order,
         *     whatever their script (similar names: the most similar first, then in that order), ties
         *     by name. Each entry is an advertiser as the other endpoints
         *     understand it (every identifier whose current name it is) with its identifiers,
         *     creatives, country and last date seen. `truncated` says that more names matched than
         *     the 20 returned. No match answers `200` with an empty list. Costs 1 credit.
         */
        get: operations["searchAdvertisers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your balance
         * @description The balance of the account that owns the key, and the key's display prefix, so a client can
         *     check its credits without spending any. Free: costs 0 credits and writes nothing to the ledger.
         *     It counts towards the key's rate limit; an `Idempotency-Key` header is ignored.
         */
        get: operations["getAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/account/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your usage per day and operation
         * @description The account's billed calls and the credits they cost, per UTC day and per operation, for
         *     every day from `from` to `to` (both included; days without calls are listed with zeros, so
         *     a chart can draw them). A call counts on the day it was charged; its refund, if the service
         *     failed it, counts on that day too, so `credits` is what the day's calls finally cost. Free
         *     calls (this one, the ledger, the balance) are not billed and not counted. The same numbers
         *     as the account page's chart. `daily_caps` lists the account's active keys that have a daily
         *     cap, with what each spent today (UTC). Free: costs 0 credits and writes nothing to the
         *     ledger. It counts towards the key's rate limit; an `Idempotency-Key` header is ignored.
         */
        get: operations["getAccountUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/account/ledger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your ledger
         * @description Every change of the account's balance, newest first: grants, purchases, charges and
         *     refunds, each with the balance after it. Pages hold up to `limit` entries; pass a page's
         *     `next_cursor` as `cursor` to read the next, older one (`null`: there is none). A page does
         *     not shift while new entries arrive. The sum of every `amount` is the balance. Free: costs 0
         *     credits and writes nothing to the ledger. It counts towards the key's rate limit; an
         *     `Idempotency-Key` header is ignored.
         */
        get: operations["getAccountLedger"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/watches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your watches
         * @description The account's live watches of the key's dataset (live keys: the live watches; test keys:
         *     the sandbox watches), newest first. Pages hold up to `limit` watches; pass a page's
         *     `next_cursor` as `cursor` to read the next, older one (`null`: there is none). Free: costs
         *     0 credits and writes nothing to the ledger. It counts towards the key's rate limit; an
         *     `Idempotency-Key` header is ignored.
         */
        get: operations["listWatches"];
        put?: never;
        /**
         * Create a watch
         * @description Starts a brand watch: after every load, hear of what started. A `domain` watch names a
         *     root domain, host or URL (`target`, normalized exactly like the `domain` parameter of the
         *     lookups) and hears of every advertiser identifier that sends ads to it for the first time;
         *     an `advertiser` watch names an advertiser exactly as the lookups take it (the rules of the
         *     `name` parameter, byte for byte) and hears of every landing domain it uses for the first
         *     time. The body is JSON in UTF-8, `{"kind": …, "target": …}`, at most 16 KiB, with
         *     `Content-Type: application/json`.
         *
         *     Answers `201` with the new watch and its `Location`; when the same watch (kind and
         *     normalized target) is already live on the account, `200` with that watch, so creating a
         *     watch twice is harmless. An account holds at most 1,000 live watches per dataset by default
         *     (the operator sets it with `WATCH_LIMIT`); one more answers `409 watch_limit_reached`.
         *     A watch created with a test key is a sandbox watch: it watches the sandbox dataset, and
         *     only test keys see it. Free: costs 0 credits and writes nothing to the ledger. It counts
         *     towards the key's rate limit. An `Idempotency-Key` makes a retry replay the first `201` or
         *     `200` (status and body), and the key with another body answers `422 idempotency_key_reused`.
         */
        post: operations["createWatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/watches/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The watch's id, as `createWatch` or `listWatches` gave it: a UUID in lower case. Anything
                 *     else answers `400 invalid_watch_id`, free; an id that is not a live watch of the key's
                 *     account and dataset answers `404 watch_not_found`, free.
                 */
                id: components["parameters"]["watchId"];
            };
            cookie?: never;
        };
        /**
         * A watch
         * @description One live watch of the account, by its id. An id that is not a live watch of the key's
         *     account and dataset (unknown, deleted, another account's, or a sandbox watch asked with a
         *     live key and the reverse) answers `404 watch_not_found`. Free: costs 0 credits and writes
         *     nothing to the ledger. It counts towards the key's rate limit.
         */
        get: operations["getWatch"];
        put?: never;
        post?: never;
        /**
         * Delete a watch
         * @description Stops a watch: it matches nothing more, and it is gone for the account (`404` afterwards,
         *     and a second delete answers `404 watch_not_found`). The events it found stay in the
         *     deliveries and charges that name them. Answers `204` without a body. Free: costs 0
         *     credits and writes nothing to the ledger. It counts towards the key's rate limit.
         */
        delete: operations["deleteWatch"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/watches/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The watch's id, as `createWatch` or `listWatches` gave it: a UUID in lower case. Anything
                 *     else answers `400 invalid_watch_id`, free; an id that is not a live watch of the key's
                 *     account and dataset answers `404 watch_not_found`, free.
                 */
                id: components["parameters"]["watchId"];
            };
            cookie?: never;
        };
        /**
         * What a watch found
         * @description The changes a live watch found, newest first: for a domain watch each advertiser
         *     identifier that sent ads to the domain for the first time (`new_advertiser`), for an
         *     advertiser watch each landing domain one of its identifiers used for the first time
         *     (`new_landing_domain`). Each change is reported once per watch. Pages hold up to `limit`
         *     events; pass a page's `next_cursor` as `cursor` to read the next, older one (`null`: there
         *     is none). Free: costs 0 credits and writes nothing to the ledger. It counts towards the
         *     key's rate limit.
         */
        get: operations["listWatchEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/watches/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The watch's id, as `createWatch` or `listWatches` gave it: a UUID in lower case. Anything
                 *     else answers `400 invalid_watch_id`, free; an id that is not a live watch of the key's
                 *     account and dataset answers `404 watch_not_found`, free.
                 */
                id: components["parameters"]["watchId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a watch's test event
         * @description Posts a sample `watch.news` for this watch to the account's webhook (the one set on the
         *     account page for alerts) now: signed like real news, marked `test: true` and
         *     `credits_charged: 0`, so an integrator can check that the endpoint receives and verifies
         *     it. Answers how the endpoint answered (its HTTP status, or why the post failed); a post
         *     that fails is not retried. Test events share the hourly limits of the alert test events
         *     (per account, and per receiving host): over them, `409 test_event_limit_reached`; without
         *     a webhook, `409 no_webhook`. No body is read. Free: costs 0 credits and writes nothing to
         *     the ledger. It counts towards the key's rate limit.
         */
        post: operations["sendWatchTestEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description Answers `200` while the process runs and serves HTTP. It does not touch the database, so an
         *     orchestrator restarts the service only when the process itself is stuck, not when the
         *     database is away (that is what `/readyz` reports). Free, without a key or credit headers.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness
         * @description Answers `200` when the database answers within a short timeout (2 seconds unless
         *     `READYZ_TIMEOUT_MS` says otherwise) and has every migration this version of the service
         *     ships. Otherwise it answers `503 unavailable` with `Retry-After`, within that timeout, so a
         *     load balancer sends calls only to an instance that can serve them. Free, without a key or
         *     credit headers.
         *
         *     With read replicas (`DATABASE_READ_URL`), the answer also lists each database, the primary
         *     first, with its state and how far it is behind the primary. Only the primary decides
         *     readiness: a replica that is down or lagging is skipped by the lookups, which the primary
         *     then answers, and never makes the instance unready.
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Metrics
         * @description The service's metrics in the Prometheus text exposition format: requests by operation and
         *     status, request duration by operation, credits charged and refunded by operation, the
         *     database pool's size, open connections and queries in flight, with read replicas each
         *     replica's state and lag and the lookups run on each database, and the process's own
         *     metrics (CPU, memory, event loop, garbage collection). Labels name operations by their
         *     `operationId`, never by URL, so no key or query can appear in them. Free, without a key
         *     or credit headers; a deployment should expose it to its monitoring network only.
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type webhooks = {
    watchNews: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Brand watch news
         * @description Sent after a load that found news for one of your watches: one post per watch per load,
         *     listing every change found (see docs/watches.md). It goes to the webhook you set on the
         *     account page (Alerts), signed like the low-balance alert: the header `Alk-Signature` is
         *     `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with your signing secret>`.
         *     Answer any 2xx within 10 seconds to accept it; anything else is retried 7 more times with
         *     exponential backoff (30 s, then doubling, about an hour in all). The `id` is the same on every
         *     retry: drop repeats. A delivery with news costs `x-credit-cost` credits, charged once when it
         *     is queued for sending and refunded when it is never accepted; a sandbox watch's are free. A
         *     balance that does not cover it holds the news (one email says so) until credits arrive.
         */
        post: operations["watchNews"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    lowBalanceAlert: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Low-balance alert
         * @description Sent once when a charge takes the balance below the alert threshold you set on the account
         *     page (Alerts), to the same webhook and with the same signature and retries as watch news.
         *     The `id` is the same on every retry of one alert. Free.
         */
        post: operations["lowBalanceAlert"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type components = {
    schemas: {
        Health: {
            /**
             * @description Always `ok`; the answer itself is the signal.
             * @constant
             */
            status: "ok";
        };
        DatabaseState: {
            /**
             * @description The database as `host:port/dbname`, never with its credentials.
             * @example db-replica-1.internal:5432/alk
             */
            database: string;
            /**
             * @description `primary`: debits, refunds and every write go here; `replica`: a streaming replica the lookups read from.
             * @enum {string}
             */
            role: "primary" | "replica";
            /**
             * @description `up`: serves (the primary always, since the instance is ready); `lagging`: a replica further behind the primary than `READ_MAX_LAG_MS` (1 second by default), skipped until it catches up; `down`: a replica that did not answer its last check (every 250 ms), skipped.
             * @enum {string}
             */
            state: "up" | "lagging" | "down";
            /** @description How far the replica's replay is behind the primary, in milliseconds, measured every 250 ms; `0` for the primary; `null` for a replica that is down. */
            lag_ms: number | null;
        };
        Readiness: {
            /**
             * @description Always `ready`; an instance that is not ready answers `503`.
             * @constant
             */
            status: "ready";
            /** @description Only with read replicas (`DATABASE_READ_URL`, at most 16); the primary, then each replica in the order configured. */
            databases?: components["schemas"]["DatabaseState"][];
        };
        /**
         * @description An advertiser name, byte for byte as observed; at most 512 code points and never only white space.
         * @example Acme Outdoor GmbH
         */
        AdvertiserName: string;
        /**
         * @description A registrable root domain in lower-case ASCII (internationalized labels in `xn--` form).
         * @example acme-outdoor.com
         */
        RootDomain: string;
        /**
         * @description An advertiser identifier, `AR` followed by digits.
         * @example AR01234567890123456789
         */
        AdvertiserId: string;
        /**
         * Format: date
         * @description A UTC calendar date, `YYYY-MM-DD`.
         * @example 2026-11-20
         */
        Date: string;
        /** @description An exact, distinct count. */
        Count: number;
        /** @description An exact, distinct count of at least one. */
        PositiveCount: number;
        /** @description A number of credits. Credits are whole numbers that JSON and JavaScript represent exactly (at most 2^53 − 1). */
        Credits: number;
        /** @description Credits deducted by this call (the operation's `x-credit-cost`). */
        CreditsCharged: components["schemas"]["Credits"];
        /** @description The account's balance after the deduction. */
        CreditsRemaining: components["schemas"]["Credits"];
        /** @description A sentence for people. Its wording may change; programs read `error`. */
        Message: string;
        AdvertiserSummary: {
            /** @description The advertiser name, as requested. */
            advertiser: components["schemas"]["AdvertiserName"];
            /** @description Every identifier whose current name is this name, ascending by code point. Not capped. */
            advertiser_ids: components["schemas"]["AdvertiserId"][];
            /** @description Distinct creatives over all the advertiser's identifiers. */
            creatives: components["schemas"]["Count"];
            /** @description Distinct landing domains over all the advertiser's identifiers. */
            landing_domains: components["schemas"]["Count"];
            /** @description The latest date any of the advertiser's identifiers was seen. */
            last_seen: components["schemas"]["Date"];
            /** @description ISO 3166-1 alpha-2 country of the identifier with the most creatives (ties: latest `last_seen`, then smallest identifier). */
            country: string;
            /** @description A manual label. `null` means nobody has classified the advertiser yet; it does not mean the advertiser is not an agency. */
            advertiser_type: components["schemas"]["AdvertiserType"] | null;
            credits_charged: components["schemas"]["CreditsCharged"];
            credits_remaining: components["schemas"]["CreditsRemaining"];
        };
        /**
         * @description A manual label of an advertiser.
         * @enum {string}
         */
        AdvertiserType: "agency" | "direct";
        /**
         * @description `single_domain` for 1 landing domain, `few_domains` for 2 to 4, `multi_domain_intermediary` for 5 or more. A descriptive signal, not a verdict.
         * @enum {string}
         */
        Profile: "single_domain" | "few_domains" | "multi_domain_intermediary";
        DomainSummary: {
            /** @description The normalized root domain. */
            domain: components["schemas"]["RootDomain"];
            /** @description Distinct advertiser identifiers with an observation landing on the domain. */
            advertisers: components["schemas"]["Count"];
            /** @description The latest crawl, `YYYY-MM-DD HH:MM:SS` in UTC; `null` when never crawled. */
            last_crawled: string | null;
            /** @description True when at least one observation lands on the domain. */
            has_data: boolean;
            credits_charged: components["schemas"]["CreditsCharged"];
            credits_remaining: components["schemas"]["CreditsRemaining"];
        };
        AdvertiserHistory: {
            /** @description The advertiser name, as requested. */
            advertiser: components["schemas"]["AdvertiserName"];
            /** @description The first day of the first month returned. */
            window_start: components["schemas"]["Date"];
            /** @description One entry per calendar month from `window_start` to the current month (UTC), oldest first; at most 36. */
            months: components["schemas"]["HistoryMonth"][];
            credits_charged: components["schemas"]["CreditsCharged"];
            credits_remaining: components["schemas"]["CreditsRemaining"];
        };
        HistoryMonth: {
            /** @description The calendar month, `YYYY-MM`. */
            month: string;
            /** @description Distinct creatives observed in the month, over all identifiers of the name. */
            creatives: components["schemas"]["Count"];
            /** @description Distinct landing domains observed in the month, over all identifiers of the name. */
            domains: components["schemas"]["Count"];
        };
        AdvertiserLandingDomains: {
            /** @description The advertiser name, as requested. */
            advertiser: components["schemas"]["AdvertiserName"];
            /** @description The full number of landing domains, not limited by the cap of 500. */
            landing_domain_count: components["schemas"]["PositiveCount"];
            /** @description At most 500 entries, by `creatives` descending, then `last_seen` descending, then `domain` ascending. */
            landing_domains: components["schemas"]["LandingDomain"][];
            /** @description True when the list was cut at 500, so it holds fewer entries than `landing_domain_count`. */
            truncated: boolean;
            credits_charged: components["schemas"]["CreditsCharged"];
            credits_remaining: components["schemas"]["CreditsRemaining"];
        };
        LandingDomain: {
            /** @description The landing root domain. */
            domain: components["schemas"]["RootDomain"];
            /** @description Distinct creatives of the advertiser landing on this domain. */
            creatives: components["schemas"]["PositiveCount"];
            /** @description The latest date an ad of the advertiser was seen landing here. */
            last_seen: components["schemas"]["Date"];
        };
        BrandBidReport: {
            /** @description The normalized root domain queried. */
            domain: components["schemas"]["RootDomain"];
            /** @description All identifiers landing on the domain, not capped at 100; equals the domain summary's `advertisers`. */
            advertiser_count: components["schemas"]["Count"];
            /** @description At most 100 rows, by `creatives` descending, then `last_seen` descending, then `advertiser_id` ascending. */
            advertisers: components["schemas"]["BrandBidAdvertiser"][];
            credits_charged: components["schemas"]["CreditsCharged"];
            credits_remaining: components["schemas"]["CreditsRemaining"];
        };
        BrandBidAdvertiser: {
            /** @description The identifier's current name. */
            advertiser: components["schemas"]["AdvertiserName"];
            advertiser_id: components["schemas"]["AdvertiserId"];
            /** @description The identifier's distinct creatives landing on this domain. */
            creatives: components["schemas"]["PositiveCount"];
            /** @description The earliest date the identifier was seen landing on this domain. */
            first_seen: components["schemas"]["Date"];
            /** @description The latest date the identifier was seen landing on this domain. */
            last_seen: components["schemas"]["Date"];
            /** @description Distinct landing domains of the identifier over all its observations. */
            landing_domain_count: components["schemas"]["PositiveCount"];
            profile: components["schemas"]["Profile"];
        };
        AdvertiserSearch: {
            /** @description The search, as given. */
            q: string;
            /** @description The matching advertiser names, best first (see the operation); at most 20. */
            advertisers: components["schemas"]["AdvertiserMatch"][];
            /** @description More names matched than `advertisers` holds. */
            truncated: boolean;
            credits_charged: components["schemas"]["CreditsCharged"];
            credits_remaining: components["schemas"]["CreditsRemaining"];
        };
        AdvertiserMatch: {
            /** @description The name, exactly as the other advertiser endpoints take it in `name`. */
            advertiser: components["schemas"]["AdvertiserName"];
            /**
             * @description How the name matched `q`, the best way it did: `exact` byte for byte; `case_insensitive`
             *     equal in folded form (case, accents, compatibility forms, in every script);
             *     `prefix` its folded form starts with `q`'s; `similar` by a shared or nearly shared
             *     word, or characters of a script without spaces, at least 0.3 similar (see
             *     `searchAdvertisers`).
             * @enum {string}
             */
            match: "exact" | "case_insensitive" | "prefix" | "similar";
            /** @description Every identifier whose current name is this name, ascending by code point. */
            advertiser_ids: components["schemas"]["AdvertiserId"][];
            /** @description Distinct creatives over all the advertiser's identifiers, as in the advertiser summary. */
            creatives: components["schemas"]["Count"];
            /** @description The advertiser summary's `country`. */
            country: string;
            /** @description The latest date any of the advertiser's identifiers was seen. */
            last_seen: components["schemas"]["Date"];
        };
        /**
         * @description The display prefix of an API key, `alk_` (`alk_test_` for a test key) and 8 more characters; what the account page shows.
         * @example alk_7Hq2Xv0p
         */
        KeyPrefix: string;
        Account: {
            /** @description The display prefix of the key that made this call. */
            key_prefix: components["schemas"]["KeyPrefix"];
            /** @description The account's balance in credits, shared by all its keys. */
            balance: components["schemas"]["Credits"];
        };
        AccountUsage: {
            from: components["schemas"]["Date"];
            to: components["schemas"]["Date"];
            total: components["schemas"]["UsageCounts"];
            /** @description Every day of the range, oldest first, days without calls included. */
            days: {
                day: components["schemas"]["Date"];
                calls: components["schemas"]["Count"];
                refunded_calls: components["schemas"]["Count"];
                credits: components["schemas"]["Credits"];
                /** @description The operations called that day, in operationId order. */
                operations: ({
                    operation: components["schemas"]["OperationId"];
                    /** @description Of the calls, those made as tool calls of the MCP endpoint (`/mcp`); the rest came over HTTP. */
                    mcp_calls: components["schemas"]["Count"];
                } & components["schemas"]["UsageCounts"])[];
            }[];
            /** @description The account's active keys that have a daily cap, newest first; empty when none has. */
            daily_caps: {
                key_prefix: components["schemas"]["KeyPrefix"];
                /** @description The name its holder gave the key (trimmed); null for a key made by the operator. */
                name: string | null;
                /** @description The most credits the key may spend per UTC day, refunds deducted. */
                daily_cap: components["schemas"]["Credits"];
                /** @description What it spent today (UTC), refunds deducted. */
                spent_today: components["schemas"]["Credits"];
            }[];
        };
        /**
         * @description The operationId of an operation of this contract.
         * @example getAdvertiserSummary
         */
        OperationId: string;
        UsageCounts: {
            /** @description Billed calls, refunded ones included. */
            calls: components["schemas"]["Count"];
            /** @description Of those, calls the service failed and refunded. */
            refunded_calls: components["schemas"]["Count"];
            /** @description Credits the calls cost, their refunds deducted. */
            credits: components["schemas"]["Credits"];
        };
        AccountLedger: {
            entries: components["schemas"]["LedgerEntry"][];
            /** @description Pass it as `cursor` for the next, older page; `null` on the last page. */
            next_cursor: string | null;
        };
        LedgerEntry: {
            /** @description The entry's id; later entries have larger ids. */
            id: number;
            /**
             * @description `grant`: the free credits of the first key; `purchase`: credits bought; `charge`: a billed call; `refund`: a charge given back; `reversal`: credits of a purchase taken back after its payment was refunded or disputed (as far as the balance allowed).
             * @enum {string}
             */
            kind: "grant" | "purchase" | "charge" | "refund" | "reversal";
            /** @description Credits added (positive) or taken (negative). */
            amount: number;
            balance_after: components["schemas"]["Credits"];
            /** @description The display prefix of the key of a charge, refund or grant; `null` for a purchase. */
            key_prefix: components["schemas"]["KeyPrefix"] | null;
            /** @description The operationId of a charge or refund; `watchNews` for a brand watch delivery's (the webhook of that name). */
            operation: components["schemas"]["OperationId"] | null;
            /** @description The `X-Request-Id` of the call charged or refunded (yours, or the one the service gave it); for a reversal, the payment provider's event. */
            request_id: string | null;
            /** @description The payment of a purchase. */
            payment_reference: string | null;
            /** @description The id of the charge a refund gives back. */
            refund_of: number | null;
            /** @description How the call of a charge or refund came, `http` (a request to this API) or `mcp` (a tool call of the MCP endpoint, `/mcp`); `null` for other entries. */
            channel: ("http" | "mcp") | null;
            /**
             * Format: date-time
             * @description When the entry was made (UTC).
             */
            created_at: string;
        };
        UsageParameterError: {
            /** @enum {string} */
            error: "invalid_from" | "invalid_to" | "invalid_range";
            message: components["schemas"]["Message"];
        };
        LedgerParameterError: {
            /** @enum {string} */
            error: "invalid_limit" | "invalid_cursor";
            message: components["schemas"]["Message"];
        };
        NameParameterError: {
            /** @enum {string} */
            error: "missing_name" | "invalid_name" | "invalid_idempotency_key";
            message: components["schemas"]["Message"];
        };
        SearchParameterError: {
            /** @enum {string} */
            error: "missing_q" | "invalid_q" | "invalid_idempotency_key";
            message: components["schemas"]["Message"];
        };
        DomainParameterError: {
            /** @enum {string} */
            error: "missing_domain" | "invalid_domain" | "invalid_idempotency_key";
            message: components["schemas"]["Message"];
        };
        UnauthorizedError: {
            /** @constant */
            error: "unauthorized";
            message: components["schemas"]["Message"];
        };
        InsufficientCreditsError: {
            /** @constant */
            error: "insufficient_credits";
            message: components["schemas"]["Message"];
            /** @description The price of the call. */
            required: components["schemas"]["Credits"];
            /** @description The current balance, below `required`. */
            balance: components["schemas"]["Credits"];
        };
        NotFoundError: {
            /** @constant */
            error: "not_found";
            message: components["schemas"]["Message"];
            credits_charged: components["schemas"]["CreditsCharged"];
            credits_remaining: components["schemas"]["CreditsRemaining"];
            /**
             * @description Did you mean: up to 5 advertiser names (for a name) or root domains with ads (for a
             *     domain) that resemble the one asked for, best first, found by the advertiser search's
             *     rules (see `searchAdvertisers`). Absent when nothing resembles it. No extra charge.
             */
            suggestions?: string[];
        };
        NotAcceptableError: {
            /** @constant */
            error: "not_acceptable";
            message: components["schemas"]["Message"];
            /** @description The media types this operation answers in, its default first. */
            supported: ("application/json" | "text/csv")[];
        };
        IdempotencyKeyReusedError: {
            /** @constant */
            error: "idempotency_key_reused";
            message: components["schemas"]["Message"];
        };
        DailyCapReachedError: {
            /** @constant */
            error: "daily_cap_reached";
            message: components["schemas"]["Message"];
            /** @description The price of the call. */
            required: components["schemas"]["Credits"];
            /** @description The key's cap, in credits per UTC day. */
            daily_cap: components["schemas"]["Credits"];
            /** @description What the key spent today (UTC), refunds deducted; with `required` it would pass `daily_cap`. */
            spent_today: components["schemas"]["Credits"];
        };
        RateLimitedError: {
            /** @constant */
            error: "rate_limited";
            message: components["schemas"]["Message"];
        };
        /** @description A Structured Field List with one Item: the policy name `"per-key"`, its quota `q` and window `w` in seconds. */
        RateLimitPolicyField: string;
        /** @description A Structured Field List with one Item: the policy name `"per-key"`, the requests left `r` and the seconds `t` until the window resets. */
        RateLimitField: string;
        MethodNotAllowedError: {
            /** @constant */
            error: "method_not_allowed";
            message: components["schemas"]["Message"];
        };
        UriTooLongError: {
            /** @constant */
            error: "uri_too_long";
            message: components["schemas"]["Message"];
        };
        HeadersTooLargeError: {
            /** @constant */
            error: "headers_too_large";
            message: components["schemas"]["Message"];
        };
        BadRequestError: {
            /** @constant */
            error: "bad_request";
            message: components["schemas"]["Message"];
        };
        RequestTimeoutError: {
            /** @constant */
            error: "request_timeout";
            message: components["schemas"]["Message"];
        };
        ExpectationFailedError: {
            /** @constant */
            error: "expectation_failed";
            message: components["schemas"]["Message"];
        };
        InternalError: {
            /** @constant */
            error: "internal_error";
            message: components["schemas"]["Message"];
            /** @description Credits charged for this call and refunded in full because the call failed on the server's side. */
            credits_refunded: components["schemas"]["Credits"];
        };
        UnavailableError: {
            /** @constant */
            error: "unavailable";
            message: components["schemas"]["Message"];
            /** @description Credits charged for this call and refunded in full because the call failed on the server's side. */
            credits_refunded: components["schemas"]["Credits"];
        };
        /** @description A watch to create: its `kind`, and a `target` under that kind's rule. */
        WatchRequest: components["schemas"]["DomainWatchRequest"] | components["schemas"]["AdvertiserWatchRequest"];
        DomainWatchRequest: {
            /**
             * @description Hear of every advertiser identifier that sends ads to the domain for the first time.
             * @constant
             */
            kind: "domain";
            /**
             * @description A root domain, host name or URL, normalized exactly like the `domain` parameter of the
             *     lookups (the watch keeps the root domain). As for that parameter, the pattern states a
             *     simple part of what is accepted: URLs, every public suffix and internationalized names
             *     are accepted too, up to 2,048 characters.
             */
            target: string;
        };
        AdvertiserWatchRequest: {
            /**
             * @description Hear of every landing domain the advertiser starts to use.
             * @constant
             */
            kind: "advertiser";
            /** @description The advertiser name, exact and case-sensitive, byte for byte as the lookups take it. */
            target: string;
        };
        WatchList: {
            watches: components["schemas"]["Watch"][];
            /** @description The `cursor` of the next, older page; `null` when this is the last one. */
            next_cursor: string | null;
        };
        WatchEventList: {
            events: components["schemas"]["WatchEvent"][];
            /** @description The `cursor` of the next, older page; `null` when this is the last one. */
            next_cursor: string | null;
        };
        WatchRequestError: {
            /** @enum {string} */
            error: "invalid_body" | "invalid_kind" | "missing_domain" | "invalid_domain" | "missing_name" | "invalid_name" | "invalid_idempotency_key";
            message: components["schemas"]["Message"];
        };
        InvalidWatchIdError: {
            /** @constant */
            error: "invalid_watch_id";
            message: components["schemas"]["Message"];
        };
        WatchEventsParameterError: {
            /** @enum {string} */
            error: "invalid_watch_id" | "invalid_limit" | "invalid_cursor";
            message: components["schemas"]["Message"];
        };
        WatchNotFoundError: {
            /** @constant */
            error: "watch_not_found";
            message: components["schemas"]["Message"];
        };
        WatchTestEventResult: {
            /** @description The `id` of the posted test event. */
            event_id: string;
            /** @description `true` when the webhook answered with a 2xx status (and `failure` is `null`). */
            delivered: boolean;
            /** @description The webhook's HTTP status; `null` when the post got no answer. */
            status: number | null;
            /** @description Why the post did not deliver (no answer, a refused address, a timeout, a status other than 2xx); `null` when it delivered. */
            failure: string | null;
        };
        WatchTestEventRefusedError: {
            /** @enum {string} */
            error: "no_webhook" | "test_event_limit_reached";
            message: components["schemas"]["Message"];
        };
        WatchLimitReachedError: {
            /** @constant */
            error: "watch_limit_reached";
            message: components["schemas"]["Message"];
            /** @description The most live watches the account may hold in this dataset. */
            limit: number;
        };
        UnsupportedMediaTypeError: {
            /** @constant */
            error: "unsupported_media_type";
            message: components["schemas"]["Message"];
        };
        WatchNewsEvent: {
            /** @description The delivery's id, the same on every retry of it; drop a repeat. */
            id: string;
            /** @constant */
            type: "watch.news";
            /**
             * Format: date-time
             * @description When the news was queued for delivery (the end of the load that found it).
             */
            created_at: string;
            /** @description `true` only for the sample that `POST /api/v1/watches/{id}/test` sends. */
            test: boolean;
            watch: components["schemas"]["Watch"];
            /** @description The changes the load found for the watch, in the order found; more than 10,000 come in several posts, each a delivery. */
            events: components["schemas"]["WatchEvent"][];
            /** @description What this delivery cost (0 for a sandbox watch and for a test). */
            credits_charged: components["schemas"]["Credits"];
        };
        LowBalanceAlertEvent: {
            /** @description The alert's id, the same on every retry; `alert_test_…` for a test event. */
            id: string;
            /** @constant */
            type: "balance.low";
            /** Format: date-time */
            created_at: string;
            account_id: number;
            /** @description The balance the charge left. */
            balance: components["schemas"]["Credits"];
            /** @description The alert threshold set on the account page. */
            threshold: components["schemas"]["Credits"];
            /** @description `true` only for the test events sent from the account page. */
            test: boolean;
        };
        /**
         * Format: uuid
         * @description A watch's id (a UUID, lower case).
         * @example 3f1d2c4e-8a7b-4c6d-9e0f-1a2b3c4d5e6f
         */
        WatchId: string;
        Watch: {
            id: components["schemas"]["WatchId"];
            /**
             * @description `domain`: hear of every advertiser identifier that sends ads to `target` for the first time; `advertiser`: hear of every landing domain the advertiser named `target` uses for the first time.
             * @enum {string}
             */
            kind: "domain" | "advertiser";
            /** @description The normalized root domain of a domain watch, or the advertiser name (byte for byte, as the lookups take it) of an advertiser watch. */
            target: string;
            /** @description `true` for a watch created with a test key: it watches the sandbox dataset and its deliveries are free. */
            sandbox: boolean;
            /** Format: date-time */
            created_at: string;
        };
        WatchEvent: {
            /** @description The event's id; events found later have larger ids. Each change is reported once per watch. */
            id: number;
            watch_id: components["schemas"]["WatchId"];
            /**
             * @description `new_advertiser` (a domain watch): the identifier sends ads to the watched domain for the first time; `new_landing_domain` (an advertiser watch): the advertiser's identifier lands on this domain for the first time.
             * @enum {string}
             */
            change: "new_advertiser" | "new_landing_domain";
            /** @description The identifier's name when the change was found. */
            advertiser: components["schemas"]["AdvertiserName"];
            advertiser_id: components["schemas"]["AdvertiserId"];
            landing_domain: components["schemas"]["RootDomain"];
            /** @description The first date the identifier was seen landing on `landing_domain`. */
            first_seen: components["schemas"]["Date"];
            /** @description The identifier's distinct landing domains when the change was found, as in a brand-bid row. */
            landing_domain_count: components["schemas"]["PositiveCount"];
            profile: components["schemas"]["Profile"];
            /**
             * Format: date-time
             * @description When the load that found the change matched it.
             */
            found_at: string;
        };
    };
    responses: {
        /**
         * @description The `name` parameter is missing, empty, white space only, longer than 512 code points,
         *     repeated or not valid percent-encoded UTF-8, or the `Idempotency-Key` header is malformed. Free.
         */
        NameParameterError: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                "X-Sandbox": components["headers"]["X-Sandbox"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["NameParameterError"];
            };
        };
        /**
         * @description The `domain` parameter is missing, empty, not a host with a registrable domain, repeated
         *     or not valid percent-encoded UTF-8, or the `Idempotency-Key` header is malformed. Free.
         */
        DomainParameterError: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                "X-Sandbox": components["headers"]["X-Sandbox"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["DomainParameterError"];
            };
        };
        /** @description `from` or `to` is not a UTC date `YYYY-MM-DD` from 2000-01-01 to 9999-12-31 or is given twice, or the range is reversed or longer than 366 days. Free. */
        UsageParameterError: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                "X-Sandbox": components["headers"]["X-Sandbox"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["UsageParameterError"];
            };
        };
        /** @description `limit` is not a whole number from 1 to 200, or `cursor` is not one this service made, or either is given twice. Free. */
        LedgerParameterError: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                "X-Sandbox": components["headers"]["X-Sandbox"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["LedgerParameterError"];
            };
        };
        /** @description The key is missing, malformed, unknown or revoked, the account is disabled, the two key headers disagree, or the URL carries a key (refused even beside a valid header key). Free. */
        Unauthorized: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["UnauthorizedError"];
            };
        };
        /** @description `q` is missing, too short, too long, given twice or malformed, or the Idempotency-Key header is malformed. Free. */
        SearchParameterError: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                "X-Sandbox": components["headers"]["X-Sandbox"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["SearchParameterError"];
            };
        };
        /** @description The balance is below this call's price of 1 credit. Nothing was charged. */
        InsufficientCredits1: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                "X-Sandbox": components["headers"]["X-Sandbox"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["InsufficientCreditsError"];
            };
        };
        /** @description The balance is below this call's price of 3 credits. Nothing was charged. */
        InsufficientCredits3: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                "X-Sandbox": components["headers"]["X-Sandbox"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["InsufficientCreditsError"];
            };
        };
        /** @description The balance is below this call's price of 9 credits. Nothing was charged. */
        InsufficientCredits9: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                "X-Sandbox": components["headers"]["X-Sandbox"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["InsufficientCreditsError"];
            };
        };
        /** @description The balance is below this call's price of 15 credits. Nothing was charged. */
        InsufficientCredits15: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                "X-Sandbox": components["headers"]["X-Sandbox"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["InsufficientCreditsError"];
            };
        };
        /** @description The balance is below this call's price of 60 credits. Nothing was charged. */
        InsufficientCredits60: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                "X-Sandbox": components["headers"]["X-Sandbox"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["InsufficientCreditsError"];
            };
        };
        /** @description No advertiser identifier currently carries this name. Charged, because the lookup ran. */
        AdvertiserNotFound3: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                "X-Sandbox": components["headers"]["X-Sandbox"];
                "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["NotFoundError"];
            };
        };
        /** @description No advertiser identifier currently carries this name. Charged, because the lookup ran. */
        AdvertiserNotFound9: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                "X-Sandbox": components["headers"]["X-Sandbox"];
                "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["NotFoundError"];
            };
        };
        /** @description No advertiser identifier currently carries this name. Charged, because the lookup ran. */
        AdvertiserNotFound15: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                "X-Sandbox": components["headers"]["X-Sandbox"];
                "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["NotFoundError"];
            };
        };
        /** @description No ad lands on this domain and it was never crawled. Charged, because the lookup ran. */
        DomainNotFound3: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                "X-Sandbox": components["headers"]["X-Sandbox"];
                "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["NotFoundError"];
            };
        };
        /** @description No ad lands on this domain and it was never crawled. Charged, because the lookup ran. */
        DomainNotFound60: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                "X-Sandbox": components["headers"]["X-Sandbox"];
                "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["NotFoundError"];
            };
        };
        /** @description This path does not answer this method; the `Allow` header lists the methods it answers (`GET` and `HEAD` for most). Free. */
        MethodNotAllowed: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                Allow: components["headers"]["Allow"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["MethodNotAllowedError"];
            };
        };
        /** @description The `Accept` header allows none of the media types this operation answers in; `supported` lists them. Free. */
        NotAcceptable: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                "X-Sandbox": components["headers"]["X-Sandbox"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["NotAcceptableError"];
            };
        };
        /**
         * @description The `Idempotency-Key` was used in the last 24 hours for another operation or another
         *     query of this account. Nothing ran and nothing was charged; use a new key for a new request.
         */
        IdempotencyKeyReused: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                "X-Sandbox": components["headers"]["X-Sandbox"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["IdempotencyKeyReusedError"];
            };
        };
        /**
         * @description The body is not a JSON object `{"kind", "target"}`, is not valid UTF-8 or is over 16 KiB
         *     (`invalid_body`; a longer body is read no further than that), `kind` is neither
         *     `domain` nor `advertiser` (`invalid_kind`), the target of a domain watch is blank or not a
         *     host with a registrable domain (`missing_domain`, `invalid_domain`), the target of an
         *     advertiser watch is blank or longer than 512 code points (`missing_name`,
         *     `invalid_name`), or the `Idempotency-Key` header is malformed. Free.
         */
        WatchRequestError: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                "X-Sandbox": components["headers"]["X-Sandbox"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["WatchRequestError"];
            };
        };
        /** @description The watch id in the path is not a UUID in lower case. Free. */
        InvalidWatchId: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                "X-Sandbox": components["headers"]["X-Sandbox"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["InvalidWatchIdError"];
            };
        };
        /** @description The watch id in the path is not a UUID in lower case, `limit` is not a whole number from 1 to 200, or `cursor` is not one this service made, or either is given twice. Free. */
        WatchEventsParameterError: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                "X-Sandbox": components["headers"]["X-Sandbox"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["WatchEventsParameterError"];
            };
        };
        /** @description No live watch of the key's account and dataset has this id (unknown, deleted, another account's, or of the other dataset). Free. */
        WatchNotFound: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                "X-Sandbox": components["headers"]["X-Sandbox"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["WatchNotFoundError"];
            };
        };
        /** @description The account already holds its limit of live watches in the key's dataset (`limit`, 1,000 unless the operator set `WATCH_LIMIT`). Delete one first. Free. */
        WatchLimitReached: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                "X-Sandbox": components["headers"]["X-Sandbox"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["WatchLimitReachedError"];
            };
        };
        /**
         * @description No test event was posted. `no_webhook`: the account has no webhook (set one on the
         *     account page's alerts). `test_event_limit_reached`: the hourly limit of test events (per
         *     account, or per receiving host, shared with the alert test events) is spent; try again
         *     later. Free.
         */
        WatchTestEventRefused: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                "X-Sandbox": components["headers"]["X-Sandbox"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["WatchTestEventRefusedError"];
            };
        };
        /** @description The body is not sent as `application/json` (its `Content-Type`), or names a `charset` other than `utf-8`. Free. */
        UnsupportedMediaType: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                "X-Sandbox": components["headers"]["X-Sandbox"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["UnsupportedMediaTypeError"];
            };
        };
        /**
         * @description This call would take the API key past the daily credit cap its account holder set for it
         *     (credits per UTC day, set on the account page). Nothing ran and nothing was charged; the
         *     cap starts afresh at the next midnight UTC, which `Retry-After` counts down to. The
         *     account's other keys and its balance are untouched.
         */
        DailyCapReached: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "Retry-After": components["headers"]["Retry-After"];
                "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                "X-Sandbox": components["headers"]["X-Sandbox"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["DailyCapReachedError"];
            };
        };
        /**
         * @description This API key made more requests than its quota in the current window. Nothing ran and
         *     nothing was charged; retry after `Retry-After` seconds, when the window resets.
         */
        RateLimited: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "Retry-After": components["headers"]["Retry-After"];
                RateLimit: components["headers"]["RateLimit-Exhausted"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy-Enforced"];
                "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                "X-Sandbox": components["headers"]["X-Sandbox"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["RateLimitedError"];
            };
        };
        /** @description The URL (path and query) is longer than the service accepts (32 KiB by default). Free; checked before anything else. */
        UriTooLong: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["UriTooLongError"];
            };
        };
        /** @description The request line and headers together are larger than the service accepts (64 KiB by default). Free; the connection is closed. */
        HeadersTooLarge: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["HeadersTooLargeError"];
            };
        };
        /**
         * @description The request is not valid HTTP/1.1 (see Limits), so it reaches no operation. Free; the
         *     connection is closed after the answers to earlier requests on it.
         */
        BadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["BadRequestError"];
            };
        };
        /**
         * @description The request line and headers (10 s by default) or the whole request (30 s by default) were
         *     not received in time, so the request reaches no operation. Free; the connection is closed.
         */
        RequestTimeout: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["RequestTimeoutError"];
            };
        };
        /**
         * @description The request carries an `Expect` header other than `100-continue`, so it reaches no
         *     operation. Free; the connection is closed.
         */
        ExpectationFailed: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ExpectationFailedError"];
            };
        };
        /** @description The service failed. Any credits charged for this call were refunded in full; `credits_refunded` says how many. */
        InternalError: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "X-Credits-Charged": components["headers"]["X-Credits-Charged-If-Known"];
                "X-Credits-Remaining": components["headers"]["X-Credits-Remaining-If-Known"];
                "X-Sandbox": components["headers"]["X-Sandbox"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["InternalError"];
            };
        };
        /**
         * @description The service's database is unreachable for the moment, or the first request with the same
         *     `Idempotency-Key` is still running after 10 seconds; retry after `Retry-After` seconds. Any
         *     credits charged for this call were refunded.
         */
        Unavailable: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                "Retry-After": components["headers"]["Retry-After"];
                "X-Credits-Charged": components["headers"]["X-Credits-Charged-If-Known"];
                "X-Credits-Remaining": components["headers"]["X-Credits-Remaining-If-Known"];
                "X-Sandbox": components["headers"]["X-Sandbox"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["UnavailableError"];
            };
        };
    };
    parameters: {
        /**
         * @description The first UTC day of the range, `YYYY-MM-DD`, from 2000-01-01 to 9999-12-31. Default: 29
         *     days before `to`, so the range is 30 days. A date that does not exist (2026-02-30), one
         *     outside those years, any other form, or the parameter given more than once:
         *     `400 invalid_from`, free.
         */
        from: string;
        /**
         * @description The last UTC day of the range, `YYYY-MM-DD`, included, from 2000-01-01 to 9999-12-31.
         *     Default: today (UTC). Malformed, outside those years or repeated: `400 invalid_to`.
         *     `from` after `to`, or a range longer than 366 days: `400 invalid_range`. Both free.
         */
        to: string;
        /**
         * @description Entries per page, 1 to 200; default 50. Anything else (`0`, `201`, `1.5`, `ten`, the
         *     parameter given more than once): `400 invalid_limit`, free.
         */
        limit: number;
        /**
         * @description Where the page starts: the `next_cursor` of the previous page. Absent: the newest
         *     entries. A cursor this service did not make, or the parameter given more than once:
         *     `400 invalid_cursor`, free.
         */
        cursor: string;
        /**
         * @description The advertiser name, exact and case-sensitive, as shown on the service's website. It is
         *     compared byte for byte: never trimmed, case-folded or normalized. Absent, empty or only
         *     white space: `400 missing_name`. Longer than 512 characters (Unicode code points), given
         *     more than once, or not valid percent-encoded UTF-8 (`%FF`, `%ED%A0%80`, `100%`; write
         *     `100%25`): `400 invalid_name`. White space only wins over too long. Both are free.
         *     "White space" is what JavaScript's `String.prototype.trim` removes (Unicode White_Space
         *     and U+FEFF); the schema states both rules: its `pattern` asks for at least one other
         *     character, and its `maxLength` counts code points, as JSON Schema does.
         */
        name: components["schemas"]["AdvertiserName"];
        /**
         * @description What to search for: an advertiser name or part of one, in any script and case, with or
         *     without accents; white space around and repeated inside it is ignored when matching. Absent, empty or only white
         *     space: `400 missing_q`. Fewer than 2 or more than 200 characters (Unicode code points, as
         *     given), given more than once, or not valid percent-encoded UTF-8: `400 invalid_q`. White
         *     space only wins over too short or too long. Both are free.
         */
        q: string;
        /**
         * @description A root domain, host name or URL. It is trimmed of surrounding white space and parsed as
         *     a URL host (`http://` is assumed; schemes other than http and https are invalid); user
         *     info, port, path, query, fragment, a leading `www.` and a trailing dot are dropped, the
         *     host is lower-cased, internationalized names become their ASCII `xn--` form, and the
         *     host is reduced to its registrable root domain with the ICANN section of the Public
         *     Suffix List: `https://WWW.Shop.Example.co.uk:443/a?b#c` becomes `example.co.uk`.
         *     Absent, empty or white space: `400 missing_domain`. Not a host with a registrable domain
         *     (an IP address, `localhost`, a single label, a bare public suffix such as `co.uk`, an
         *     unknown top-level domain, illegal characters, over 253 characters), given more than
         *     once, or not valid percent-encoded UTF-8: `400 invalid_domain`. Both are free, so a
         *     typo never costs credits.
         *
         *     The schema's `pattern` states a simple part of what is accepted, and every value it
         *     allows is accepted: host names of ASCII letters, digits and single hyphens inside labels,
         *     under one of the suffixes `com`, `net`, `org`, `info`, `biz`, `de`, `eu`, `nl`, `ch`,
         *     `co.uk`, `org.uk` or `com.au`, such as `WWW.Acme-Outdoor.com`. That is what the
         *     contract guarantees; the service accepts much more than the pattern says: full URLs
         *     such as `https://www.acme-outdoor.com/shop?utm_source=ads`, every other public suffix
         *     (`example.fr`), internationalized names (`bücher.de`), ports, user info, a trailing dot
         *     and surrounding white space, as described above.
         */
        domain: string;
        /**
         * @description The watch's id, as `createWatch` or `listWatches` gave it: a UUID in lower case. Anything
         *     else answers `400 invalid_watch_id`, free; an id that is not a live watch of the key's
         *     account and dataset answers `404 watch_not_found`, free.
         */
        watchId: components["schemas"]["WatchId"];
        /**
         * @description Makes a retry safe: a retry of this call with the same key (same account, operation and
         *     query) within 24 hours replays the first response and charges nothing again. 1 to 255
         *     visible ASCII characters (`!` to `~`, no spaces), such as a UUID; otherwise
         *     `400 invalid_idempotency_key`. The same key with another operation or query:
         *     `422 idempotency_key_reused`. See "Retries never pay twice" above.
         * @example 7c4f3e1a-9b2d-4e8f-a6c5-0d1b2e3f4a5b
         */
        "Idempotency-Key": string;
    };
    requestBodies: never;
    headers: {
        /**
         * @description Identifies this request in the service's logs and ledger; quote it to support. Sent on
         *     every response. A caller's own `X-Request-Id` of 8 to 128 characters from
         *     `A-Z a-z 0-9 . _ -` is echoed, unless it starts with `alk_` (it could be an API key, which
         *     the service never logs or echoes); otherwise the service makes a UUID.
         * @example 3f1c2a9e-5b7d-4c1e-9a8f-0d2b6e4c7a13
         */
        "X-Request-Id": string;
        /**
         * @description Credits this call cost (the operation's `x-credit-cost`); `0` on `400`, `402`, `422`,
         *     `429` and on a replayed response (`Idempotent-Replayed: true`).
         * @example 3
         */
        "X-Credits-Charged": components["schemas"]["Credits"];
        /**
         * @description The account's balance after this call (on a replayed response, the current balance).
         * @example 197
         */
        "X-Credits-Remaining": components["schemas"]["Credits"];
        /**
         * @description Sent when the key was valid and the balance could be read: `0`, because a failed call is
         *     refunded in full. Absent when the failure came before the key could be checked.
         * @example 0
         */
        "X-Credits-Charged-If-Known": components["schemas"]["Credits"];
        /**
         * @description Sent with `X-Credits-Charged`; the balance after the refund.
         * @example 197
         */
        "X-Credits-Remaining-If-Known": components["schemas"]["Credits"];
        /**
         * @description Sent with a `text/csv` answer of a capped list: the full number of entries, as the JSON
         *     answer's `landing_domain_count` or `advertiser_count` says it.
         * @example 612
         */
        "X-Total-Count": string;
        /**
         * @description Sent with a `text/csv` answer of a capped list: `true` when the list was cut at its cap, so
         *     the file holds fewer rows than `X-Total-Count`, otherwise `false`.
         * @example false
         */
        "X-Truncated": "true" | "false";
        /**
         * @description `true` on every answer to a test key (`alk_test_…`): the call was free and answered from
         *     the sandbox's demo data. Absent for a live key.
         * @example true
         */
        "X-Sandbox": "true";
        /**
         * @description The authentication scheme to use; always `Bearer`.
         * @example Bearer
         */
        "WWW-Authenticate": "Bearer";
        /**
         * @description The methods this path supports.
         * @example GET, HEAD
         */
        Allow: string;
        /**
         * @description The path of the watch just created, `/api/v1/watches/{id}`.
         * @example /api/v1/watches/3f1d2c4e-8a7b-4c6d-9e0f-1a2b3c4d5e6f
         */
        Location: string;
        /**
         * @description `true` when this response is the stored response of an earlier call with the same
         *     `Idempotency-Key`, replayed without running or charging the call again. Absent otherwise.
         * @example true
         */
        "Idempotent-Replayed": "true";
        /**
         * @description The per-key rate limit (draft-ietf-httpapi-ratelimit-headers-11, section 3): `q` requests
         *     per window of `w` seconds. Sent on every answer to a valid key while the operator keeps the
         *     rate limit on (the default).
         * @example "per-key";q=600;w=60
         */
        "RateLimit-Policy": components["schemas"]["RateLimitPolicyField"];
        /**
         * @description The key's standing under the per-key rate limit (draft-ietf-httpapi-ratelimit-headers-11,
         *     section 4): `r` requests left in the current window, which ends in `t` seconds. Sent on
         *     every answer to a valid key while the operator keeps the rate limit on (the default).
         * @example "per-key";r=599;t=42
         */
        RateLimit: components["schemas"]["RateLimitField"];
        /**
         * @description The per-key rate limit that this request exceeded, as in `RateLimit-Policy`.
         * @example "per-key";q=600;w=60
         */
        "RateLimit-Policy-Enforced": components["schemas"]["RateLimitPolicyField"];
        /**
         * @description The key's standing, as in `RateLimit`; `r` is `0` and `t` equals `Retry-After`.
         * @example "per-key";r=0;t=42
         */
        "RateLimit-Exhausted": components["schemas"]["RateLimitField"];
        /**
         * @description Never store the response; every answer is computed, and most are charged, per call.
         * @example no-store
         */
        "Cache-Control": "no-store";
        /**
         * @description Browsers must not guess a content type other than the one sent.
         * @example nosniff
         */
        "X-Content-Type-Options": "nosniff";
        /**
         * @description Seconds to wait before retrying.
         * @example 5
         */
        "Retry-After": number;
    };
    pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
    getAdvertiserSummary: {
        parameters: {
            query: {
                /**
                 * @description The advertiser name, exact and case-sensitive, as shown on the service's website. It is
                 *     compared byte for byte: never trimmed, case-folded or normalized. Absent, empty or only
                 *     white space: `400 missing_name`. Longer than 512 characters (Unicode code points), given
                 *     more than once, or not valid percent-encoded UTF-8 (`%FF`, `%ED%A0%80`, `100%`; write
                 *     `100%25`): `400 invalid_name`. White space only wins over too long. Both are free.
                 *     "White space" is what JavaScript's `String.prototype.trim` removes (Unicode White_Space
                 *     and U+FEFF); the schema states both rules: its `pattern` asks for at least one other
                 *     character, and its `maxLength` counts code points, as JSON Schema does.
                 */
                name: components["parameters"]["name"];
            };
            header?: {
                /**
                 * @description Makes a retry safe: a retry of this call with the same key (same account, operation and
                 *     query) within 24 hours replays the first response and charges nothing again. 1 to 255
                 *     visible ASCII characters (`!` to `~`, no spaces), such as a UUID; otherwise
                 *     `400 invalid_idempotency_key`. The same key with another operation or query:
                 *     `422 idempotency_key_reused`. See "Retries never pay twice" above.
                 * @example 7c4f3e1a-9b2d-4e8f-a6c5-0d1b2e3f4a5b
                 */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The advertiser summary. Charged. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Sandbox": components["headers"]["X-Sandbox"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdvertiserSummary"];
                };
            };
            400: components["responses"]["NameParameterError"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["InsufficientCredits3"];
            403: components["responses"]["DailyCapReached"];
            404: components["responses"]["AdvertiserNotFound3"];
            405: components["responses"]["MethodNotAllowed"];
            406: components["responses"]["NotAcceptable"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getDomainSummary: {
        parameters: {
            query: {
                /**
                 * @description A root domain, host name or URL. It is trimmed of surrounding white space and parsed as
                 *     a URL host (`http://` is assumed; schemes other than http and https are invalid); user
                 *     info, port, path, query, fragment, a leading `www.` and a trailing dot are dropped, the
                 *     host is lower-cased, internationalized names become their ASCII `xn--` form, and the
                 *     host is reduced to its registrable root domain with the ICANN section of the Public
                 *     Suffix List: `https://WWW.Shop.Example.co.uk:443/a?b#c` becomes `example.co.uk`.
                 *     Absent, empty or white space: `400 missing_domain`. Not a host with a registrable domain
                 *     (an IP address, `localhost`, a single label, a bare public suffix such as `co.uk`, an
                 *     unknown top-level domain, illegal characters, over 253 characters), given more than
                 *     once, or not valid percent-encoded UTF-8: `400 invalid_domain`. Both are free, so a
                 *     typo never costs credits.
                 *
                 *     The schema's `pattern` states a simple part of what is accepted, and every value it
                 *     allows is accepted: host names of ASCII letters, digits and single hyphens inside labels,
                 *     under one of the suffixes `com`, `net`, `org`, `info`, `biz`, `de`, `eu`, `nl`, `ch`,
                 *     `co.uk`, `org.uk` or `com.au`, such as `WWW.Acme-Outdoor.com`. That is what the
                 *     contract guarantees; the service accepts much more than the pattern says: full URLs
                 *     such as `https://www.acme-outdoor.com/shop?utm_source=ads`, every other public suffix
                 *     (`example.fr`), internationalized names (`bücher.de`), ports, user info, a trailing dot
                 *     and surrounding white space, as described above.
                 */
                domain: components["parameters"]["domain"];
            };
            header?: {
                /**
                 * @description Makes a retry safe: a retry of this call with the same key (same account, operation and
                 *     query) within 24 hours replays the first response and charges nothing again. 1 to 255
                 *     visible ASCII characters (`!` to `~`, no spaces), such as a UUID; otherwise
                 *     `400 invalid_idempotency_key`. The same key with another operation or query:
                 *     `422 idempotency_key_reused`. See "Retries never pay twice" above.
                 * @example 7c4f3e1a-9b2d-4e8f-a6c5-0d1b2e3f4a5b
                 */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The domain summary. Charged. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Sandbox": components["headers"]["X-Sandbox"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DomainSummary"];
                };
            };
            400: components["responses"]["DomainParameterError"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["InsufficientCredits3"];
            403: components["responses"]["DailyCapReached"];
            404: components["responses"]["DomainNotFound3"];
            405: components["responses"]["MethodNotAllowed"];
            406: components["responses"]["NotAcceptable"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getAdvertiserHistory: {
        parameters: {
            query: {
                /**
                 * @description The advertiser name, exact and case-sensitive, as shown on the service's website. It is
                 *     compared byte for byte: never trimmed, case-folded or normalized. Absent, empty or only
                 *     white space: `400 missing_name`. Longer than 512 characters (Unicode code points), given
                 *     more than once, or not valid percent-encoded UTF-8 (`%FF`, `%ED%A0%80`, `100%`; write
                 *     `100%25`): `400 invalid_name`. White space only wins over too long. Both are free.
                 *     "White space" is what JavaScript's `String.prototype.trim` removes (Unicode White_Space
                 *     and U+FEFF); the schema states both rules: its `pattern` asks for at least one other
                 *     character, and its `maxLength` counts code points, as JSON Schema does.
                 */
                name: components["parameters"]["name"];
            };
            header?: {
                /**
                 * @description Makes a retry safe: a retry of this call with the same key (same account, operation and
                 *     query) within 24 hours replays the first response and charges nothing again. 1 to 255
                 *     visible ASCII characters (`!` to `~`, no spaces), such as a UUID; otherwise
                 *     `400 invalid_idempotency_key`. The same key with another operation or query:
                 *     `422 idempotency_key_reused`. See "Retries never pay twice" above.
                 * @example 7c4f3e1a-9b2d-4e8f-a6c5-0d1b2e3f4a5b
                 */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The advertiser's monthly history. Charged. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Sandbox": components["headers"]["X-Sandbox"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdvertiserHistory"];
                    "text/csv": string;
                };
            };
            400: components["responses"]["NameParameterError"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["InsufficientCredits9"];
            403: components["responses"]["DailyCapReached"];
            404: components["responses"]["AdvertiserNotFound9"];
            405: components["responses"]["MethodNotAllowed"];
            406: components["responses"]["NotAcceptable"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getAdvertiserLandingDomains: {
        parameters: {
            query: {
                /**
                 * @description The advertiser name, exact and case-sensitive, as shown on the service's website. It is
                 *     compared byte for byte: never trimmed, case-folded or normalized. Absent, empty or only
                 *     white space: `400 missing_name`. Longer than 512 characters (Unicode code points), given
                 *     more than once, or not valid percent-encoded UTF-8 (`%FF`, `%ED%A0%80`, `100%`; write
                 *     `100%25`): `400 invalid_name`. White space only wins over too long. Both are free.
                 *     "White space" is what JavaScript's `String.prototype.trim` removes (Unicode White_Space
                 *     and U+FEFF); the schema states both rules: its `pattern` asks for at least one other
                 *     character, and its `maxLength` counts code points, as JSON Schema does.
                 */
                name: components["parameters"]["name"];
            };
            header?: {
                /**
                 * @description Makes a retry safe: a retry of this call with the same key (same account, operation and
                 *     query) within 24 hours replays the first response and charges nothing again. 1 to 255
                 *     visible ASCII characters (`!` to `~`, no spaces), such as a UUID; otherwise
                 *     `400 invalid_idempotency_key`. The same key with another operation or query:
                 *     `422 idempotency_key_reused`. See "Retries never pay twice" above.
                 * @example 7c4f3e1a-9b2d-4e8f-a6c5-0d1b2e3f4a5b
                 */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The advertiser's landing domains. Charged. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Sandbox": components["headers"]["X-Sandbox"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Total-Count": components["headers"]["X-Total-Count"];
                    "X-Truncated": components["headers"]["X-Truncated"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdvertiserLandingDomains"];
                    "text/csv": string;
                };
            };
            400: components["responses"]["NameParameterError"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["InsufficientCredits15"];
            403: components["responses"]["DailyCapReached"];
            404: components["responses"]["AdvertiserNotFound15"];
            405: components["responses"]["MethodNotAllowed"];
            406: components["responses"]["NotAcceptable"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getBrandBidReport: {
        parameters: {
            query: {
                /**
                 * @description A root domain, host name or URL. It is trimmed of surrounding white space and parsed as
                 *     a URL host (`http://` is assumed; schemes other than http and https are invalid); user
                 *     info, port, path, query, fragment, a leading `www.` and a trailing dot are dropped, the
                 *     host is lower-cased, internationalized names become their ASCII `xn--` form, and the
                 *     host is reduced to its registrable root domain with the ICANN section of the Public
                 *     Suffix List: `https://WWW.Shop.Example.co.uk:443/a?b#c` becomes `example.co.uk`.
                 *     Absent, empty or white space: `400 missing_domain`. Not a host with a registrable domain
                 *     (an IP address, `localhost`, a single label, a bare public suffix such as `co.uk`, an
                 *     unknown top-level domain, illegal characters, over 253 characters), given more than
                 *     once, or not valid percent-encoded UTF-8: `400 invalid_domain`. Both are free, so a
                 *     typo never costs credits.
                 *
                 *     The schema's `pattern` states a simple part of what is accepted, and every value it
                 *     allows is accepted: host names of ASCII letters, digits and single hyphens inside labels,
                 *     under one of the suffixes `com`, `net`, `org`, `info`, `biz`, `de`, `eu`, `nl`, `ch`,
                 *     `co.uk`, `org.uk` or `com.au`, such as `WWW.Acme-Outdoor.com`. That is what the
                 *     contract guarantees; the service accepts much more than the pattern says: full URLs
                 *     such as `https://www.acme-outdoor.com/shop?utm_source=ads`, every other public suffix
                 *     (`example.fr`), internationalized names (`bücher.de`), ports, user info, a trailing dot
                 *     and surrounding white space, as described above.
                 */
                domain: components["parameters"]["domain"];
            };
            header?: {
                /**
                 * @description Makes a retry safe: a retry of this call with the same key (same account, operation and
                 *     query) within 24 hours replays the first response and charges nothing again. 1 to 255
                 *     visible ASCII characters (`!` to `~`, no spaces), such as a UUID; otherwise
                 *     `400 invalid_idempotency_key`. The same key with another operation or query:
                 *     `422 idempotency_key_reused`. See "Retries never pay twice" above.
                 * @example 7c4f3e1a-9b2d-4e8f-a6c5-0d1b2e3f4a5b
                 */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The brand-bid report. Charged. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Sandbox": components["headers"]["X-Sandbox"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Total-Count": components["headers"]["X-Total-Count"];
                    "X-Truncated": components["headers"]["X-Truncated"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BrandBidReport"];
                    "text/csv": string;
                };
            };
            400: components["responses"]["DomainParameterError"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["InsufficientCredits60"];
            403: components["responses"]["DailyCapReached"];
            404: components["responses"]["DomainNotFound60"];
            405: components["responses"]["MethodNotAllowed"];
            406: components["responses"]["NotAcceptable"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    searchAdvertisers: {
        parameters: {
            query: {
                /**
                 * @description What to search for: an advertiser name or part of one, in any script and case, with or
                 *     without accents; white space around and repeated inside it is ignored when matching. Absent, empty or only white
                 *     space: `400 missing_q`. Fewer than 2 or more than 200 characters (Unicode code points, as
                 *     given), given more than once, or not valid percent-encoded UTF-8: `400 invalid_q`. White
                 *     space only wins over too short or too long. Both are free.
                 */
                q: components["parameters"]["q"];
            };
            header?: {
                /**
                 * @description Makes a retry safe: a retry of this call with the same key (same account, operation and
                 *     query) within 24 hours replays the first response and charges nothing again. 1 to 255
                 *     visible ASCII characters (`!` to `~`, no spaces), such as a UUID; otherwise
                 *     `400 invalid_idempotency_key`. The same key with another operation or query:
                 *     `422 idempotency_key_reused`. See "Retries never pay twice" above.
                 * @example 7c4f3e1a-9b2d-4e8f-a6c5-0d1b2e3f4a5b
                 */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The matching advertisers, best first. Charged. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Sandbox": components["headers"]["X-Sandbox"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdvertiserSearch"];
                };
            };
            400: components["responses"]["SearchParameterError"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["InsufficientCredits1"];
            403: components["responses"]["DailyCapReached"];
            405: components["responses"]["MethodNotAllowed"];
            406: components["responses"]["NotAcceptable"];
            414: components["responses"]["UriTooLong"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller's balance. Free. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Sandbox": components["headers"]["X-Sandbox"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            406: components["responses"]["NotAcceptable"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getAccountUsage: {
        parameters: {
            query?: {
                /**
                 * @description The first UTC day of the range, `YYYY-MM-DD`, from 2000-01-01 to 9999-12-31. Default: 29
                 *     days before `to`, so the range is 30 days. A date that does not exist (2026-02-30), one
                 *     outside those years, any other form, or the parameter given more than once:
                 *     `400 invalid_from`, free.
                 */
                from?: components["parameters"]["from"];
                /**
                 * @description The last UTC day of the range, `YYYY-MM-DD`, included, from 2000-01-01 to 9999-12-31.
                 *     Default: today (UTC). Malformed, outside those years or repeated: `400 invalid_to`.
                 *     `from` after `to`, or a range longer than 366 days: `400 invalid_range`. Both free.
                 */
                to?: components["parameters"]["to"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account's usage in the range. Free. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Sandbox": components["headers"]["X-Sandbox"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountUsage"];
                };
            };
            400: components["responses"]["UsageParameterError"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            406: components["responses"]["NotAcceptable"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getAccountLedger: {
        parameters: {
            query?: {
                /**
                 * @description Entries per page, 1 to 200; default 50. Anything else (`0`, `201`, `1.5`, `ten`, the
                 *     parameter given more than once): `400 invalid_limit`, free.
                 */
                limit?: components["parameters"]["limit"];
                /**
                 * @description Where the page starts: the `next_cursor` of the previous page. Absent: the newest
                 *     entries. A cursor this service did not make, or the parameter given more than once:
                 *     `400 invalid_cursor`, free.
                 */
                cursor?: components["parameters"]["cursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the ledger, newest first. Free. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Sandbox": components["headers"]["X-Sandbox"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountLedger"];
                };
            };
            400: components["responses"]["LedgerParameterError"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            406: components["responses"]["NotAcceptable"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    listWatches: {
        parameters: {
            query?: {
                /**
                 * @description Entries per page, 1 to 200; default 50. Anything else (`0`, `201`, `1.5`, `ten`, the
                 *     parameter given more than once): `400 invalid_limit`, free.
                 */
                limit?: components["parameters"]["limit"];
                /**
                 * @description Where the page starts: the `next_cursor` of the previous page. Absent: the newest
                 *     entries. A cursor this service did not make, or the parameter given more than once:
                 *     `400 invalid_cursor`, free.
                 */
                cursor?: components["parameters"]["cursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the account's watches, newest first. Free. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Sandbox": components["headers"]["X-Sandbox"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WatchList"];
                };
            };
            400: components["responses"]["LedgerParameterError"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            406: components["responses"]["NotAcceptable"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    createWatch: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a retry safe: a retry of this call with the same key (same account, operation and
                 *     query) within 24 hours replays the first response and charges nothing again. 1 to 255
                 *     visible ASCII characters (`!` to `~`, no spaces), such as a UUID; otherwise
                 *     `400 invalid_idempotency_key`. The same key with another operation or query:
                 *     `422 idempotency_key_reused`. See "Retries never pay twice" above.
                 * @example 7c4f3e1a-9b2d-4e8f-a6c5-0d1b2e3f4a5b
                 */
                "Idempotency-Key"?: components["parameters"]["Idempotency-Key"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WatchRequest"];
            };
        };
        responses: {
            /** @description The same watch was already live on the account; this is it. Free. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Sandbox": components["headers"]["X-Sandbox"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Watch"];
                };
            };
            /** @description The watch was created. Free. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Sandbox": components["headers"]["X-Sandbox"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Watch"];
                };
            };
            400: components["responses"]["WatchRequestError"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            406: components["responses"]["NotAcceptable"];
            409: components["responses"]["WatchLimitReached"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getWatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The watch's id, as `createWatch` or `listWatches` gave it: a UUID in lower case. Anything
                 *     else answers `400 invalid_watch_id`, free; an id that is not a live watch of the key's
                 *     account and dataset answers `404 watch_not_found`, free.
                 */
                id: components["parameters"]["watchId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The watch. Free. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Sandbox": components["headers"]["X-Sandbox"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Watch"];
                };
            };
            400: components["responses"]["InvalidWatchId"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["WatchNotFound"];
            405: components["responses"]["MethodNotAllowed"];
            406: components["responses"]["NotAcceptable"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteWatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The watch's id, as `createWatch` or `listWatches` gave it: a UUID in lower case. Anything
                 *     else answers `400 invalid_watch_id`, free; an id that is not a live watch of the key's
                 *     account and dataset answers `404 watch_not_found`, free.
                 */
                id: components["parameters"]["watchId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The watch is deleted. Free. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Sandbox": components["headers"]["X-Sandbox"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["InvalidWatchId"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["WatchNotFound"];
            405: components["responses"]["MethodNotAllowed"];
            406: components["responses"]["NotAcceptable"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    listWatchEvents: {
        parameters: {
            query?: {
                /**
                 * @description Entries per page, 1 to 200; default 50. Anything else (`0`, `201`, `1.5`, `ten`, the
                 *     parameter given more than once): `400 invalid_limit`, free.
                 */
                limit?: components["parameters"]["limit"];
                /**
                 * @description Where the page starts: the `next_cursor` of the previous page. Absent: the newest
                 *     entries. A cursor this service did not make, or the parameter given more than once:
                 *     `400 invalid_cursor`, free.
                 */
                cursor?: components["parameters"]["cursor"];
            };
            header?: never;
            path: {
                /**
                 * @description The watch's id, as `createWatch` or `listWatches` gave it: a UUID in lower case. Anything
                 *     else answers `400 invalid_watch_id`, free; an id that is not a live watch of the key's
                 *     account and dataset answers `404 watch_not_found`, free.
                 */
                id: components["parameters"]["watchId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the watch's events, newest first. Free. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Sandbox": components["headers"]["X-Sandbox"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WatchEventList"];
                };
            };
            400: components["responses"]["WatchEventsParameterError"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["WatchNotFound"];
            405: components["responses"]["MethodNotAllowed"];
            406: components["responses"]["NotAcceptable"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    sendWatchTestEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The watch's id, as `createWatch` or `listWatches` gave it: a UUID in lower case. Anything
                 *     else answers `400 invalid_watch_id`, free; an id that is not a live watch of the key's
                 *     account and dataset answers `404 watch_not_found`, free.
                 */
                id: components["parameters"]["watchId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The test event was posted; how the webhook answered. Free. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    "X-Credits-Charged": components["headers"]["X-Credits-Charged"];
                    "X-Credits-Remaining": components["headers"]["X-Credits-Remaining"];
                    "X-Sandbox": components["headers"]["X-Sandbox"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WatchTestEventResult"];
                };
            };
            400: components["responses"]["InvalidWatchId"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["WatchNotFound"];
            405: components["responses"]["MethodNotAllowed"];
            406: components["responses"]["NotAcceptable"];
            409: components["responses"]["WatchTestEventRefused"];
            414: components["responses"]["UriTooLong"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process is up. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            405: components["responses"]["MethodNotAllowed"];
            414: components["responses"]["UriTooLong"];
            431: components["responses"]["HeadersTooLarge"];
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The database answers and is migrated; the service can serve calls. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            405: components["responses"]["MethodNotAllowed"];
            414: components["responses"]["UriTooLong"];
            431: components["responses"]["HeadersTooLarge"];
            503: components["responses"]["Unavailable"];
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The current metrics. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Content-Type-Options": components["headers"]["X-Content-Type-Options"];
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            405: components["responses"]["MethodNotAllowed"];
            414: components["responses"]["UriTooLong"];
            431: components["responses"]["HeadersTooLarge"];
        };
    };
    watchNews: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WatchNewsEvent"];
            };
        };
        responses: {
            /** @description Accepted (any 2xx). Anything else, or no answer within 10 seconds, is retried. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    lowBalanceAlert: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LowBalanceAlertEvent"];
            };
        };
        responses: {
            /** @description Accepted (any 2xx). Anything else, or no answer within 10 seconds, is retried. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
