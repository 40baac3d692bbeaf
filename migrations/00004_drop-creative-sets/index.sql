-- A creative's ownership and its presence on each landing domain and in each month are read from
-- its observations, whose primary key starts with the creative: the first observation gives the
-- owner (every observation of a creative names its owner), and a creative seen on a domain or
-- in a month has an observation there. The three tables that repeated this cost ingest a row
-- insert and an index entry each for every few observations, and no lookup reads them.
DROP TABLE creatives;
DROP TABLE creative_domains;
DROP TABLE creative_months;
