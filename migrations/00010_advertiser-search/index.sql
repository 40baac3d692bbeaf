-- Advertiser search and "did you mean" suggestions (docs/product-rules.md §15).

CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- The form a name is searched in: lower case, and the accents of common Latin letters removed.
-- lower() under COLLATE "C" folds A-Z only and translate() maps the rest character by character,
-- so the key is the same on every server whatever its locale, which an expression index needs.
CREATE FUNCTION advertiser_search_key(name text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN translate(
    lower(name COLLATE "C"),
    'ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖØòóôõöøÙÚÛÜùúûüÝýÿŠšŽžŁłŒœ',
    'aaaaaaaaaaaacceeeeeeeeiiiiiiiinnoooooooooooouuuuuuuuyyysszzlloo'
  ) COLLATE "C";

-- Equal keys and key prefixes: one range scan of this index (byte order, so a prefix is a range).
CREATE INDEX identifiers_by_search_key ON identifiers ((advertiser_search_key(name)) COLLATE "C");

-- Similar names, nearest first: a GiST trigram index answers ORDER BY key <-> q LIMIT n by
-- walking the index, so the work does not grow with the number of identifiers.
CREATE INDEX identifiers_by_search_trigrams ON identifiers USING gist (advertiser_search_key(name) gist_trgm_ops);

-- Root domains with ads that resemble one without data.
CREATE INDEX landing_domain_stats_by_trigrams ON landing_domain_stats USING gist (domain gist_trgm_ops);
