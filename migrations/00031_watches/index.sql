-- Brand watch (docs/product-rules.md §19): an account asks to hear when something starts, and
-- each load's ingest finds it set-based from what the load changed.
--
-- A domain watch names a root domain (normalized like the `domain` parameter) and hears of every
-- advertiser identifier that sends ads to it for the first time; an advertiser watch names an
-- advertiser exactly as the lookups take it (byte for byte) and hears of every landing domain its
-- identifiers use for the first time. A test key's watch is a sandbox watch: only loads into the
-- sandbox's tables match it, and its deliveries are free.
CREATE TABLE watches (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id bigint NOT NULL REFERENCES accounts (id),
  -- The key that created it (its prefix is shown with the watch's charges); kept when the key is
  -- revoked, the watch belongs to the account.
  key_id     bigint REFERENCES api_keys (id),
  kind       text COLLATE "C" NOT NULL CONSTRAINT watches_kind_check CHECK (kind IN ('domain', 'advertiser')),
  -- The root domain of a domain watch; the advertiser name of an advertiser watch.
  target     text COLLATE "C" NOT NULL CONSTRAINT watches_target_check CHECK (length(target) BETWEEN 1 AND 2048),
  sandbox    boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- A deleted watch is gone for its holder (404) and matches nothing more; its events stay for the
  -- deliveries and charges that name them.
  deleted_at timestamptz
);
-- One live watch per account, kind, target and dataset: creating it again returns the same watch.
CREATE UNIQUE INDEX watches_one_per_target ON watches (account_id, sandbox, kind, target) WHERE deleted_at IS NULL;
-- The matching joins a load's new (advertiser, landing domain) pairs to these by index.
CREATE INDEX watches_by_target ON watches (sandbox, kind, target) WHERE deleted_at IS NULL;
CREATE INDEX watches_by_account ON watches (account_id, created_at, id) WHERE deleted_at IS NULL;

-- What a watch found: one row per watch and change, whatever happens to the load that found it
-- (a load run twice, interrupted and completed): the unique key makes each change reported once.
-- For a domain watch the change is an advertiser identifier that is new on the domain; for an
-- advertiser watch, a landing domain that is new to one of the advertiser's identifiers.
CREATE TABLE watch_events (
  id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  watch_id             uuid NOT NULL REFERENCES watches (id),
  advertiser_id        text COLLATE "C" NOT NULL,
  advertiser           text COLLATE "C" NOT NULL,
  landing_domain       text COLLATE "C" NOT NULL,
  -- The first date the identifier was seen on the landing domain.
  first_seen           date NOT NULL,
  -- The identifier's landing-domain footprint when the change was found, as in a brand-bid row.
  landing_domain_count integer NOT NULL CONSTRAINT watch_events_landing_domain_count_check CHECK (landing_domain_count >= 1),
  found_at             timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT watch_events_once UNIQUE (watch_id, advertiser_id, landing_domain)
);
CREATE INDEX watch_events_by_watch ON watch_events (watch_id, id);
