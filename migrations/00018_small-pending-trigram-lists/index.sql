-- The trigram indexes the "did you mean" and the search's similar branch read (00014) keep at
-- most 256 kB of entries in their pending list instead of PostgreSQL's 4 MB.
--
-- A GIN index takes new entries into an unsorted pending list, merged into the index when the
-- list outgrows its limit or at a vacuum; every search reads the whole list. Ingest adds names a
-- batch at a time, and after a load nothing else writes the table, so up to 4 MB of names (6,500
-- at 20 million observations) waited there until autovacuum came, and every misspelled name read
-- them: 44 ms instead of 37 for the similar names of one typo on 835,000 names. At 256 kB the list
-- holds a few hundred names; merging it more often cost loading 134,000 new names 4 % more.
ALTER INDEX advertiser_names_by_trigrams SET (gin_pending_list_limit = 256);
ALTER INDEX landing_domain_stems_by_trigrams SET (gin_pending_list_limit = 256);
ALTER INDEX sandbox.advertiser_names_by_trigrams SET (gin_pending_list_limit = 256);
ALTER INDEX sandbox.landing_domain_stems_by_trigrams SET (gin_pending_list_limit = 256);
