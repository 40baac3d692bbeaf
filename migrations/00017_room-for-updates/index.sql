-- Room on each page for the rows ingest updates in place. A batch rewrites the counts and spans
-- of every identifier, identifier month and landing domain it touches; none of those columns is
-- indexed, so with free space on the row's page the new version stays there and no index is
-- written (a "HOT" update). Full pages forced every update to insert into every index of the
-- table: the identifiers' three, one of them an expression. Pages filled before this change get
-- the room once they are rewritten; new pages have it at once.
ALTER TABLE identifiers SET (fillfactor = 70);
ALTER TABLE identifier_months SET (fillfactor = 70);
ALTER TABLE landing_domain_stats SET (fillfactor = 70);
ALTER TABLE sandbox.identifiers SET (fillfactor = 70);
ALTER TABLE sandbox.identifier_months SET (fillfactor = 70);
ALTER TABLE sandbox.landing_domain_stats SET (fillfactor = 70);
