-- Brand watch delivery (docs/product-rules.md §19, "Delivery and billing of watch news"): the
-- outbox. After each load (and at the service's start, for leftovers) the events no delivery holds
-- yet are grouped into one delivery per watch, and one email digest per account, in one statement;
-- the service's senders then bill, post and mail them under leases, so a killed process loses
-- nothing and two processes deliver each once.

-- One account's email digest of one queueing of news (a load): one email, whatever the count.
CREATE TABLE watch_digests (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id      bigint NOT NULL REFERENCES accounts (id),
  created_at      timestamptz NOT NULL DEFAULT now(),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  locked_until    timestamptz,
  sent_at         timestamptz,
  given_up_at     timestamptz,
  last_error      text
);
CREATE INDEX watch_digests_due ON watch_digests (next_attempt_at) WHERE sent_at IS NULL AND given_up_at IS NULL;

-- One watch's news of one load: billed once (5 credits, or free in the sandbox), posted to the
-- account's webhook as one `watch.news` event whose id is the same on every retry.
CREATE TABLE watch_deliveries (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  watch_id        uuid NOT NULL REFERENCES watches (id),
  account_id      bigint NOT NULL REFERENCES accounts (id),
  digest_id       bigint NOT NULL REFERENCES watch_digests (id),
  sandbox         boolean NOT NULL,
  events          integer NOT NULL CHECK (events >= 1),
  -- Which 10,000 of the load's changes for the watch it carries (0 for the first): a post carries
  -- at most that many (src/data/watch-news.ts).
  part            integer NOT NULL DEFAULT 0,
  created_at      timestamptz NOT NULL DEFAULT now(),
  -- due: not billed yet; held: the balance did not cover it (it waits for credits); paid: charged
  -- (charge_id); free: a sandbox delivery; refunded: its post was never accepted (refund_id).
  billing         text NOT NULL DEFAULT 'due' CHECK (billing IN ('due', 'held', 'paid', 'free', 'refunded')),
  charge_id       bigint UNIQUE REFERENCES ledger (id),
  refund_id       bigint UNIQUE REFERENCES ledger (id),
  billing_locked_until timestamptz,
  -- The account's webhook when the news was queued; null: it had none, the digest alone carries it.
  webhook_url     text COLLATE "C",
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  locked_until    timestamptz,
  delivered_at    timestamptz,
  given_up_at     timestamptz,
  last_status     integer,
  last_error      text,
  CHECK ((billing IN ('paid', 'refunded')) = (charge_id IS NOT NULL)),
  CHECK ((billing = 'refunded') = (refund_id IS NOT NULL))
);
CREATE INDEX watch_deliveries_to_bill ON watch_deliveries (account_id, id) WHERE billing IN ('due', 'held');
CREATE INDEX watch_deliveries_to_post ON watch_deliveries (next_attempt_at)
  WHERE webhook_url IS NOT NULL AND delivered_at IS NULL AND given_up_at IS NULL;
CREATE INDEX watch_deliveries_of_digest ON watch_deliveries (digest_id);

-- The delivery that carries each event; null until the event is queued.
ALTER TABLE watch_events ADD COLUMN delivery_id bigint REFERENCES watch_deliveries (id);
CREATE INDEX watch_events_unqueued ON watch_events (watch_id, id) WHERE delivery_id IS NULL;
CREATE INDEX watch_events_by_delivery ON watch_events (delivery_id);

-- An account whose news is held for want of credits, and the one email that said so; the row
-- goes when its held deliveries are billed, so a later shortage is told again.
CREATE TABLE watch_hold_notices (
  account_id bigint PRIMARY KEY REFERENCES accounts (id),
  held_at    timestamptz NOT NULL DEFAULT now(),
  emailed_at timestamptz
);
