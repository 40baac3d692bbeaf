-- Up Migration

-- A creative's ownership and its presence on each landing domain and in each month are read from
-- its observations, whose primary key starts with the creative: the first observation gives the
-- owner (every observation of a creative names its owner), and a creative seen on a domain or
-- in a month has an observation there. The three tables that repeated this cost ingest a row
-- insert and an index entry each for every few observations, and no lookup reads them.
DROP TABLE creatives;
DROP TABLE creative_domains;
DROP TABLE creative_months;

-- Down Migration
CREATE TABLE creatives (
  creative_id   text COLLATE "C" PRIMARY KEY,
  advertiser_id text COLLATE "C" NOT NULL
);
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
INSERT INTO creatives SELECT DISTINCT creative_id, advertiser_id FROM observations;
INSERT INTO creative_domains SELECT DISTINCT creative_id, landing_domain FROM observations;
INSERT INTO creative_months SELECT DISTINCT creative_id, date_trunc('month', seen_on::timestamp)::date FROM observations;
