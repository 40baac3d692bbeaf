-- The observation data and the aggregates the five lookups read.
--
-- Every text column is COLLATE "C": orderings and "smallest" compare by code point, and
-- equality is byte equality (docs/product-rules.md R1.5, R1.11).
--
-- Observations are never deleted and an observation's creative, date, landing domain and
-- identifier never change (a creative has one owner for good). So every aggregate below only
-- grows, and ingest maintains it incrementally from each batch's new observations, in the same
-- transaction: readers never see the observations and the aggregates disagree, and a lookup
-- reads rows in proportion to its answer, not to the data.

-- Ingest numbers its batches; an observation's ingest_seq is batch * 1,000,000 + its position
-- in the batch, so "latest ingested" follows file order and later loads beat earlier ones.
CREATE SEQUENCE ingest_batches;

-- One row per observation identity: (creative, day, landing root domain).
CREATE TABLE observations (
  creative_id     text COLLATE "C" NOT NULL,
  seen_on         date NOT NULL,
  landing_domain  text COLLATE "C" NOT NULL,
  advertiser_id   text COLLATE "C" NOT NULL,
  advertiser_name text COLLATE "C" NOT NULL,
  country         char(2) COLLATE "C" NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
  ingest_seq      bigint NOT NULL,
  PRIMARY KEY (creative_id, seen_on, landing_domain)
);

-- Ownership: the identifier of the first accepted row that mentions the creative.
CREATE TABLE creatives (
  creative_id   text COLLATE "C" PRIMARY KEY,
  advertiser_id text COLLATE "C" NOT NULL
);

-- Presence sets: which creative was seen on which landing domain and in which calendar month.
-- A row inserted here is a creative newly counted in identifier_domains / identifier_months.
CREATE TABLE creative_domains (
  creative_id    text COLLATE "C" NOT NULL,
  landing_domain text COLLATE "C" NOT NULL,
  PRIMARY KEY (creative_id, landing_domain)
);
CREATE TABLE creative_months (
  creative_id text COLLATE "C" NOT NULL,
  month       date NOT NULL CHECK (extract(day FROM month) = 1),
  PRIMARY KEY (creative_id, month)
);

-- One row per advertiser identifier. name and country are those of its most recent observation
-- (latest seen_on, ties: highest ingest_seq), which is remembered in name_seen_on/name_ingest_seq.
CREATE TABLE identifiers (
  advertiser_id   text COLLATE "C" PRIMARY KEY CHECK (advertiser_id ~ '^AR[0-9]{1,30}$'),
  name            text COLLATE "C" NOT NULL,
  country         char(2) COLLATE "C" NOT NULL,
  name_seen_on    date NOT NULL,
  name_ingest_seq bigint NOT NULL,
  creatives       integer NOT NULL CHECK (creatives >= 0),
  landing_domains integer NOT NULL CHECK (landing_domains >= 0),
  first_seen      date NOT NULL,
  last_seen       date NOT NULL
);
CREATE INDEX identifiers_by_name ON identifiers (name);

-- An identifier's footprint on one landing domain. The second index serves the brand-bid
-- report: its first 100 entries for a domain are the report's rows, already in report order.
CREATE TABLE identifier_domains (
  advertiser_id  text COLLATE "C" NOT NULL,
  landing_domain text COLLATE "C" NOT NULL,
  creatives      integer NOT NULL CHECK (creatives >= 0),
  first_seen     date NOT NULL,
  last_seen      date NOT NULL,
  PRIMARY KEY (advertiser_id, landing_domain)
);
CREATE INDEX identifier_domains_by_domain
  ON identifier_domains (landing_domain, creatives DESC, last_seen DESC, advertiser_id);

-- Month by month, for the history: distinct creatives per identifier, and which domains.
CREATE TABLE identifier_months (
  advertiser_id text COLLATE "C" NOT NULL,
  month         date NOT NULL,
  creatives     integer NOT NULL CHECK (creatives >= 0),
  PRIMARY KEY (advertiser_id, month)
);
CREATE TABLE identifier_month_domains (
  advertiser_id  text COLLATE "C" NOT NULL,
  month          date NOT NULL,
  landing_domain text COLLATE "C" NOT NULL,
  PRIMARY KEY (advertiser_id, month, landing_domain)
);

-- Per landing domain: distinct identifiers with an observation landing there.
CREATE TABLE landing_domain_stats (
  domain      text COLLATE "C" PRIMARY KEY,
  advertisers integer NOT NULL CHECK (advertisers >= 0)
);

-- Latest crawl per root domain, UTC wall-clock time.
CREATE TABLE crawls (
  domain       text COLLATE "C" PRIMARY KEY,
  last_crawled timestamp without time zone NOT NULL
);

-- Manual labels by advertiser name; a cleared label is an absent row.
CREATE TABLE labels (
  advertiser_name text COLLATE "C" PRIMARY KEY,
  advertiser_type text COLLATE "C" NOT NULL CHECK (advertiser_type IN ('agency', 'direct'))
);
